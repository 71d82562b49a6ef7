"""The game's components: map, daimyo, blocks, cards, discs and setup.

`data/` holds four TOML files that encode the component manifest
(shared design doc components.md): `map.toml`, `blocks.toml`, `cards.toml` and
`setup.toml`. `load_components` reads them, structures them with a strict cattrs
converter, checks them (rules.infra.component_loader), and returns one frozen
`Components` object that the engine refers to by id. Every problem in the data
raises `ComponentDataError` naming the file, the entry and what is wrong.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import cached_property
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Literal

from attrs import Factory, field, frozen

from rules.sides import Side

__all__ = [
    "ANY_CARD_BLOCKS",
    "BLOCK_KINDS",
    "BLOCKS_PER_SIDE",
    "CARD_KINDS",
    "DATA_FILES",
    "MORI_BOX",
    "Block",
    "Card",
    "ComponentDataError",
    "Components",
    "Connection",
    "Daimyo",
    "Disc",
    "Location",
    "Setup",
    "default_components",
    "default_data_dir",
    "load_components",
]

MAP, BLOCKS, CARDS, SETUP = DATA_FILES = ("map.toml", "blocks.toml", "cards.toml", "setup.toml")

BLOCK_KINDS = ("leader", "4", "3", "2", "gun", "cav")
"""Block kinds, in the order blocks are numbered within a daimyo."""

UNIQUE_KINDS = frozenset({"leader", "4"})
"""Kinds with one copy at most, whose id carries no number (`mori-leader`, `ii-4`)."""

STRENGTH = {"leader": 1, "4": 4, "3": 3, "2": 2, "gun": 1, "cav": 1}
"""Mon printed on a block of each kind (components.md, "Blocks")."""

CARD_KINDS = ("double", "swords", "plain", "loyalty")

ANY_CARD_BLOCKS = frozenset({"ishida-leader", "ii-4"})
"""Blocks deployable with any daimyo card (8.2.2, 9.4, 9.5)."""

MORI_BOX = "mori_box"
"""The off-map Mori Box (9.3): a setup place that is not a location."""

BLOCKS_PER_SIDE = 48
MAX_CONNECTIONS = 4

Colour = Literal["gold", "black"]
BlockKind = Literal["leader", "4", "3", "2", "gun", "cav"]



class ComponentDataError(ValueError):
    """The component data is wrong: `file: entry: problem`."""

    def __init__(self, file: str, entry: str | None, problem: str) -> None:
        super().__init__(file, entry, problem)
        self.file = file
        self.entry = entry
        self.problem = problem

    def __str__(self) -> str:
        parts = (self.file, self.entry, self.problem)
        return ": ".join(part for part in parts if part)


# ---------------------------------------------------------------------------
# The components


@frozen
class Location:
    """A map location (components.md, "Locations").

    `castle` and `capital` hold the side of their natural alignment (gold is
    Ishida, black Tokugawa). `recruitment` lists the daimyo whose mon is printed
    there; such a location is a recruitment location of those daimyo's side.
    """

    id: str
    name: str
    x: int
    y: int
    castle: Side | None = None
    resource: bool = False
    capital: Side | None = None
    recruitment: tuple[str, ...] = ()

    @property
    def is_recruitment(self) -> bool:
        return bool(self.recruitment)

    @property
    def is_castle(self) -> bool:
        return self.castle is not None


@frozen
class Connection:
    """A two-way road or highway between two locations."""

    a: str
    b: str
    highway: bool

    @property
    def key(self) -> frozenset[str]:
        return frozenset((self.a, self.b))


@frozen
class Daimyo:
    """A daimyo (mon). Ishida and Ii have no cards of their own."""

    id: str
    side: Side
    has_cards: bool


@frozen
class Block:
    """A block: one daimyo's mon, 1 to 4 times (its strength)."""

    id: str
    side: Side
    daimyo: str
    kind: str
    strength: int = field(default=Factory(lambda self: STRENGTH[self.kind], takes_self=True))

    @property
    def is_leader(self) -> bool:
        return self.kind == "leader"

    @property
    def symbol(self) -> str | None:
        """The gun or cavalry symbol printed on the block, if any."""
        return self.kind if self.kind in ("gun", "cav") else None

    @property
    def any_card(self) -> bool:
        """8.2.2, 9.4, 9.5: Ishida Mitsunari and Ii Naomasa deploy with any daimyo card."""
        return self.id in ANY_CARD_BLOCKS


@frozen
class Card:
    """A card; `daimyo` is None for a Loyalty Challenge card."""

    id: str
    side: Side
    daimyo: str | None
    kind: str
    bid: int

    @property
    def is_loyalty(self) -> bool:
        return self.kind == "loyalty"

    @property
    def is_double(self) -> bool:
        """8.4.2: two mon in each corner."""
        return self.kind == "double"

    @property
    def has_swords(self) -> bool:
        """8.4.1: a special attack."""
        return self.kind == "swords"


@frozen
class Disc:
    """A disc (Hideyori, Sanada): cannot move or fight, always inside its castle (9.1, 9.2)."""

    id: str
    side: Side
    location: str


@frozen
class Setup:
    """Setup (5.2) and the turn and reinforcement tracks."""

    fixed: tuple[tuple[str, tuple[str, ...]], ...]
    random: tuple[tuple[Side, tuple[tuple[str, int], ...]], ...]
    recruitment_draws: int
    hand_size: int
    start_control: tuple[tuple[str, Side], ...]
    reinforcement: tuple[int, ...]
    weeks: int

    def fixed_at(self, place: str) -> tuple[str, ...]:
        """Block ids set up at a location or in the Mori Box."""
        return dict(self.fixed).get(place, ())

    def random_for(self, side: Side) -> tuple[tuple[str, int], ...]:
        """(location, number of random blocks) for one side, in drawing order."""
        return dict(self.random).get(side, ())

    def reinforcements_in(self, week: int) -> int:
        """Blocks each side draws at the start of `week` (1-based)."""
        return self.reinforcement[week - 1]


@frozen
class Components:
    """Everything printed on the map, blocks and cards, loaded once."""

    locations: tuple[Location, ...]
    connections: tuple[Connection, ...]
    daimyo: tuple[Daimyo, ...]
    blocks: tuple[Block, ...]
    cards: tuple[Card, ...]
    discs: tuple[Disc, ...]
    setup: Setup
    data_version: str

    # -- lookups by id -------------------------------------------------------

    def location(self, id: str) -> Location:
        return _lookup(self._locations_by_id, id, "location")

    def block(self, id: str) -> Block:
        return _lookup(self._blocks_by_id, id, "block")

    def card(self, id: str) -> Card:
        return _lookup(self._cards_by_id, id, "card")

    def daimyo_of(self, id: str) -> Daimyo:
        """The daimyo with this daimyo id (`block.daimyo`, `card.daimyo`)."""
        return _lookup(self._daimyo_by_id, id, "daimyo")

    def block_index(self, id: str) -> int:
        """Position of a block in `self.blocks` (0-based)."""
        return _lookup(self._block_positions, id, "block")

    # -- the map -------------------------------------------------------------

    @cached_property
    def location_ids(self) -> frozenset[str]:
        return frozenset(self._locations_by_id)

    def location_order(self, id: str) -> int:
        """Position of a location in `self.locations` (0-based)."""
        return _lookup(self._location_positions, id, "location")

    @cached_property
    def _location_positions(self) -> Mapping[str, int]:
        return {loc.id: i for i, loc in enumerate(self.locations)}

    def neighbours(self, location_id: str) -> tuple[str, ...]:
        """Locations one connection away, sorted by id."""
        return tuple(other for other, _ in _lookup(self._adjacency, location_id, "location"))

    def connection(self, a: str, b: str) -> Connection | None:
        return self._connections_by_key.get(frozenset((a, b)))

    def distance(self, a: str, b: str, highways_only: bool = False) -> int | None:
        """Fewest connections from a to b (highways only if asked); None if unreachable."""
        for location_id in (a, b):
            self.location(location_id)
        return breadth_first(a, self._stepper(highways_only)).get(b)

    def castles(self, side: Side | None = None) -> tuple[Location, ...]:
        """Castles, optionally only those of one side's natural alignment."""
        return self._castles[side]

    def resource_locations(self) -> tuple[Location, ...]:
        return tuple(loc for loc in self.locations if loc.resource)

    def recruitment_locations(self, side: Side | None = None) -> tuple[Location, ...]:
        """Recruitment locations, optionally only one side's."""
        return self._recruitment_locations[side]

    def recruitment_side(self, location_id: str) -> Side | None:
        """The side whose daimyo recruit at this location, if any."""
        recruitment = self.location(location_id).recruitment
        return self.daimyo_of(recruitment[0]).side if recruitment else None

    # -- per side ------------------------------------------------------------

    def blocks_of(self, side: Side) -> tuple[Block, ...]:
        return tuple(block for block in self.blocks if block.side is side)

    def cards_of(self, side: Side) -> tuple[Card, ...]:
        return tuple(card for card in self.cards if card.side is side)

    # -- private indexes -----------------------------------------------------

    @cached_property
    def _locations_by_id(self) -> Mapping[str, Location]:
        return {loc.id: loc for loc in self.locations}

    @cached_property
    def _blocks_by_id(self) -> Mapping[str, Block]:
        return {block.id: block for block in self.blocks}

    @cached_property
    def _block_positions(self) -> Mapping[str, int]:
        return {block.id: n for n, block in enumerate(self.blocks)}

    @cached_property
    def _cards_by_id(self) -> Mapping[str, Card]:
        return {card.id: card for card in self.cards}

    @cached_property
    def _daimyo_by_id(self) -> Mapping[str, Daimyo]:
        return {daimyo.id: daimyo for daimyo in self.daimyo}

    @cached_property
    def _castles(self) -> Mapping[Side | None, tuple[Location, ...]]:
        """None, or a side -> the castles (of that side's natural alignment), in map order."""
        return {
            side: tuple(loc for loc in self.locations if loc.is_castle and side in (None, loc.castle))
            for side in (None, *Side)
        }

    @cached_property
    def _recruitment_locations(self) -> Mapping[Side | None, tuple[Location, ...]]:
        """None, or a side -> the recruitment locations (of that side), in map order."""
        return {
            side: tuple(
                loc for loc in self.locations
                if loc.is_recruitment and side in (None, self.recruitment_side(loc.id))
            )
            for side in (None, *Side)
        }

    @cached_property
    def _connections_by_key(self) -> Mapping[frozenset[str], Connection]:
        return {conn.key: conn for conn in self.connections}

    @cached_property
    def _adjacency(self) -> Mapping[str, tuple[tuple[str, bool], ...]]:
        """Location id -> sorted (neighbour, highway) pairs."""
        return adjacency(self.locations, self.connections)

    def _stepper(self, highways_only: bool) -> Callable[[str], Iterable[str]]:
        def step(location_id: str) -> Iterator[str]:
            for other, highway in self._adjacency[location_id]:
                if highway or not highways_only:
                    yield other

        return step


def _lookup(table: Mapping[Any, Any], id: Any, what: str) -> Any:
    try:
        return table[id]
    except KeyError:
        raise KeyError(f"unknown {what} {id!r}") from None


def adjacency(
    locations: Iterable[Location], connections: Iterable[Connection]
) -> dict[str, tuple[tuple[str, bool], ...]]:
    pairs: dict[str, list[tuple[str, bool]]] = {loc.id: [] for loc in locations}
    for conn in connections:
        pairs[conn.a].append((conn.b, conn.highway))
        pairs[conn.b].append((conn.a, conn.highway))
    return {id: tuple(sorted(others)) for id, others in pairs.items()}


def breadth_first(start: str, step: Callable[[str], Iterable[str]]) -> dict[str, int]:
    """Distance from `start` to every location reachable through `step`."""
    distances = {start: 0}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in step(here):
            if there not in distances:
                distances[there] = distances[here] + 1
                queue.append(there)
    return distances


# ---------------------------------------------------------------------------
# Loading


def default_data_dir() -> Traversable:
    """The packaged `rules/data` of an installed wheel, else the checkout's `data/`."""
    packaged = resources.files("rules") / "data"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parents[2] / "data"


@functools.cache
def default_components() -> Components:
    """The packaged components, loaded once."""
    return load_components()


def load_components(data_dir: Path | Traversable | str | None = None) -> Components:
    """Load and check the four data files; None loads the packaged data
    (the reading and checking are rules.infra.component_loader's)."""
    from rules.infra.component_loader import load  # it builds this module's classes

    return load(data_dir)

