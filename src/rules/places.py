"""Which blocks are where: an index of a `positions` tuple by place.

The state keeps one place per block (GameState.positions); the rules mostly ask
the reverse, "which blocks are at this place". Scanning all 96 positions for
each question was a large part of the engine's time (issue 14), so each
positions tuple gets an index, built once and then shared by every state that
holds the same tuple (attrs.evolve keeps it until a block moves). When blocks
move through `moved_positions`, the new tuple's index is patched from the old
one instead of rebuilt.

The index is derived, never saved or compared: it lives beside the state, in
a cache keyed by the tuple's identity, so saves, equality and hashes of states
are untouched.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Hashable, ItemsView, Mapping

from rules.components import default_components
from rules.sides import ISHIDA, TOKUGAWA, Side

_NO_SIDE: frozenset[Side] = frozenset()
_ISHIDA = frozenset({Side.ISHIDA})
_TOKUGAWA = frozenset({Side.TOKUGAWA})
_BOTH = frozenset({Side.ISHIDA, Side.TOKUGAWA})


@cache
def _block_sides() -> tuple[tuple[str, bool], ...]:
    """(id, whether Ishida's) of each block, in component order."""
    return tuple((b.id, b.side is Side.ISHIDA) for b in default_components().blocks)


def _tuples(lists: dict[str, list[str]]) -> dict[str, tuple[str, ...]]:
    return {place: tuple(ids) for place, ids in lists.items()}


@cache
def block_indexes() -> dict[str, int]:
    """Each block's place in `positions`: Components.block_index without its error
    for an unknown id (every id here is a block's), as a plain dict."""
    return {block: i for i, (block, _) in enumerate(_block_sides())}


@cache
def location_order() -> dict[str, int]:
    """Each map location's place in the map order (Components.location_order)."""
    return {loc.id: i for i, loc in enumerate(default_components().locations)}


@cache
def _of_ishida() -> dict[str, bool]:
    return dict(_block_sides())


class PlaceIndex:
    """The blocks at each place of one positions tuple, in component order:
    one table per side (issue 25: a step patches only the moving side's; both
    sides' blocks at a place, and the sides there, are read from the two)."""

    __slots__ = ("positions", "_ishida", "_tokugawa", "memo", "_kept")

    def __init__(self, positions: tuple[str, ...]) -> None:
        ishida: dict[str, list[str]] = {}
        tokugawa: dict[str, list[str]] = {}
        for (block, of_ishida), place in zip(_block_sides(), positions):
            (ishida if of_ishida else tokugawa).setdefault(place, []).append(block)
        self.positions = positions
        self._ishida = _tuples(ishida)
        self._tokugawa = _tuples(tokugawa)
        # Answers the rules work out from these positions (and what else they
        # name in their key), kept as long as the index: a stack move that
        # moves nobody keeps the positions, and they are asked again. Those
        # given with `keep` are carried over to the index after a move that
        # leaves them true.
        self.memo: dict[Hashable, Any] = {}
        self._kept: dict[Hashable, tuple[Side | None, frozenset[str] | None]] = {}

    def keep(self, key: Hashable, value: Any, side: Side | None = None,
             places: frozenset[str] | None = None) -> None:
        """memo[key] = value, an answer that depends on `side`'s blocks alone
        (wherever they are) or on the blocks at `places` alone: it is carried
        over to the next index while no block of `side` moves, or no block
        comes to or goes from those places (issue 25: the stacks of the side
        that did not move, the musters after a step far from the recruitment
        locations)."""
        self.memo[key] = value
        self._kept[key] = (side, places)

    def at(self, place: str, side: Side | None = None) -> tuple[str, ...]:
        """Block ids at a place, optionally only one side's, in component order."""
        if side is None:
            ishida, tokugawa = self._ishida.get(place, ()), self._tokugawa.get(place, ())
            if ishida and tokugawa:  # seldom asked: merged on demand
                return tuple(sorted(ishida + tokugawa, key=block_indexes().__getitem__))
            return ishida or tokugawa
        return (self._ishida if side is ISHIDA else self._tokugawa).get(place, ())

    def sides_at(self, place: str) -> frozenset[Side]:
        """The sides with blocks at a place."""
        if place in self._ishida:
            return _BOTH if place in self._tokugawa else _ISHIDA
        return _TOKUGAWA if place in self._tokugawa else _NO_SIDE

    def shared_places(self) -> list[str]:
        """The places holding blocks of both sides."""
        tokugawa = self._tokugawa
        return [place for place in self._ishida if place in tokugawa]

    def by_place(self, side: Side) -> ItemsView[str, tuple[str, ...]]:
        """(place, block ids) for every place holding blocks of `side`."""
        return (self._ishida if side is ISHIDA else self._tokugawa).items()

    def table(self, side: Side) -> dict[str, tuple[str, ...]]:
        """The side's blocks by place: shared, never to be changed (an index
        patched for another side's move keeps this very dict)."""
        return self._ishida if side is ISHIDA else self._tokugawa

    def on_map(self, side: Side) -> list[tuple[str, tuple[str, ...]]]:
        """(location, block ids) for every map location holding blocks of
        `side`, in map order: the stacks that may move (rules.stack_moves),
        asked at every decision of a Movement Phase: worked out once per
        positions tuple (a stack move that moved nobody keeps it). Not to be changed."""
        stacks = self.memo.get(side)
        if stacks is None:
            table = self._ishida if side is ISHIDA else self._tokugawa
            order = location_order()
            stacks = [(place, table[place]) for place in sorted(table.keys() & order.keys(), key=order.__getitem__)]
            self.keep(side, stacks, side=side)
        return stacks

    def after(self, positions: tuple[str, ...], moves: Mapping[str, str]) -> PlaceIndex:
        """The index of `positions`, which are ours with `moves` (block -> place) made.
        Only the tables of the sides whose blocks moved are copied, and only
        the places their blocks left or reached change (issue 25: a step moves
        one side's blocks from one place to another)."""
        of_ishida, index_of = _of_ishida(), block_indexes()
        new = _new_index(PlaceIndex)
        new.positions = positions
        new.memo = memo = {}
        new._kept = kept = {}
        old = self.positions
        touched = {old[index_of[b]] for b in moves}
        touched.update(moves.values())
        ishida_moves = {block: to for block, to in moves.items() if of_ishida[block]}
        new._ishida = _patched(self._ishida, touched, ishida_moves) if ishida_moves else self._ishida
        if len(ishida_moves) == len(moves):
            new._tokugawa = self._tokugawa
            unmoved: Side | None = TOKUGAWA
        else:
            tokugawa_moves = {block: to for block, to in moves.items() if not of_ishida[block]}
            new._tokugawa = _patched(self._tokugawa, touched, tokugawa_moves)
            unmoved = None if ishida_moves else ISHIDA
        old_memo = self.memo
        for key, entry in self._kept.items():
            side, places = entry
            if (side is unmoved and side is not None) or (places is not None and places.isdisjoint(touched)):
                memo[key] = old_memo[key]
                kept[key] = entry
        return new


    def stepped(self, positions: tuple[str, ...], side: Side, blocks: tuple[str, ...], at: str, to: str) -> PlaceIndex:
        """after(positions, {block: to for block in blocks}) where the blocks
        are all `side`'s and all at `at`, as in a step of a stack move (7.3):
        the two places patched in the side's table, nothing looked up per block."""
        index_of = block_indexes()
        new = _new_index(PlaceIndex)
        new.positions = positions
        table = (self._ishida if side is ISHIDA else self._tokugawa).copy()
        left = tuple([block for block in table[at] if block not in blocks])
        if left:
            table[at] = left
        else:
            del table[at]
        there = table.get(to)
        table[to] = tuple(sorted(there + blocks if there else blocks, key=index_of.__getitem__))
        if side is ISHIDA:
            new._ishida, new._tokugawa = table, self._tokugawa
        else:
            new._ishida, new._tokugawa = self._ishida, table
        new.memo = memo = {}
        new._kept = kept = {}
        old_memo = self.memo
        for key, entry in self._kept.items():  # as `after` carries them: the other side's, or far from both places
            kept_side, places = entry
            if (kept_side is not None and kept_side is not side) or (places is not None and at not in places and to not in places):
                memo[key] = old_memo[key]
                kept[key] = entry
        return new


_new_index = object.__new__

def _patched(table: dict[str, tuple[str, ...]], touched: set[str],
             moves: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    """A copy of one side's table (never changed once made: indexes share
    them) with that side's `moves` made; `touched` the places blocks left or reached."""
    index_of = block_indexes()
    table = table.copy()
    arrivals: dict[str, list[str]] = {}  # the moves by place reached: one pass, not one per place
    for block, to in moves.items():
        arriving = arrivals.get(to)
        if arriving is None:
            arrivals[to] = [block]
        else:
            arriving.append(block)
    for place in touched:
        here = table.get(place)
        blocks = [b for b in here if b not in moves] if here else []
        arriving = arrivals.get(place)
        if arriving:
            blocks += arriving
            blocks.sort(key=index_of.__getitem__)
        if blocks:
            table[place] = tuple(blocks)
        elif here:
            del table[place]
    return table


# Indexes by the identity of their positions tuple. Each entry holds its tuple,
# so an id is never reused while its entry lives. A game needs only its last
# few, but a club holds hundreds of games at once (issue 23, item 11: 500
# resident games rebuilt an index on 5,787 of 6,847 commands when a full cache
# was emptied whole): when full, the older half goes (a dict keeps the order
# entries came in), and each game's newest index stays. Every index held is
# walked by the garbage collector's older generations, so a process holds what
# its games need: a few hundred for one game (the app, self-play, a bot's
# playouts: 2,048 held cost 4% of a random game in collections, issue 25), and
# a club raises it to its resident games (hold_indexes).
_INDEXES: dict[int, PlaceIndex] = {}
ONE_GAME_INDEXES = 512  # a process of one game: the app, self-play, a bot's playouts
MAX_INDEXES = ONE_GAME_INDEXES
CLUB_INDEXES = 2048  # about 2 indexes for each of 1,000 resident games
BUILT = [0]  # indexes built since start: benchmarks/club.py prints the hit rate


def hold_indexes(count: int) -> None:
    """Hold at least `count` indexes from now on (a process hosting many games)."""
    global MAX_INDEXES
    MAX_INDEXES = max(MAX_INDEXES, count)


def _remember(index: PlaceIndex) -> PlaceIndex:
    if len(_INDEXES) >= MAX_INDEXES:
        for key in list(_INDEXES)[: MAX_INDEXES // 2]:
            del _INDEXES[key]
    _INDEXES[id(index.positions)] = index
    return index


def _known(positions: tuple[str, ...]) -> PlaceIndex | None:
    index = _INDEXES.get(id(positions))
    return index if index is not None and index.positions is positions else None


def place_index(positions: tuple[str, ...]) -> PlaceIndex:
    """The index of this positions tuple, built on first use."""
    index = _INDEXES.get(id(positions))  # _known, inlined: called for every question asked
    if index is None or index.positions is not positions:
        BUILT[0] += 1
        index = _remember(PlaceIndex(positions))
    return index


def stepped_positions(positions: tuple[str, ...], side: Side, blocks: tuple[str, ...], at: str, to: str) -> tuple[str, ...]:
    """moved_positions(positions, {block: to for block in blocks}) for blocks
    of `side` that all stand at `at` (a step, 7.3): the index patched at the
    two places (PlaceIndex.stepped); blocks elsewhere take the general way."""
    index_of = block_indexes()
    changed = list(positions)
    for block in blocks:
        i = index_of[block]
        if changed[i] != at:  # not where a step starts: the general patch
            return moved_positions(positions, dict.fromkeys(blocks, to))
        changed[i] = to
    result = tuple(changed)
    old = _known(positions)
    if old is not None:
        _remember(old.stepped(result, side, blocks, at, to))
    return result


def moved_positions(positions: tuple[str, ...], moves: Mapping[str, str]) -> tuple[str, ...]:
    """`positions` with the given blocks moved to the given places. An index of
    the old tuple is carried over to the new one, patched where blocks moved."""
    index_of = block_indexes()
    changed = list(positions)
    try:
        for block, place in moves.items():
            changed[index_of[block]] = place
    except KeyError:
        default_components().block_index(block)  # its KeyError names the unknown block
        raise
    result = tuple(changed)
    old = _known(positions)
    if old is not None:
        _remember(old.after(result, moves))
    return result
