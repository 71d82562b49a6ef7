"""Each side's standing week by week, folded from one seat's events (issue 13):
victory points (2.2: 2 per castle, 1 per resource location) and blocks on the
map, as they stood at the END of each week (the last week: when the game ended).

Both figures are public (R55), and a player's seat log holds every fact they
rest on: control changes (4.2, 4.3), and every block's arrival, move, retreat
and loss, its own by name and the enemy's as counts. The start needs no event:
the setup's control (R6, 4.3) and how many blocks each side sets up where
(5.2.1, 5.2.2) are printed in the components, so the fold starts from those and
skips the setup's events (which say the same).

A log of only the events both sides see lacks the counts of blocks moved,
retreated or mustered one at a time, so its figures are not exact and
`Standing.exact` says so. The club gives a spectator the count-only twins as
well (rules/events.py, SPECTATOR_TWINS), which make them exact again.
"""

from __future__ import annotations

from collections import Counter

from attrs import frozen

from rules.surface import BOTH_SIDES, Event, Overrun, PieceLost, Side, default_components

# Events by name: rules.surface exports every event class in EVENT_TYPES, but
# names only a few; a missing name fails at import, not silently.
from rules import surface as _surface

_EVENTS = {cls.__name__: cls for cls in _surface.EVENT_TYPES}
WeekBegan = _EVENTS["WeekBegan"]
ControlChanged = _EVENTS["ControlChanged"]
CastleFell = _EVENTS["CastleFell"]
BlocksMoved = _EVENTS["BlocksMoved"]
OpponentMovedBlocks = _EVENTS["OpponentMovedBlocks"]
BlocksRetreated = _EVENTS["BlocksRetreated"]
OpponentRetreated = _EVENTS["OpponentRetreated"]
BlocksPlaced = _EVENTS["BlocksPlaced"]
OpponentPlacedBlocks = _EVENTS["OpponentPlacedBlocks"]
BlocksMustered = _EVENTS["BlocksMustered"]
MoriBlockEntered = _EVENTS["MoriBlockEntered"]

OSAKA = "osaka"  # where Mori blocks enter (9.3)


@frozen
class Standing:
    """Per side, one figure per week (index 0 is week 1), at the end of that week."""

    vp: dict[Side, list[int]]
    blocks: dict[Side, list[int]]
    exact: bool  # False for a spectator's log (see the module's docstring)


class _Board:
    """The public board: control, and each side's block count per location."""

    def __init__(self) -> None:
        c = default_components()
        self.c = c
        self.locations = frozenset(c.location_ids)
        self.resources: dict[str, Side] = dict(c.setup.start_control)  # R6
        self.castles: dict[str, Side] = {loc.id: loc.castle for loc in c.castles()}  # 4.3: natural
        self.counts: dict[Side, Counter[str]] = {side: Counter() for side in BOTH_SIDES}
        for place, blocks in c.setup.fixed:  # 5.2.1 (the Mori Box is off the map)
            if place in self.locations:
                self.counts[c.block(blocks[0]).side][place] += len(blocks)
        for side, placements in c.setup.random:  # 5.2.2
            for location, count in placements:
                self.counts[side][location] += count
        self.discs = frozenset(d.id for d in c.discs)

    def vp(self, side: Side) -> int:
        """2.2: 2 VP per castle, 1 per resource location (capitals included)."""
        castles = sum(1 for owner in self.castles.values() if owner is side)
        return 2 * castles + sum(1 for owner in self.resources.values() if owner is side)

    def on_map(self, side: Side) -> int:
        return sum(self.counts[side].values())

    def move(self, side: Side, count: int, origin: str | None, destination: str | None) -> None:
        if origin in self.locations:
            self.counts[side][origin] -= count
        if destination in self.locations:
            self.counts[side][destination] += count

    def apply(self, event: Event) -> None:
        if isinstance(event, ControlChanged):  # 4.2, 4.3: no location is both (components)
            (self.castles if event.location in self.castles else self.resources)[event.location] = event.side
        elif isinstance(event, CastleFell):  # 8.9.4 step 4
            self.castles[event.location] = event.side
        elif isinstance(event, (BlocksMoved, BlocksRetreated)):
            self.move(event.side, len(event.blocks), event.origin, event.destination)
        elif isinstance(event, (OpponentMovedBlocks, OpponentRetreated)):
            self.move(event.side, event.count, event.origin, event.destination)
        elif isinstance(event, BlocksPlaced):  # a muster of one (7.2 option 2); reinforcements go off the map
            self.move(event.side, len(event.blocks), None, event.place)
        elif isinstance(event, OpponentPlacedBlocks):
            self.move(event.side, event.count, None, event.place)
        elif isinstance(event, BlocksMustered):  # 7.2 option 1, shown
            self.move(event.side, len(event.blocks), None, event.location)
        elif isinstance(event, MoriBlockEntered):  # 9.3
            self.move(event.side, 1, None, OSAKA)
        elif isinstance(event, PieceLost) and event.piece not in self.discs:  # 8.7.3; a disc is not a block
            self.move(event.side, 1, event.location, None)
        elif isinstance(event, Overrun):  # 7.4.2: the other side's blocks there are destroyed
            self.move(event.side.other, len(event.eliminated), event.location, None)


def weekly_standing(log: list[Event], last_week: int, spectator: bool = False) -> Standing:
    """Fold one seat's log into each side's VP and blocks on the map at the end
    of weeks 1 to `last_week`."""
    weeks = max(1, last_week)
    board = _Board()
    vp: dict[Side, list[int]] = {side: [] for side in BOTH_SIDES}
    blocks: dict[Side, list[int]] = {side: [] for side in BOTH_SIDES}

    def close_week() -> None:
        for side in BOTH_SIDES:
            vp[side].append(board.vp(side))
            blocks[side].append(board.on_map(side))

    started = False  # events before week 1 begins are the setup, already counted
    for event in log:
        if isinstance(event, WeekBegan):  # week N begins: weeks before N have ended
            while started and len(vp[Side.ISHIDA]) < min(event.week - 1, weeks):
                close_week()
            started = True
        elif started:
            board.apply(event)
    while len(vp[Side.ISHIDA]) < weeks:  # the last week ends with the game
        close_week()
    return Standing(vp, blocks, exact=not spectator)
