"""Helpers for building small positions by hand (import from tests: `from helpers import ...`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from attrs import evolve

from rules.arrival import has_enemy_units
from rules.commands import BeginMove, Step
from rules.engine import start_game
from rules.infra.selfplay import random_game
from rules.sides import Side
from rules.state import BAG, GameState, SideCards, with_positions


POSITIONS = Path(__file__).parent / "rules" / "positions"


def needs_program(path: str | None, what: str) -> pytest.MarkDecorator:
    """Mark tests that drive the program at `path` (None: not found), which a
    README feature rests on. Missing, they skip on a developer's machine and
    fail under CI (tests/conftest.py): `pytestmark = needs_program(...)`."""
    return pytest.mark.needs_program(path, what)


def position_text(name: str) -> str:
    """The TOML text of tests/rules/positions/NAME.toml."""
    return (POSITIONS / f"{name}.toml").read_text(encoding="utf-8")


def no_stack_moves(state, command) -> bool:
    return isinstance(command, BeginMove)


def no_contact(state, command) -> bool:
    """Never step into enemy units, so no combat (8) arises."""
    return isinstance(command, Step) and has_enemy_units(state, command.side, command.to)


def peaceful_game(seed: int, avoid=no_stack_moves):
    """A random game that never reaches a combat (8), so it ends after week 7."""
    return random_game(seed, avoid=avoid)


def fresh_game(seed: int = 1) -> GameState:
    """A game after setup, waiting for week 1's bid."""
    return start_game(seed)[0]


def with_hand(state: GameState, side: Side, hand: tuple[str, ...], draw_pile: tuple[str, ...] | None = None,
              discard_pile: tuple[str, ...] | None = None) -> GameState:
    """Give a side exactly this hand (and optionally piles); the deck's other
    cards go to the draw pile so that all 55 stay accounted for."""
    cards = state.cards[side]
    every = cards.hand + cards.draw_pile + cards.discard_pile
    discard_pile = discard_pile if discard_pile is not None else ()
    if draw_pile is None:
        draw_pile = tuple(c for c in every if c not in hand and c not in discard_pile)
    return evolve(state, cards=state.cards.replace(side, SideCards(hand, draw_pile, discard_pile)))


def everything_in_bags(state: GameState) -> GameState:
    return evolve(state, positions=tuple(BAG for _ in state.positions))


def place(state: GameState, **where: list[str]) -> GameState:
    """place(state, osaka=["ishida-leader"]) moves those blocks there."""
    moves = {block: location for location, blocks in where.items() for block in blocks}
    return with_positions(state, moves)



ISHIDA_HAND = ("mori-plain-1", "mori-plain-2", "ukita-plain-1", "ukita-plain-2")
TOKUGAWA_HAND = ("tokugawa-plain-1", "tokugawa-plain-2", "date-plain-1", "date-plain-2")


def movement_phase(side: Side, option, state: GameState | None = None, **where: list[str]) -> GameState:
    """A hand-built Movement Phase: only the listed blocks on the map (the
    rest in the bags), `side` active and first, with `option` chosen and paid."""
    from rules.commands import ChooseMovement
    from rules.control import update_castle_control
    from rules.engine import apply
    from rules.movement import begin_movement_phase, card_cost

    state = place(everything_in_bags(state or fresh_game()), **where)
    state, _ = update_castle_control(state)
    hand = ISHIDA_HAND if side is Side.ISHIDA else TOKUGAWA_HAND
    state = evolve(with_hand(state, side, hand), first_player=side)
    state, _ = begin_movement_phase(state, side)
    state, _ = apply(state, ChooseMovement(side, option, hand[: card_cost(option)]))
    return state


def run(state: GameState, *lines: str):
    """Apply commands written in notation; return the state and all events."""
    from rules.engine import apply
    from rules.notation import parse_command

    events = []
    for line in lines:
        state, more = apply(state, parse_command(line))
        events += more
    return state, events


def combat_phase(attacker: Side, ishida_hand=(), tokugawa_hand=(), entered=(), **where: list[str]) -> GameState:
    """A hand-built Combat Phase of `attacker` with only the listed blocks on
    the map and exactly these hands; `entered` is the R51 record."""
    from rules.combat import begin_combat_phase
    from rules.control import update_castle_control

    state = place(everything_in_bags(fresh_game()), **where)
    state, _ = update_castle_control(state)
    state = with_hand(with_hand(state, Side.ISHIDA, tuple(ishida_hand)), Side.TOKUGAWA, tuple(tokugawa_hand))
    state = evolve(state, first_player=attacker, entered_from=tuple(entered))
    state, _ = begin_combat_phase(state, attacker)
    return state
