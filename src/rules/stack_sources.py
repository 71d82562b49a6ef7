"""7.3.1, 7.3.4: where a stack move may begin, and leadership there.

A side may begin a stack move from each location holding its blocks that
was not the source of one this phase (R15), holds a block that may still
move (7.3.1), and is not under siege (R57); with a leader block there it may
declare it for leadership where the place gives none (7.3.4, R17, R18).

Asked at every MOVE decision, so the sources are worked out again only where
something changed since the side's previous list (issue 25).
"""

from __future__ import annotations

from functools import cache
from itertools import chain
from operator import itemgetter
from typing import Iterable

from rules.command_tables import begin_moves
from rules.commands import BeginMove
from rules.components import default_components
from rules.places import block_indexes, location_order, place_index
from rules.sides import Side
from rules.state import GameState, castle_control_in

CAPITALS = {Side.ISHIDA: "kyoto", Side.TOKUGAWA: "edo"}


# --- leadership (7.3.4) ------------------------------------------------------------


def place_leadership(state: GameState, side: Side, location: str) -> bool:
    """7.3.4, R18: the side's own capital, or a castle of its colour it controls."""
    return _leads(side, location, state.castle_control)


def _leads(side: Side, location: str, castle_control: tuple[tuple[str, Side], ...]) -> bool:
    capital = _leading_places(side).get(location)
    if capital is None:  # neither: most places
        return False
    return capital or castle_control_in(castle_control, location) is side


@cache
def _leading_places(side: Side) -> dict[str, bool]:
    """The places that may give `side` leadership (7.3.4, R18): True for its
    capital, False for a castle of its colour (leadership while it controls it)."""
    places = {loc.id: False for loc in default_components().locations if loc.castle is side}
    places[CAPITALS[side]] = True
    return places


def leaders_at(state: GameState, side: Side, location: str) -> tuple[str, ...]:
    leaders = _leader_blocks()
    return tuple(b for b in state.blocks_at(location, side) if b in leaders)


@cache
def _leader_blocks() -> frozenset[str]:
    return frozenset(b.id for b in default_components().blocks if b.is_leader)


# --- the sources (7.3.1, R15, R17, R57) ----------------------------------------------

# The last list worked out for each side, with what it was worked out from: the
# side's table of blocks by place (rules.places), castle control, the sieges,
# the phase's used sources and fixed blocks. A MOVE decision differs from the
# side's previous one at a few places (the stack that moved left its source
# and reached others, the source is used, the moved blocks are fixed): the
# entries are worked out again there alone (issue 25). Everything in it is
# immutable, and what it was worked out from is compared, never trusted: a
# list from another game or another phase only costs a larger comparison.
# (table, castle_control, besieged, sources, fixed, entries: place -> its BeginMoves in map order, the list)
_Known = tuple[dict, tuple, tuple, frozenset, frozenset, dict, list]
_KNOWN: dict[Side, _Known] = {}
_FAR = 12  # more differences than this: everything is worked out again


def legal_begin_moves(state: GameState, side: Side) -> list[BeginMove]:
    """A source, and whether a leader block there is declared for leadership
    (R17), in map order; whether the movement option allows a stack move now
    is movement.may_begin_stack_move's to say (7.1)."""
    table = place_index(state.positions).table(side)
    movement = state.movement  # asked only at MOVE decisions
    control, besieged, sources, fixed = state.castle_control, state.besieged, movement.sources, movement.fixed
    known = _KNOWN.get(side)
    if known is None:
        return _afresh(table, side, control, besieged, sources, fixed)
    table0, control0, besieged0, sources0, fixed0, entries, commands = known
    # The places where something the entries rest on changed; C-level maps, no comprehension's frame.
    if table0 is table:
        changed = set()
    else:  # the places where the side's blocks came or went
        moved = table0.items() ^ table.items()
        if len(moved) > _FAR:
            return _afresh(table, side, control, besieged, sources, fixed)
        changed = set(map(_first, moved))
    if sources0 is not sources:  # R15: a source used, or a new phase
        changed |= sources ^ sources0
    if fixed0 is not fixed:  # 7.3.1: where blocks that may no longer move (or may again) stand
        unfixed = fixed ^ fixed0
        if len(unfixed) > _FAR:
            return _afresh(table, side, control, besieged, sources, fixed)
        changed.update(map(state.positions.__getitem__, map(block_indexes().__getitem__, unfixed)))
    if control0 is not control and control0 != control:  # 7.3.4: leadership at a castle
        changed.update(map(_first, set(control) ^ set(control0)))
    if besieged0 is not besieged and besieged0 != besieged:  # R57
        changed.update(map(_first, set(besieged) ^ set(besieged0)))
    if changed:
        entries = entries.copy()
        if _work_out(changed, entries, table, side, control, besieged, sources, fixed):
            entries = _in_map_order(entries)  # seldom: moved blocks are fixed, so a place they reach offers no move
        commands = list(chain.from_iterable(entries.values()))
    _KNOWN[side] = (table, control, besieged, sources, fixed, entries, commands)
    return list(commands)


_first = itemgetter(0)


def _afresh(table: dict[str, tuple[str, ...]], side: Side, control: tuple, besieged: tuple,
            sources: frozenset[str], fixed: frozenset[str]) -> list[BeginMove]:
    """legal_begin_moves worked out at every place the side holds."""
    entries: dict[str, tuple[BeginMove, ...]] = {}
    _work_out(table, entries, table, side, control, besieged, sources, fixed)
    entries = _in_map_order(entries)
    commands = list(chain.from_iterable(entries.values()))
    _KNOWN[side] = (table, control, besieged, sources, fixed, entries, commands)
    return list(commands)


def _work_out(places: Iterable[str], entries: dict[str, tuple[BeginMove, ...]], table: dict[str, tuple[str, ...]],
              side: Side, control: tuple, besieged: tuple, sources: frozenset[str], fixed: frozenset[str]) -> bool:
    """The entries at these places worked out again, in `entries`: the
    BeginMoves from each, none off the map, where the side has no block, from
    a source already used (R15), from under siege (R57) or where no block may
    still move (7.3.1); else a move, and another declaring a leader block
    where one stands and the place gives no leadership (7.3.4, R17). Whether
    a place came in that was not there (the entries are then out of map order)."""
    order, options, leaders = location_order(), _begin_options(side), _leader_blocks()
    added = False
    for place in places:
        blocks = table.get(place)
        if (not blocks or place not in order or place in sources or fixed.issuperset(blocks)
                or (besieged and (place, side) in besieged)):
            entries.pop(place, None)
            continue
        alone, declaring = options[place]
        if place not in entries:
            added = True
        # leaders_at, asked first: most stacks have none, and leadership costs more
        entries[place] = alone if leaders.isdisjoint(blocks) or _leads(side, place, control) else declaring
    return added


def _in_map_order(entries: dict[str, tuple[BeginMove, ...]]) -> dict[str, tuple[BeginMove, ...]]:
    """The entries by place in map order: the list is their BeginMoves in turn;
    a place already there keeps its place in the dict when its entry changes."""
    return {place: entries[place] for place in sorted(entries, key=location_order().__getitem__)}


@cache
def _begin_options(side: Side) -> dict[str, tuple[tuple[BeginMove], tuple[BeginMove, BeginMove]]]:
    """The BeginMoves a source offers, by location: without a declared leader
    alone, or with a declared one too (R17); made once."""
    return {place: ((plain,), (plain, declared)) for place, (plain, declared) in begin_moves(side).items()}
