"""The engine's front door: (state, command) -> (new state, events).

`legal_commands(state, side)` lists every legal command at the current
decision; `apply` refuses anything else with an IllegalCommand whose message
names the rule. Nothing else changes a game.
"""

from __future__ import annotations

from typing import Callable

from rules import bidding, movement, reinforcement
from rules.commands import (
    Bid,
    ChooseFirstPlayer,
    ChooseMovement,
    Command,
    EndExchange,
    EndMovement,
    ExchangeCard,
    ReinforcementDiscard,
)
from rules.errors import IllegalCommand
from rules.events import Event
from rules.sequence import advance
from rules.setup import new_game
from rules.sides import Side
from rules.state import DecisionKind, GameState

Handler = Callable[[GameState, Command], tuple[GameState, list[Event]]]
Check = Callable[[GameState, Command], "str | None"]


def _always_legal(state: GameState, command: Command) -> str | None:
    return None


# What each decision accepts: how to list its legal commands, and for each
# command type, how to explain why it is illegal and how to apply it.
DECISIONS: dict[DecisionKind, tuple[str, Callable, dict[type, tuple[Check, Handler]]]] = {
    DecisionKind.REINFORCEMENT_DISCARD: (
        "discard half your hand (6.2)",
        reinforcement.legal_reinforcement_discards,
        {ReinforcementDiscard: (reinforcement.why_reinforcement_discard_illegal, reinforcement.apply_reinforcement_discard)},
    ),
    DecisionKind.BID: (
        "bid a card for first player (6.3)",
        bidding.legal_bids,
        {Bid: (bidding.why_bid_illegal, bidding.apply_bid)},
    ),
    DecisionKind.CHOOSE_FIRST_PLAYER: (
        "choose the first player (6.3)",
        bidding.legal_first_player_choices,
        {ChooseFirstPlayer: (_always_legal, bidding.apply_choose_first_player)},
    ),
    DecisionKind.CHOOSE_MOVEMENT: (
        "choose a movement option (7.1)",
        movement.legal_movement_choices,
        {ChooseMovement: (movement.why_movement_choice_illegal, movement.apply_choose_movement)},
    ),
    DecisionKind.EXCHANGE_CARDS: (
        "exchange cards under the no-movement option (7.1)",
        movement.legal_exchanges,
        {
            ExchangeCard: (movement.why_exchange_illegal, movement.apply_exchange_card),
            EndExchange: (_always_legal, movement.apply_end_exchange),
        },
    ),
    DecisionKind.MOVE: (
        "move stacks or end the Movement Phase (7)",
        movement.legal_moves,
        {EndMovement: (_always_legal, movement.apply_end_movement)},
    ),
}


def start_game(seed: int) -> tuple[GameState, list[Event]]:
    """A new game after setup (5), waiting for week 1's bid."""
    return new_game(seed)


def legal_commands(state: GameState, side: Side) -> list[Command]:
    """Every command `side` may give now; empty if it has nothing to decide."""
    if side not in state.decision.sides:
        return []
    return DECISIONS[state.decision.kind][1](state, side)


def waiting_for(state: GameState) -> str:
    """What the game is waiting for, in words, for messages and prompts."""
    if state.decision.kind is DecisionKind.NONE:
        return "nothing: the game is over (R56)"
    who = " and ".join(sorted(s.value for s in state.decision.sides))
    return f"{who} to {DECISIONS[state.decision.kind][0]}"


def why_illegal(state: GameState, command: Command) -> str | None:
    """The reason a command may not be given now, or None if it is legal."""
    if state.decision.kind is DecisionKind.NONE:
        return "the game is over (R56)"
    if command.side not in state.decision.sides:
        return f"it is not {command.side.value}'s decision: waiting for {waiting_for(state)}"
    _, _, accepted = DECISIONS[state.decision.kind]
    if type(command) not in accepted:
        return f"that command does not answer the current decision: waiting for {waiting_for(state)}"
    reason = accepted[type(command)][0](state, command)
    if reason is None and command not in legal_commands(state, command.side):
        reason = f"not a legal command now: waiting for {waiting_for(state)}"
    return reason


def apply(state: GameState, command: Command) -> tuple[GameState, tuple[Event, ...]]:
    """Apply a legal command. An illegal one raises IllegalCommand and changes nothing."""
    reason = why_illegal(state, command)
    if reason is not None:
        raise IllegalCommand(reason)
    handler = DECISIONS[state.decision.kind][2][type(command)][1]
    state, events = handler(state, command)
    state, more = advance(state)
    return state, tuple(events + more)
