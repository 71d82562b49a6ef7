"""7.1 Movement Phase: the movement option, its card cost, and what it allows.

Stack moves are in `stack_moves` (7.3), musters in `muster` (7.2), overruns
in `arrival` (7.4) and the Mori Box in `mori_box` (9.3).
"""

from __future__ import annotations

from itertools import combinations

from rules.commands import ChooseMovement, EndExchange, EndMovement, ExchangeCard
from rules.decks import discard_cards, draw_cards
from rules.events import Event, MovementChosen, MovementEnded, PhaseBegan
from rules.immutable import evolve
from rules.mori_box import legal_mori_entries
from rules.muster import legal_musters
from rules.stack_moves import legal_begin_moves, may_begin_stack_move
from rules.sides import Side
from rules.state import Decision, DecisionKind, GameState, MovementOption, MovementPhase, Phase

PHASE_DONE = Decision(DecisionKind.NONE, frozenset())


def begin_movement_phase(state: GameState, side: Side) -> tuple[GameState, list[Event]]:
    state = evolve(
        state,
        phase=Phase.MOVEMENT,
        active=side,
        movement=MovementPhase(),
        decision=Decision(DecisionKind.CHOOSE_MOVEMENT, frozenset({side})),
    )
    return state, [PhaseBegan(state.week, state.turn, Phase.MOVEMENT, side)]


def legal_movement_choices(state: GameState, side: Side) -> list[ChooseMovement]:
    """7.1, R10: each option with every way of paying its 0, 1 or 2 cards."""
    hand = sorted(state.cards[side].hand)
    return [
        ChooseMovement(side, option, cards)
        for option in MovementOption
        for cards in combinations(hand, option.card_cost)
    ]


def why_movement_choice_illegal(state: GameState, command: ChooseMovement) -> str | None:
    cost = command.option.card_cost
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
    next_kind = DecisionKind.EXCHANGE_CARDS if command.option is MovementOption.PASS else DecisionKind.MOVE
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
    assert state.movement is not None
    commands: list = legal_begin_moves(state, side) if may_begin_stack_move(state.movement) else []
    return [*commands, *legal_musters(state, side), *legal_mori_entries(state, side), EndMovement(side)]


def apply_end_movement(state: GameState, command: EndMovement) -> tuple[GameState, list[Event]]:
    return evolve(state, decision=PHASE_DONE), [MovementEnded(command.side)]
