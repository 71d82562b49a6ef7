"""The engine's front door: (state, command) -> (new state, events).

`legal_commands(state, side)` lists every legal command at the current
decision; `apply` refuses anything else with an IllegalCommand whose message
names the rule. Nothing else changes a game.
"""

from __future__ import annotations

from typing import Callable

from attrs import frozen

from rules import battle, bidding, casualties, combat, mori_box, movement, muster, reinforcement, retreat, stack_moves
from rules.alike import Pieces, block_kind, card_kind, named_twice, representative
from rules.commands import (
    AllowPlay,
    BeginMove,
    Challenge,
    ChooseCasualty,
    ComeOutside,
    DeclareCombat,
    DeclareDone,
    Deploy,
    DeployLeader,
    Retreat,
    StayInside,
    Bid,
    ChooseFirstPlayer,
    ChooseMovement,
    Command,
    Deselect,
    EndExchange,
    EndMovement,
    EndStackMove,
    EnterFromMoriBox,
    ExchangeCard,
    ForceMarch,
    Halt,
    Muster,
    ReinforcementDiscard,
    Select,
    Step,
)
from rules.errors import IllegalCommand
from rules.events import Event
from rules.sequence import advance
from rules.setup import new_game
from rules.sides import Side
from rules.state import MORI_BOX, DecisionKind, GameState, recruitment_box

Handler = Callable[[GameState, Command], tuple[GameState, list[Event]]]
Check = Callable[[GameState, Command], "str | None"]


def _always_legal(state: GameState, command: Command) -> str | None:
    return None


@frozen
class Answer:
    """How one command type answers a decision: why it may be illegal (the
    reason a player reads), its effect, and the fields naming interchangeable
    pieces. Legality itself is one definition: listed by legal_commands, up to
    those pieces (rules.alike)."""

    check: Check
    apply: Handler
    pieces: tuple[Pieces, ...] = ()


# Where the pieces a command names must be.
def _hand(state: GameState, command: Command) -> tuple[str, ...]:
    return state.cards[command.side].hand


def _undeployed(state: GameState, command: Command) -> tuple[str, ...]:
    return battle.undeployed(state, battle.battle_of(state), command.side)


def _recruitment_box(state: GameState, command: Command) -> tuple[str, ...]:
    return state.blocks_at(recruitment_box(command.side), command.side)


def _mori_box(state: GameState, command: Command) -> tuple[str, ...]:
    return state.blocks_at(MORI_BOX, command.side)


def _retreating(state: GameState, command: Command) -> tuple[str, ...]:
    return state.blocks_at(battle.battle_of(state).location, command.side)


@frozen
class DecisionRules:
    asks: str  # what the deciding side is asked to do, with the rule
    legal: Callable[[GameState, Side], list]
    answers: dict[type, Answer]


MORI_ENTRY = Answer(
    mori_box.why_mori_entry_illegal,
    mori_box.apply_mori_entry,
    (Pieces("block", block_kind, _mori_box, "9.3"), Pieces("card", card_kind, _hand, "R40")),
)

DECISIONS: dict[DecisionKind, DecisionRules] = {
    DecisionKind.REINFORCEMENT_DISCARD: DecisionRules(
        "discard half of the hand (6.2)",
        reinforcement.legal_reinforcement_discards,
        {ReinforcementDiscard: Answer(reinforcement.why_reinforcement_discard_illegal, reinforcement.apply_reinforcement_discard)},
    ),
    DecisionKind.BID: DecisionRules(
        "bid a card for first player (6.3)",
        bidding.legal_bids,
        {Bid: Answer(bidding.why_bid_illegal, bidding.apply_bid)},
    ),
    DecisionKind.CHOOSE_FIRST_PLAYER: DecisionRules(
        "choose the first player (6.3)",
        bidding.legal_first_player_choices,
        {ChooseFirstPlayer: Answer(_always_legal, bidding.apply_choose_first_player)},
    ),
    DecisionKind.CHOOSE_MOVEMENT: DecisionRules(
        "choose a movement option (7.1)",
        movement.legal_movement_choices,
        {ChooseMovement: Answer(movement.why_movement_choice_illegal, movement.apply_choose_movement)},
    ),
    DecisionKind.EXCHANGE_CARDS: DecisionRules(
        "exchange cards under the no-movement option (7.1)",
        movement.legal_exchanges,
        {
            ExchangeCard: Answer(movement.why_exchange_illegal, movement.apply_exchange_card),
            EndExchange: Answer(_always_legal, movement.apply_end_exchange),
            EnterFromMoriBox: MORI_ENTRY,
        },
    ),
    DecisionKind.MOVE: DecisionRules(
        "move a stack, muster, or end the Movement Phase (7)",
        movement.legal_moves,
        {
            BeginMove: Answer(stack_moves.why_begin_move_illegal, stack_moves.apply_begin_move),
            Muster: Answer(muster.why_muster_illegal, muster.apply_muster,
                            (Pieces("blocks", block_kind, _recruitment_box, "7.2"),)),
            EnterFromMoriBox: MORI_ENTRY,
            EndMovement: Answer(_always_legal, movement.apply_end_movement),
        },
    ),
    DecisionKind.STACK_MOVE: DecisionRules(
        "move the blocks of this stack (7.3)",
        stack_moves.legal_stack_commands,
        {
            Select: Answer(stack_moves.why_select_illegal, stack_moves.apply_select),
            Deselect: Answer(stack_moves.why_deselect_illegal, stack_moves.apply_deselect),
            ForceMarch: Answer(stack_moves.why_force_march_illegal, stack_moves.apply_force_march),
            Step: Answer(stack_moves.why_step_illegal, stack_moves.apply_step),
            Halt: Answer(stack_moves.why_halt_illegal, stack_moves.apply_halt),
            EndStackMove: Answer(_always_legal, stack_moves.apply_end_stack_move),
        },
    ),
    DecisionKind.DECLARE_COMBAT: DecisionRules(
        "declare the next combat (8.1)",
        combat.legal_declarations,
        {DeclareCombat: Answer(combat.why_declaration_illegal, combat.apply_declare_combat)},
    ),
    DecisionKind.CASTLE_CHOICE: DecisionRules(
        "stay inside the castle or come out (8.9.2)",
        combat.legal_castle_choices,
        {
            StayInside: Answer(_always_legal, combat.apply_stay_inside),
            ComeOutside: Answer(_always_legal, combat.apply_come_outside),
        },
    ),
    DecisionKind.DEPLOY: DecisionRules(
        "deploy a block or stop deploying (8.2-8.5)",
        battle.legal_deployments,
        {
            Deploy: Answer(battle.why_deploy_illegal, battle.apply_deploy, (
                Pieces("card", card_kind, _hand, "8.2.2"), Pieces("blocks", block_kind, _undeployed, "8.2.2"))),
            DeployLeader: Answer(battle.why_deploy_leader_illegal, battle.apply_deploy_leader,
                                 (Pieces("block", block_kind, _undeployed, "8.2.4"),)),
            DeclareDone: Answer(battle.why_done_illegal, battle.apply_declare_done),
        },
    ),
    DecisionKind.CHALLENGE: DecisionRules(
        "challenge the loyalty of the play just made, or allow it (8.6)",
        battle.legal_challenges,
        {
            Challenge: Answer(battle.why_challenge_illegal, battle.apply_challenge,
                               (Pieces("card", card_kind, _hand, "8.6.1"),)),
            AllowPlay: Answer(_always_legal, battle.apply_allow_play),
        },
    ),
    DecisionKind.CASUALTY: DecisionRules(
        "choose a block to lose (8.7)",
        casualties.legal_casualties,
        {ChooseCasualty: Answer(casualties.why_casualty_illegal, combat.apply_casualty)},
    ),
    DecisionKind.RETREAT: DecisionRules(
        "retreat (8.8)",
        retreat.legal_retreats,
        {Retreat: Answer(retreat.why_retreat_illegal, combat.apply_retreat,
                         (Pieces("garrison", block_kind, _retreating, "8.8.4"),))},
    ),
}


def start_game(seed: int) -> tuple[GameState, list[Event]]:
    """A new game after setup (5), waiting for week 1's bid."""
    return new_game(seed)


def legal_commands(state: GameState, side: Side) -> list[Command]:
    """Every command `side` may give now, up to interchangeable pieces (rules.alike):
    where alike blocks or cards would give the same command, one is listed.
    Empty if the side has nothing to decide."""
    if side not in state.decision.sides:
        return []
    return DECISIONS[state.decision.kind].legal(state, side)


def asks(kind: DecisionKind) -> str:
    """What a decision of this kind asks, with its rule: "bid a card for first player (6.3)"."""
    if kind is DecisionKind.NONE:
        return "nothing: the game is over (R56)"
    return DECISIONS[kind].asks


def waiting_for(state: GameState) -> str:
    """What the game is waiting for, in words, for messages and prompts."""
    if state.decision.kind is DecisionKind.NONE:
        return asks(DecisionKind.NONE)
    who = " and ".join(sorted(s.value for s in state.decision.sides))
    return f"{who} to {asks(state.decision.kind)}"


def why_illegal(state: GameState, command: Command) -> str | None:
    """The reason a command may not be given now, or None if it is legal."""
    if state.decision.kind is DecisionKind.NONE:
        return "the game is over (R56)"
    if command.side not in state.decision.sides:
        return f"it is not {command.side.value}'s decision: waiting for {waiting_for(state)}"
    answer = DECISIONS[state.decision.kind].answers.get(type(command))
    if answer is None:
        return f"that command does not answer the current decision: waiting for {waiting_for(state)}"
    reason = named_twice(command, answer.pieces) or answer.check(state, command)
    if reason is None and representative(state, command, answer.pieces) not in legal_commands(state, command.side):
        reason = f"not a legal command now: waiting for {waiting_for(state)}"
    return reason


def apply(state: GameState, command: Command) -> tuple[GameState, tuple[Event, ...]]:
    """Apply a legal command. An illegal one raises IllegalCommand and changes nothing."""
    reason = why_illegal(state, command)
    if reason is not None:
        raise IllegalCommand(reason)
    return _carry_out(state, command)


def apply_trusted(state: GameState, command: Command) -> tuple[GameState, tuple[Event, ...]]:
    """Apply a command taken from `legal_commands` of this very state, without
    checking it again (rebuilding the legal list costs as much as the move
    itself). For self-play and bots only: a command from a player, a file or
    the network goes through `apply`. The same command gives the same result
    either way."""
    if command.side not in state.decision.sides:  # cheap guard against gross misuse
        raise IllegalCommand(f"it is not {command.side.value}'s decision: waiting for {waiting_for(state)}")
    return _carry_out(state, command)


def _carry_out(state: GameState, command: Command) -> tuple[GameState, tuple[Event, ...]]:
    handler = DECISIONS[state.decision.kind].answers[type(command)].apply
    state, events = handler(state, command)
    state, more = advance(state)
    return state, tuple(events + more)
