"""7.3.1, 7.3.4: where a stack move may begin, and leadership there.

A side may begin a stack move from each location holding its blocks that
was not the source of one this phase (R15), holds a block that may still
move (7.3.1), and is not under siege (R57); with a leader block there it may
declare it for leadership where the place gives none (7.3.4, R17, R18).

Asked at every MOVE decision, so the sources are worked out once per
positions tuple and kept with its place index (rules.places), carried over
moves of the other side (issue 25).
"""

from __future__ import annotations

from functools import cache

from rules.command_tables import begin_moves
from rules.commands import BeginMove
from rules.components import default_components
from rules.places import PlaceIndex, place_index
from rules.sides import Side
from rules.state import GameState, castle_control_in

CAPITALS = {Side.ISHIDA: "kyoto", Side.TOKUGAWA: "edo"}

# (source, its blocks, the BeginMoves it offers: without a declared leader, and with one where allowed)
Candidate = tuple[str, tuple[str, ...], tuple[BeginMove, ...]]


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


def legal_begin_moves(state: GameState, side: Side) -> list[BeginMove]:
    """A source, and whether a leader block there is declared for leadership
    (R17); whether the movement option allows a stack move now is
    movement.may_begin_stack_move's to say (7.1)."""
    index = place_index(state.positions)
    known = index.memo.get(("begins", side))
    if known is None or known[0] != state.castle_control or known[1] != state.besieged:
        known = (state.castle_control, state.besieged, _candidates(index, side, state.castle_control, state.besieged))
        index.keep(("begins", side), known, side=side)  # its stacks are the side's (on_map)
    movement = state.movement  # asked only at MOVE decisions
    used, fixed = movement.sources, movement.fixed
    # R15; a block there may still move (7.3.1)
    return [begin for source, blocks, begins in known[2] if source not in used and not fixed.issuperset(blocks)
            for begin in begins]


def _candidates(index: PlaceIndex, side: Side, castle_control: tuple[tuple[str, Side], ...],
                besieged: tuple[tuple[str, Side], ...]) -> tuple[Candidate, ...]:
    """(source, its blocks, its BeginMoves) of each stack of `side` not
    besieged (R57), in map order: they depend on the side's stacks, castle
    control (leadership, 7.3.4) and the sieges alone; the phase's used sources
    and fixed blocks are asked at each decision."""
    leaders = _leader_blocks()
    options = _begin_options(side)
    candidates = []
    for place, blocks in index.on_map(side):  # a loop, no call per stack (issue 25)
        if besieged and (place, side) in besieged:
            continue
        alone, declaring = options[place]
        # leaders_at, asked first: most stacks have none, and leadership costs more
        if leaders.isdisjoint(blocks) or _leads(side, place, castle_control):
            candidates.append((place, blocks, alone))
        else:
            candidates.append((place, blocks, declaring))
    return tuple(candidates)


@cache
def _begin_options(side: Side) -> dict[str, tuple[tuple[BeginMove], tuple[BeginMove, BeginMove]]]:
    """The BeginMoves a source offers, by location: without a declared leader
    alone, or with a declared one too (R17); made once."""
    return {place: ((plain,), (plain, declared)) for place, (plain, declared) in begin_moves(side).items()}
