"""7.1 Movement Phase: the movement options, one table of what each costs and
allows and the words for it; choosing one; the "no movement" exchange; and
the phase's decisions (CHOOSE_MOVEMENT, EXCHANGE_CARDS, MOVE).

Stack moves are in `stack_moves` (7.3), musters in `muster` (7.2), overruns
in `arrival` (7.4) and the Mori Box in `mori_box` (9.3); how many of them an
option allows is decided here, from the table.
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import chain, combinations

from attrs import frozen

from rules import muster, stack_moves
from rules.commands import BeginMove, ChooseMovement, EndExchange, EndMovement, EnterFromMoriBox, ExchangeCard, Muster
from rules.decision import Answer, DecisionHelp, DecisionRules, always_legal, help_text
from rules.components import default_components
from rules.decks import discard_cards, draw_cards
from rules.events import Event, MovementChosen, MovementEnded, PhaseBegan
from rules.immutable import evolve
from rules.mori_box import MORI_ENTRY, legal_mori_entries
from rules.pair import Pair
from rules.sides import Side
from rules.state import Decision, DecisionKind, GameState, MovementOption, MovementPhase, Phase, deciding

PHASE_DONE = Decision(DecisionKind.NONE, frozenset())
_END_MOVEMENT = Pair.of(EndMovement)
_EXCHANGE_CARDS, _MOVE, _PASS = DecisionKind.EXCHANGE_CARDS, DecisionKind.MOVE, MovementOption.PASS  # rules.sides (issue 25)  # listed at every MOVE decision: made once


# --- the movement options (7.1) -----------------------------------------------------


@frozen
class OptionRules:
    """One row of 7.1's table: what the option costs and allows, and the words
    each reader sees for it."""

    cards: int  # discarded to take it (R10)
    stack_moves: int | None  # stack moves allowed; None: every stack may move
    musters: int  # musters allowed: one a turn at most (7.2)
    muster_is_a_move: bool  # a muster takes the place of one of the stack moves
    choice: str  # in the choices list
    chosen: str  # in the log: "You choose <chosen> (7.1)."
    explained: str  # in the `?` help, after "<option> (<cards> cards): "


MOVEMENT_OPTIONS: dict[MovementOption, OptionRules] = {
    MovementOption.PASS: OptionRules(
        cards=0, stack_moves=0, musters=0, muster_is_a_move=False,
        choice="No movement: exchange cards (7.1)",
        chosen="to pass: no stack moves, but cards may be exchanged",
        explained="no moves; instead you may exchange any cards for new ones.",
    ),
    MovementOption.MINIMAL: OptionRules(
        cards=0, stack_moves=1, musters=1, muster_is_a_move=True,
        choice="Minimal: 1 stack move or 1 muster, free",
        chosen="Minimal movement: 1 stack move or 1 muster",
        explained="one stack move OR one muster.",
    ),
    MovementOption.LIMITED: OptionRules(
        cards=1, stack_moves=3, musters=1, muster_is_a_move=True,
        choice="Limited: 3 stack moves (a muster may replace one)",
        chosen="Limited movement: 3 stack moves, one of which may be a muster",
        explained="three stack moves; one of them may be a muster instead.",
    ),
    MovementOption.FULL: OptionRules(
        cards=2, stack_moves=None, musters=1, muster_is_a_move=False,
        choice="Full: every stack may move, plus 1 muster",
        chosen="Full movement: every stack may move, plus 1 muster",
        explained="every stack may move, plus one muster.",
    ),
}


def card_cost(option: MovementOption) -> int:
    """7.1, R10: 0, 0, 1 or 2 cards."""
    return MOVEMENT_OPTIONS[option].cards


def may_begin_stack_move(movement: MovementPhase) -> bool:
    """7.1: the option's stack moves, less a muster that took the place of one."""
    if movement.option is None:
        return False
    allowed = MOVEMENT_OPTIONS[movement.option]
    if allowed.stack_moves is None:
        return True
    used = movement.stack_moves + (movement.mustered and allowed.muster_is_a_move)
    return used < allowed.stack_moves


def may_muster(movement: MovementPhase) -> bool:
    """7.1, 7.2: once a turn, and while the option has a move left for it when
    a muster takes the place of a stack move."""
    if movement.option is None:
        return False
    allowed = MOVEMENT_OPTIONS[movement.option]
    if movement.mustered >= allowed.musters:
        return False
    return not allowed.muster_is_a_move or may_begin_stack_move(movement)


def _why_no_stack_move(state: GameState, command: BeginMove) -> str | None:
    movement = state.movement
    assert movement is not None and movement.option is not None
    if not may_begin_stack_move(movement):
        return f"{movement.option.value} movement allows no more stack moves (7.1)"
    return stack_moves.why_begin_move_illegal(state, command)


def _why_no_muster(state: GameState, command: Muster) -> str | None:
    movement = state.movement
    assert movement is not None and movement.option is not None
    if movement.mustered:
        return "you may muster only once a turn (7.2)"
    if not may_muster(movement):
        return f"{movement.option.value} movement allows no more musters (7.1)"
    return muster.why_muster_illegal(state, command)


def begin_movement_phase(state: GameState, side: Side) -> tuple[GameState, list[Event]]:
    state = evolve(
        state,
        phase=Phase.MOVEMENT,
        active=side,
        movement=MovementPhase(),
        decision=deciding(DecisionKind.CHOOSE_MOVEMENT, side),
    )
    return state, [PhaseBegan(state.week, state.turn, Phase.MOVEMENT, side)]


def legal_movement_choices(state: GameState, side: Side) -> list[ChooseMovement]:
    """7.1, R10: each option with every way of paying its 0, 1 or 2 cards."""
    return list(_choices(side, tuple(sorted(state.cards[side].hand))))


@lru_cache(maxsize=4096)
def _choices(side: Side, hand: tuple[str, ...]) -> tuple[ChooseMovement, ...]:
    """legal_movement_choices by the sorted hand: a side's hands repeat across
    games. A new hand's choices are looked up by their cards in tables made
    once per side (C-level maps over the hand's combinations, issue 25)."""
    tables = _choice_tables(side)
    try:
        return tuple(chain.from_iterable(map(table.__getitem__, combinations(hand, card_cost(option)))
                                         for option, table in tables))
    except KeyError:  # a card not of the side's deck: made here (the tables hold the deck's)
        return tuple(_choice(side, option, cards) for option in MovementOption
                     for cards in combinations(hand, card_cost(option)))


@cache
def _choice_tables(side: Side) -> tuple[tuple[MovementOption, dict[tuple[str, ...], ChooseMovement]], ...]:
    """Each option's choices by the cards paid, for every set of the side's
    cards it may cost (sorted, as the hand is given to `_choices`)."""
    deck = sorted(card.id for card in default_components().cards_of(side))
    return tuple((option, {cards: _choice(side, option, cards) for cards in combinations(deck, card_cost(option))})
                 for option in MovementOption)


@cache
def _choice(side: Side, option: MovementOption, cards: tuple[str, ...]) -> ChooseMovement:
    """Each choice made once (a side's cards and their pairs are few, issue 25)."""
    return ChooseMovement(side, option, cards)


def why_movement_choice_illegal(state: GameState, command: ChooseMovement) -> str | None:
    cost = card_cost(command.option)
    if len(command.cards) != cost:
        return (
            f"{command.option.value} movement costs {cost} card{'s' * (cost != 1)}, "
            f"not {len(command.cards)} (7.1)"
        )
    if len(set(command.cards)) != len(command.cards):
        return "the same card cannot be discarded twice (7.1)"
    for card in command.cards:
        if card not in state.cards[command.side].hand:
            return f"{card} is not in your hand (7.1)"
    return None


def apply_choose_movement(state: GameState, command: ChooseMovement) -> tuple[GameState, list[Event]]:
    state, events = discard_cards(state, command.side, command.cards, "movement")
    next_kind = _EXCHANGE_CARDS if command.option is _PASS else _MOVE
    state = evolve(
        state,
        movement=MovementPhase(option=command.option),
        decision=Decision(next_kind, frozenset({command.side})),
    )
    return state, [MovementChosen(command.side, command.option), *events]


def legal_exchanges(state: GameState, side: Side) -> list:
    """7.1 "no movement": discard any number of cards, then draw as many.
    Mori Box entries are allowed under any option (R42)."""
    return [
        *(ExchangeCard(side, card) for card in state.cards[side].hand),
        *legal_mori_entries(state, side),
        EndExchange(side),
    ]


def why_exchange_illegal(state: GameState, command: ExchangeCard) -> str | None:
    if command.card not in state.cards[command.side].hand:
        return f"{command.card} is not in your hand (7.1)"
    return None


def apply_exchange_card(state: GameState, command: ExchangeCard) -> tuple[GameState, list[Event]]:
    assert state.movement is not None
    state, events = discard_cards(state, command.side, (command.card,), "exchange")
    movement = evolve(state.movement, exchanged=state.movement.exchanged + 1)
    return evolve(state, movement=movement), events


def apply_end_exchange(state: GameState, command: EndExchange) -> tuple[GameState, list[Event]]:
    assert state.movement is not None
    state, events = draw_cards(state, command.side, state.movement.exchanged)
    return evolve(state, decision=PHASE_DONE), [*events, MovementEnded(command.side)]


def legal_moves(state: GameState, side: Side) -> list:
    """7.1: the stack moves and the muster the option still allows; Mori Box
    entries under any option (R42); or the end of the phase."""
    assert state.movement is not None
    begins = stack_moves.legal_begin_moves(state, side) if may_begin_stack_move(state.movement) else []
    musters = muster.legal_musters(state, side) if may_muster(state.movement) else []
    return [*begins, *musters, *legal_mori_entries(state, side), _END_MOVEMENT[side]]


def apply_end_movement(state: GameState, command: EndMovement) -> tuple[GameState, list[Event]]:
    return evolve(state, decision=PHASE_DONE), [MovementEnded(command.side)]


# --- the decisions -------------------------------------------------------------------

CHOOSE_MOVEMENT = DecisionRules(
    kind=DecisionKind.CHOOSE_MOVEMENT,
    asks="choose a movement option (7.1)",
    help=DecisionHelp(
        title="Choose a movement option",
        rules="7.1, 7.2, R10, R42",
        text=help_text(
            "Start of your Movement Phase: pay 0, 1 or 2 cards for one option.",
            *(
                f"{option.value} ({allowed.cards} card{'s' * (allowed.cards != 1)}): {allowed.explained}"
                for option, allowed in MOVEMENT_OPTIONS.items()
            ),
            "Mori Box entries (Ishida, 9.3) are separate and possible under any option (R42).",
            "Answer with: movement <option> [cards...]   e.g. movement full <card> <card>",
        ),
    ),
    legal=legal_movement_choices,
    answers={ChooseMovement: Answer(why_movement_choice_illegal, apply_choose_movement)},
)

EXCHANGE_CARDS = DecisionRules(
    kind=DecisionKind.EXCHANGE_CARDS,
    asks="exchange cards under the no-movement option (7.1)",
    help=DecisionHelp(
        title="Exchange cards (no movement)",
        rules="7.1, 9.3, R42",
        text=help_text(
            "You chose not to move this phase. You may discard cards you do not want,",
            "one per command, and then draw as many new cards as you discarded.",
            "Drawing ends your Movement Phase; your Combat Phase follows.",
            "Ishida may still bring Mori Box blocks into Osaka here, 1 card each (R42).",
            "Answer with: exchange <card> (repeat), then draw; mori <block> <card>",
        ),
    ),
    legal=legal_exchanges,
    answers={
        ExchangeCard: Answer(why_exchange_illegal, apply_exchange_card),
        EndExchange: Answer(always_legal, apply_end_exchange),
        EnterFromMoriBox: MORI_ENTRY,
    },
    finishing=EndExchange,
)

MOVE = DecisionRules(
    kind=DecisionKind.MOVE,
    asks="move a stack, muster, or end the Movement Phase (7)",
    help=DecisionHelp(
        title="Move, muster, or end movement",
        rules="7.1, 7.2, 7.3.1, 7.3.4, 7.4, 9.3, R12, R15, R17, R42",
        text=help_text(
            "Begin a stack move from a location (each location is the source of at most",
            "one move per phase, R15), muster, bring in Mori blocks, or end the phase.",
            "Add 'leader' to move if the stack relies on a leader block for leadership (+1):",
            "the opponent learns a leader is there, not which; a friendly controlled castle",
            "or your own capital gives it without a declaration (R17).",
            "Muster (once per turn): one block of any daimyo, hidden, or several blocks of the",
            "location's daimyo, shown. Never into enemy blocks unless you have blocks there (R12, R61).",
            "Mustered and Mori blocks cannot move this turn; their arrival can overrun (7.4).",
            "Answer with: move <location> [leader]; muster <location> <blocks...>;",
            "mori <block> <card>; end",
        ),
    ),
    legal=legal_moves,
    answers={
        BeginMove: Answer(_why_no_stack_move, stack_moves.apply_begin_move),
        Muster: Answer(_why_no_muster, muster.apply_muster, muster.MUSTERED_BLOCKS),
        EnterFromMoriBox: MORI_ENTRY,
        EndMovement: Answer(always_legal, apply_end_movement),
    },
    finishing=EndMovement,
)
