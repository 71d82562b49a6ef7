"""4.2-4.5: control of resource locations and castles.

Arrival functions here are called by everything that brings blocks to a
location: moves, musters, Mori Box entries, retreats (R5).
"""

from __future__ import annotations

from functools import cache
from typing import KeysView

from rules.components import Components, Disc, default_components
from rules.events import ControlChanged, Event
from rules.immutable import evolve
from rules.places import place_index
from rules.sides import Side
from rules.state import GameState, sorted_pairs

CASTLE_CAPACITY = 2
"""8.9.1, 8.9.2, 8.8.4 (R34): at most 2 blocks fit inside a castle, to stay in
for a siege or to retreat into; discs do not count."""


def sides_present(state: GameState, location: str) -> frozenset[Side]:
    """Sides with units at a location: blocks, and discs (R36)."""
    present = place_index(state.positions).sides_at(location)  # state.sides_with_blocks_at, a call fewer (issue 25)
    discs = _discs_at().get(location)
    if discs:
        present = present | {d.side for d in discs if d.id in state.discs}
    return present


def disc_locations() -> KeysView[str]:
    """The locations where discs are printed (9.1, 9.2)."""
    return _discs_at().keys()


@cache
def _discs_at() -> dict[str, tuple[Disc, ...]]:
    """The discs printed at each location (9.1, 9.2), whether still in play or not."""
    discs: dict[str, tuple[Disc, ...]] = {}
    for disc in default_components().discs:
        discs[disc.location] = discs.get(disc.location, ()) + (disc,)
    return discs


def control_on_arrival(
    state: GameState, side: Side, location: str, origin: str | None = None
) -> tuple[GameState, list[Event]]:
    """4.2, R4, R5: a side's block entering or passing through a resource
    location takes control of it, even if enemy blocks are there too.
    Castle control is brought up to date as well (4.3), where it can have
    changed: at `location` and at `origin`, the place the blocks left."""
    events: list[Event] = []
    if location in _resources() and state.control_of_resource(location) is not side:
        control = dict(state.resource_control)
        control[location] = side
        state = evolve(state, resource_control=sorted_pairs(control))
        events.append(ControlChanged(location, side))
    state, castle_events = update_castle_control(state, (location, origin))
    return state, events + castle_events


def castle_controller(state: GameState, location: str, components: Components | None = None) -> Side:
    """4.3: the side with units at a castle location while the other has none
    controls it; with neither, it reverts to its natural alignment; with both
    (a siege), the side that controlled it when the other arrived keeps it (R54)."""
    c = components or default_components()
    present = sides_present(state, location)
    if len(present) == 1:
        return next(iter(present))
    if not present:
        natural = c.location(location).castle
        assert natural is not None, f"{location} has no castle"
        return natural
    return state.control_of_castle(location)


def update_castle_control(
    state: GameState, places: tuple[str | None, ...] | None = None
) -> tuple[GameState, list[Event]]:
    """Re-derive the castles' controllers after units arrive or leave (4.3):
    every castle, or only those among `places` where units came or went
    (control elsewhere is up to date already: every move ends here)."""
    c = default_components()
    order = _castle_order()
    if places is None:
        castles: list[str] | dict[str, int] = order
    else:  # the castles among the places, in map order: a look at each place, not at each castle
        castles = [place for place in places if place in order]
        if len(castles) > 1:  # seldom: most places hold no castle
            castles = sorted(set(castles), key=order.__getitem__)
    events: list[Event] = []
    for castle in castles:
        controller = castle_controller(state, castle, c)
        if state.control_of_castle(castle) is not controller:
            events.append(ControlChanged(castle, controller))
    if state.besieged:
        besieged = tuple(entry for entry in state.besieged if len(sides_present(state, entry[0])) == 2)
        if besieged != state.besieged:  # a siege ends when one side is gone (8.9.6)
            state = evolve(state, besieged=besieged)
    if not events:
        return state, []
    current = dict(state.castle_control)
    current.update((event.location, event.side) for event in events)
    return evolve(state, castle_control=sorted_pairs(current)), events


@cache
def _resources() -> frozenset[str]:
    """The resource locations (4.2): asked at every arrival."""
    return frozenset(loc.id for loc in default_components().locations if loc.resource)


@cache
def _castle_order() -> dict[str, int]:
    """Each castle's place among the castles, in map order (Components.castles)."""
    return {castle.id: i for i, castle in enumerate(default_components().castles())}


def castles_controlled(state: GameState, side: Side) -> int:
    return sum(1 for _, s in state.castle_control if s is side)


def resources_controlled(state: GameState, side: Side) -> int:
    return sum(1 for _, s in state.resource_control if s is side)
