"""Helpers for building small positions by hand (import from tests: `from helpers import ...`)."""

from __future__ import annotations

from attrs import evolve

from rules.arrival import has_enemy_units
from rules.commands import BeginMove, Step
from rules.engine import start_game
from rules.selfplay import random_game
from rules.pair import Pair
from rules.sides import Side
from rules.state import BAG, GameState, SideCards, with_positions


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

