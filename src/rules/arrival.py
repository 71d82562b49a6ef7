"""What happens when blocks arrive at a location: control (4.2, 4.3, R4, R5)
and overruns (7.4, R21). Moves, musters, Mori Box entries and retreats all
arrive through `arrive`."""

from __future__ import annotations

from bisect import bisect_left

from rules.components import default_components
from rules.control import control_on_arrival, sides_present, update_castle_control
from rules.decks import draw_cards
from rules.events import Event, Overrun
from rules.immutable import evolve
from rules.sides import Side
from rules.state import ELIMINATED, GameState, with_positions
from rules.victory import end_game, instant_victory

OVERRUN_RATIO = 4
OVERRUN_CARDS_PER_DRAW = 2  # R38: 1 card for every 2 blocks lost


def enemy_discs_at(state: GameState, side: Side, location: str) -> tuple[str, ...]:
    return tuple(
        d.id for d in default_components().discs
        if d.id in state.discs and d.location == location and d.side is not side
    )


def has_enemy_units(state: GameState, side: Side, location: str) -> bool:
    """Enemy blocks or discs (R36) at the location."""
    return side.other in sides_present(state, location)


def held_against(state: GameState, side: Side, location: str) -> str:
    """Why `side` cannot bring blocks from off the map into `location` (R12,
    R42, R61), in words: the enemy blocks there, and the side's own discs
    there, which are not blocks."""
    c = default_components()
    enemy = len(state.blocks_at(location, side.other))
    own_discs = [d for d in c.discs if d.id in state.discs and d.location == location and d.side is side]
    held = f"{c.location(location).name} holds "
    held += f"{enemy} {side.other.value.title()} block{'s' * (enemy != 1)}" if enemy else "only enemy units"
    held += f" and no {side.value.title()} block"
    if own_discs:
        held += f", only the {own_discs[0].id.title()} disc, which is not a block (R61)"
    return held


def may_overrun(state: GameState, side: Side, location: str) -> bool:
    """7.4.1, 7.4.3, R21: at least 4 times as many blocks (strength does not
    count; friendly blocks already there, inside a castle or not, count too),
    against enemy blocks that do not control a castle there and no disc."""
    enemy = state.blocks_at(location, side.other)
    if not enemy or enemy_discs_at(state, side, location):
        return False
    castle = default_components().location(location).castle
    if castle is not None and state.control_of_castle(location) is side.other:
        return False
    return len(state.blocks_at(location, side)) >= OVERRUN_RATIO * len(enemy)


def eliminate(
    state: GameState, blocks: tuple[str, ...], check_victory: bool = True
) -> tuple[GameState, list[Event]]:
    """8.7.3: lost blocks leave play for good, face up. R50: instant victory
    is checked at once (a combat checks it once all its casualties are taken)."""
    state = with_positions(state, {block: ELIMINATED for block in blocks})
    state = evolve(state, revealed=state.revealed - set(blocks))
    state, events = update_castle_control(state)
    result = instant_victory(state) if check_victory else None
    if result is not None:
        state, more = end_game(state, result)
        events += more
    return state, events


def overrun_if_possible(state: GameState, side: Side, location: str) -> tuple[GameState, list[Event]]:
    """7.4.2: resolved at once; the overrun units are destroyed, the overrunning
    side loses nothing. R38: the side overrun draws 1 card per 2 blocks lost, at once."""
    if not may_overrun(state, side, location):
        return state, []
    destroyed = state.blocks_at(location, side.other)
    state, events = eliminate(state, destroyed)
    events = [Overrun(side, location, destroyed), *events]
    if not state.is_over:
        state, drawn = draw_cards(state, side.other, len(destroyed) // OVERRUN_CARDS_PER_DRAW)
        events += drawn
    return state, events


def arrive(state: GameState, side: Side, location: str, origin: str | None = None) -> tuple[GameState, list[Event]]:
    """Blocks of `side` have entered (or pass through) `location`, from the
    location `origin` (None: from off the map)."""
    state, events = control_on_arrival(state, side, location, origin)
    state, more = overrun_if_possible(state, side, location)
    return state, events + more


def record_entry(
    entered: tuple[tuple[str, Side, str], ...], location: str, side: Side, origin: str
) -> tuple[tuple[str, Side, str], ...]:
    """R51: remember which adjacent location each side entered a location from."""
    entry = (location, side, origin)
    if entry in entered:
        return entered
    at = bisect_left(entered, entry)  # sorted(entered + (entry,)), as entered is sorted
    return entered[:at] + (entry,) + entered[at:]
