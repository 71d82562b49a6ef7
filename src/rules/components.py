"""The game's components: map, daimyo, blocks, cards, discs and setup.

`data/` holds four TOML files that encode the component manifest
(shared design doc components.md): `map.toml`, `blocks.toml`, `cards.toml` and
`setup.toml`. `load_components` reads them, structures them with a strict cattrs
converter, checks them, and returns one frozen `Components` object that the
engine refers to by id. Every problem in the data raises `ComponentDataError`
naming the file, the entry and what is wrong.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import tomllib
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import cached_property
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Literal, get_args, get_origin

import attrs
from attrs import Factory, field, frozen
from cattrs import ClassValidationError, Converter, ForbiddenExtraKeysError
from cattrs.cols import homogenous_tuple_structure_factory, mapping_structure_factory
from cattrs.gen import make_dict_structure_fn
from cattrs.v import format_exception, transform_error

from rules.sides import BOTH_SIDES, Side

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

_SIDE_ORDER = {side: n for n, side in enumerate(BOTH_SIDES)}


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

    def neighbours(self, location_id: str) -> tuple[str, ...]:
        """Locations one connection away, sorted by id."""
        return tuple(other for other, _ in _lookup(self._adjacency, location_id, "location"))

    def connection(self, a: str, b: str) -> Connection | None:
        return self._connections_by_key.get(frozenset((a, b)))

    def distance(self, a: str, b: str, highways_only: bool = False) -> int | None:
        """Fewest connections from a to b (highways only if asked); None if unreachable."""
        for location_id in (a, b):
            self.location(location_id)
        return _breadth_first(a, self._stepper(highways_only)).get(b)

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
        return _adjacency(self.locations, self.connections)

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


def _adjacency(
    locations: Iterable[Location], connections: Iterable[Connection]
) -> dict[str, tuple[tuple[str, bool], ...]]:
    pairs: dict[str, list[tuple[str, bool]]] = {loc.id: [] for loc in locations}
    for conn in connections:
        pairs[conn.a].append((conn.b, conn.highway))
        pairs[conn.b].append((conn.a, conn.highway))
    return {id: tuple(sorted(others)) for id, others in pairs.items()}


def _breadth_first(start: str, step: Callable[[str], Iterable[str]]) -> dict[str, int]:
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
    """Load and check the four data files; None loads the packaged data."""
    directory = _as_directory(data_dir)
    contents = {name: _read_file(directory, name) for name in DATA_FILES}
    tables = {name: _parse_toml(name, content) for name, content in contents.items()}
    blocks_file = _structure(BLOCKS, tables[BLOCKS], _BlocksFile)
    map_file = _structure(MAP, tables[MAP], _MapFile)
    cards_file = _structure(CARDS, tables[CARDS], _CardsFile)
    setup_file = _structure(SETUP, tables[SETUP], _SetupFile)

    daimyo = _build_daimyo(blocks_file)
    blocks = _build_blocks(blocks_file, daimyo)
    locations = _build_locations(map_file, daimyo)
    connections = _build_connections(map_file, locations)
    cards = _build_cards(cards_file, daimyo)
    setup = _build_setup(setup_file, locations, blocks)
    discs = _build_discs(setup_file, locations)
    return Components(
        locations=locations,
        connections=connections,
        daimyo=daimyo,
        blocks=blocks,
        cards=cards,
        discs=discs,
        setup=setup,
        data_version=_data_version(contents),
    )


def _as_directory(data_dir: Path | Traversable | str | None) -> Traversable:
    if data_dir is None:
        return default_data_dir()
    if isinstance(data_dir, (str, os.PathLike)):
        return Path(data_dir)
    return data_dir


def _read_file(directory: Traversable, name: str) -> bytes:
    try:
        return directory.joinpath(name).read_bytes()
    except OSError as exc:
        raise ComponentDataError(name, None, f"cannot read ({exc})") from exc


def _parse_toml(name: str, content: bytes) -> dict[str, Any]:
    try:
        return tomllib.loads(content.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ComponentDataError(name, None, f"malformed TOML: {exc}") from exc


def _data_version(contents: Mapping[str, bytes]) -> str:
    """First 12 hex digits of sha256 over the data files, in DATA_FILES order."""
    digest = hashlib.sha256()
    for name in DATA_FILES:
        digest.update(contents[name])
    return digest.hexdigest()[:12]


# ---------------------------------------------------------------------------
# File schemas: what the TOML files hold, before checking


@frozen
class _LocationRecord:
    id: str
    name: str
    x: int
    y: int
    castle: Colour | None = None
    resource: bool = False
    capital: Colour | None = None
    recruitment: tuple[str, ...] = ()


@frozen
class _MapFile:
    locations: tuple[_LocationRecord, ...]
    connections: tuple[Connection, ...]


@frozen
class _DaimyoRecord:
    id: str
    side: Side
    has_cards: bool
    blocks: dict[BlockKind, int]


@frozen
class _BlocksFile:
    daimyo: tuple[_DaimyoRecord, ...]


@frozen
class _CardCount:
    count: int
    bid: int


@frozen
class _CardGroupRecord:
    deck: Side
    daimyo: str
    double: _CardCount
    swords: _CardCount
    plain: _CardCount

    def kinds(self) -> tuple[tuple[str, _CardCount], ...]:
        return (("double", self.double), ("swords", self.swords), ("plain", self.plain))


@frozen
class _LoyaltyRecord:
    deck: Side
    count: int
    bid: int


@frozen
class _CardsFile:
    groups: tuple[_CardGroupRecord, ...]
    loyalty: tuple[_LoyaltyRecord, ...] = ()


@frozen
class _SetupFile:
    weeks: int
    hand_size: int
    recruitment_draws: int
    fixed: dict[str, tuple[str, ...]]
    random: dict[Side, dict[str, int]]
    start_control: dict[str, Side]
    reinforcement: dict[str, int]
    discs: tuple[Disc, ...] = ()


# ---------------------------------------------------------------------------
# Structuring: a strict cattrs converter (no "3" for 3, no "abc" for a list)


class _BadValue(TypeError):
    """A TOML value of the wrong type or outside its allowed values."""


_TOML_TYPES = {str: "string", int: "integer", bool: "boolean", float: "float", list: "array", dict: "table"}


def _toml_type(value: Any) -> str:
    return _TOML_TYPES.get(type(value), type(value).__name__)


def _exact_hook(expected: type) -> Callable[[Any, Any], Any]:
    def structure(value: Any, _: Any) -> Any:
        if type(value) is not expected:
            raise _BadValue(f"expected {_TOML_TYPES[expected]}, got {_toml_type(value)} {value!r}")
        return value

    return structure


def _choice_hook(choices: tuple[str, ...], make: Callable[[str], Any]) -> Callable[[Any, Any], Any]:
    def structure(value: Any, _: Any) -> Any:
        if type(value) is not str or value not in choices:
            raise _BadValue(f"expected one of {', '.join(map(repr, choices))}, got {value!r}")
        return make(value)

    return structure


def _requiring(container: type, base: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """Wrap a structure hook so it refuses anything but a TOML array or table."""

    def structure(value: Any, type_: Any) -> Any:
        if not isinstance(value, container):
            raise _BadValue(f"expected {_TOML_TYPES[container]}, got {_toml_type(value)} {value!r}")
        return base(value, type_)

    return structure


def _is_homogeneous_tuple(type_: Any) -> bool:
    args = get_args(type_)
    return get_origin(type_) is tuple and len(args) == 2 and args[1] is Ellipsis


def _strict_converter() -> Converter:
    converter = Converter(forbid_extra_keys=True)
    for scalar in (str, int, bool):
        converter.register_structure_hook(scalar, _exact_hook(scalar))
    converter.register_structure_hook(Side, _choice_hook(tuple(s.value for s in Side), Side))
    converter.register_structure_hook_factory(
        lambda t: get_origin(t) is Literal, lambda t: _choice_hook(get_args(t), str)
    )
    converter.register_structure_hook_factory(
        _is_homogeneous_tuple,
        lambda t, c: _requiring(list, homogenous_tuple_structure_factory(t, c)),
    )
    converter.register_structure_hook_factory(
        lambda t: get_origin(t) is dict,
        lambda t, c: _requiring(dict, mapping_structure_factory(t, c)),
    )
    converter.register_structure_hook_factory(
        attrs.has, lambda t, c: _requiring(dict, make_dict_structure_fn(t, c))
    )
    return converter


_CONVERTER = _strict_converter()

_ENTRY_NAMES: dict[str, Callable[[dict[str, Any]], str]] = {
    "locations": lambda entry: f"location {entry['id']}",
    "connections": lambda entry: f"connection {entry['a']}-{entry['b']}",
    "daimyo": lambda entry: f"daimyo {entry['id']}",
    "groups": lambda entry: f"group {entry['daimyo']}",
    "loyalty": lambda entry: f"loyalty {entry['deck']}",
    "discs": lambda entry: f"disc {entry['id']}",
}

_ERROR_PATH = re.compile(r"^\$(?:\.(?P<key>\w+)(?:\[(?P<index>\d+)\]|\['(?P<name>[^']*)'\])?)?(?P<rest>.*)$")


def _structure(file: str, table: dict[str, Any], record_type: type) -> Any:
    """Structure a whole file; the first problem becomes a ComponentDataError."""
    try:
        return _CONVERTER.structure(table, record_type)
    except ClassValidationError as exc:
        first, *more = transform_error(exc, format_exception=_format_exception)
        entry, problem = _locate_error(table, first)
        if more:
            problem += f" (and {len(more)} more problem{'s' if len(more) > 1 else ''})"
        raise ComponentDataError(file, entry, problem) from exc


def _format_exception(exc: BaseException, type_: Any) -> str:
    if isinstance(exc, _BadValue):
        return str(exc)
    if isinstance(exc, ForbiddenExtraKeysError):
        return "unknown key " + ", ".join(map(repr, sorted(exc.extra_fields)))
    if isinstance(exc, KeyError):
        return "missing"
    return format_exception(exc, type_)


def _locate_error(table: dict[str, Any], line: str) -> tuple[str | None, str]:
    """Turn `message @ $.locations[3].x` into (`location kyoto`, `x: message`)."""
    message, _, path = line.rpartition(" @ ")
    match = _ERROR_PATH.match(path)
    assert match is not None  # the pattern matches every path cattrs makes
    key, index, name, rest = match.group("key", "index", "name", "rest")
    rest = re.sub(r"\['([^']*)'\]", r".\1", rest).lstrip(".")
    if index is not None:
        entry = _entry_name(key, table[key][int(index)], int(index))
    elif name is not None:
        entry = f"{key} {name}"
    else:
        entry = key
    return entry, f"{rest}: {message}" if rest else message


def _entry_name(key: str, entry: Any, index: int) -> str:
    try:
        return _ENTRY_NAMES[key](entry)
    except (KeyError, TypeError):
        return f"{key} #{index + 1}"


# ---------------------------------------------------------------------------
# blocks.toml: daimyo and blocks


def _build_daimyo(file: _BlocksFile) -> tuple[Daimyo, ...]:
    _check_unique(BLOCKS, "daimyo", (record.id for record in file.daimyo))
    return tuple(Daimyo(record.id, record.side, record.has_cards) for record in file.daimyo)


def _build_blocks(file: _BlocksFile, daimyo: tuple[Daimyo, ...]) -> tuple[Block, ...]:
    """Blocks: all Ishida, then all Tokugawa; daimyo in table order; kinds in BLOCK_KINDS order."""
    for record in file.daimyo:
        _check_block_counts(record)
    made = [block for record in file.daimyo for block in _blocks_of(record)]
    blocks = tuple(sorted(made, key=lambda block: _SIDE_ORDER[block.side]))
    _check_unique(BLOCKS, "block", (block.id for block in blocks))
    _check_any_card_blocks(blocks, daimyo)
    _check_blocks_per_side(blocks)
    return blocks


def _blocks_of(record: _DaimyoRecord) -> Iterator[Block]:
    for kind in BLOCK_KINDS:
        for n in range(1, record.blocks.get(kind, 0) + 1):
            yield Block(_block_id(record.id, kind, n), record.side, record.id, kind, STRENGTH[kind])


def _block_id(daimyo: str, kind: str, n: int) -> str:
    """`<daimyo>-<kind>` for a unique kind, else `<daimyo>-<kind>-<n>` (components.md)."""
    return f"{daimyo}-{kind}" if kind in UNIQUE_KINDS else f"{daimyo}-{kind}-{n}"


def _check_block_counts(record: _DaimyoRecord) -> None:
    for kind, count in record.blocks.items():
        if count < 0:
            raise ComponentDataError(BLOCKS, f"daimyo {record.id}", f"{kind} = {count}: negative count")
        if kind in UNIQUE_KINDS and count > 1:
            raise ComponentDataError(
                BLOCKS,
                f"daimyo {record.id}",
                f"{kind} = {count}: duplicate block id {_block_id(record.id, kind, 1)!r} (at most 1)",
            )


def _check_any_card_blocks(blocks: tuple[Block, ...], daimyo: tuple[Daimyo, ...]) -> None:
    """8.2.2: only ANY_CARD_BLOCKS belong to daimyo without cards, and they only."""
    has_cards = {d.id: d.has_cards for d in daimyo}
    for block in blocks:
        if has_cards[block.daimyo] == block.any_card:
            problem = (
                f"has_cards = {str(has_cards[block.daimyo]).lower()}, but block {block.id!r} "
                f"{'takes any' if block.any_card else 'needs its own'} daimyo card"
            )
            raise ComponentDataError(BLOCKS, f"daimyo {block.daimyo}", problem)


def _check_blocks_per_side(blocks: tuple[Block, ...]) -> None:
    for side in BOTH_SIDES:
        count = sum(1 for block in blocks if block.side is side)
        if count != BLOCKS_PER_SIDE:
            raise ComponentDataError(
                BLOCKS, f"side {side}", f"{count} blocks, expected {BLOCKS_PER_SIDE}"
            )


# ---------------------------------------------------------------------------
# map.toml: locations and connections


def _build_locations(file: _MapFile, daimyo: tuple[Daimyo, ...]) -> tuple[Location, ...]:
    locations = tuple(_location(record) for record in file.locations)
    _check_unique(MAP, "location", (loc.id for loc in locations))
    _check_capitals_are_resources(locations)
    _check_recruitment(locations, {d.id: d for d in daimyo})
    return locations


def _location(record: _LocationRecord) -> Location:
    return Location(
        id=record.id,
        name=record.name,
        x=record.x,
        y=record.y,
        castle=Side.of_colour(record.castle) if record.castle else None,
        resource=record.resource,
        capital=Side.of_colour(record.capital) if record.capital else None,
        recruitment=record.recruitment,
    )


def _check_capitals_are_resources(locations: tuple[Location, ...]) -> None:
    for loc in locations:
        if loc.capital is not None and not loc.resource:
            raise ComponentDataError(MAP, f"location {loc.id}", "a capital must be a resource location")


def _check_recruitment(locations: tuple[Location, ...], daimyo: Mapping[str, Daimyo]) -> None:
    """A recruitment location of daimyo D is one of D's side: one side only, and
    no castle or capital of the other side's colour."""
    for loc in locations:
        entry = f"location {loc.id}"
        for daimyo_id in loc.recruitment:
            if daimyo_id not in daimyo:
                raise ComponentDataError(MAP, entry, f"unknown recruitment daimyo {daimyo_id!r}")
        sides = {daimyo[daimyo_id].side for daimyo_id in loc.recruitment}
        if len(sides) > 1:
            raise ComponentDataError(MAP, entry, "recruitment daimyo of both sides")
        for side in sides:
            for what, colour in (("castle", loc.castle), ("capital", loc.capital)):
                if colour is not None and colour is not side:
                    raise ComponentDataError(
                        MAP, entry, f"recruitment of {side} daimyo in a {colour.colour} {what}"
                    )


def _build_connections(file: _MapFile, locations: tuple[Location, ...]) -> tuple[Connection, ...]:
    connections = file.connections
    _check_connection_ends(connections, {loc.id for loc in locations})
    _check_no_self_loops(connections)
    _check_unique_connections(connections)
    _check_connection_limit(locations, connections)
    _check_map_connected(locations, connections)
    return connections


def _connection_entry(conn: Connection) -> str:
    return f"connection {conn.a}-{conn.b}"


def _check_connection_ends(connections: tuple[Connection, ...], location_ids: set[str]) -> None:
    for conn in connections:
        for end in (conn.a, conn.b):
            if end not in location_ids:
                raise ComponentDataError(MAP, _connection_entry(conn), f"unknown location {end!r}")


def _check_no_self_loops(connections: tuple[Connection, ...]) -> None:
    for conn in connections:
        if conn.a == conn.b:
            raise ComponentDataError(MAP, _connection_entry(conn), "connects a location to itself")


def _check_unique_connections(connections: tuple[Connection, ...]) -> None:
    seen: dict[frozenset[str], Connection] = {}
    for conn in connections:
        if conn.key in seen:
            first = _connection_entry(seen[conn.key])
            raise ComponentDataError(MAP, _connection_entry(conn), f"duplicate of {first}")
        seen[conn.key] = conn


def _check_connection_limit(locations: tuple[Location, ...], connections: tuple[Connection, ...]) -> None:
    for id, others in _adjacency(locations, connections).items():
        if len(others) > MAX_CONNECTIONS:
            raise ComponentDataError(
                MAP, f"location {id}", f"{len(others)} connections, at most {MAX_CONNECTIONS}"
            )


def _check_map_connected(locations: tuple[Location, ...], connections: tuple[Connection, ...]) -> None:
    adjacency = _adjacency(locations, connections)
    start = locations[0].id
    reached = _breadth_first(start, lambda here: (other for other, _ in adjacency[here]))
    for loc in locations:
        if loc.id not in reached:
            raise ComponentDataError(MAP, f"location {loc.id}", f"cannot be reached from {start}")


# ---------------------------------------------------------------------------
# cards.toml


def _build_cards(file: _CardsFile, daimyo: tuple[Daimyo, ...]) -> tuple[Card, ...]:
    """Cards: all Ishida, then all Tokugawa; groups in daimyo table order, loyalty last."""
    by_id = {d.id: d for d in daimyo}
    for group in file.groups:
        _check_group_daimyo(group, by_id)
        _check_group_counts(group)
        _check_group_bids(group)
    for loyalty in file.loyalty:
        _check_loyalty(loyalty)
    _check_every_card_daimyo_has_a_group(file.groups, daimyo)
    table_order = {d.id: n for n, d in enumerate(daimyo)}
    groups = sorted(file.groups, key=lambda g: (_SIDE_ORDER[g.deck], table_order[g.daimyo]))
    made = [card for group in groups for card in _cards_of_group(group)]
    made += [card for loyalty in file.loyalty for card in _loyalty_cards(loyalty)]
    cards = tuple(sorted(made, key=lambda card: _SIDE_ORDER[card.side]))
    _check_unique(CARDS, "card", (card.id for card in cards))
    return cards


def _cards_of_group(group: _CardGroupRecord) -> Iterator[Card]:
    yield Card(f"{group.daimyo}-double", group.deck, group.daimyo, "double", group.double.bid)
    for kind, counted in group.kinds()[1:]:
        for n in range(1, counted.count + 1):
            yield Card(f"{group.daimyo}-{kind}-{n}", group.deck, group.daimyo, kind, counted.bid)


def _loyalty_cards(loyalty: _LoyaltyRecord) -> Iterator[Card]:
    for n in range(1, loyalty.count + 1):
        yield Card(f"{loyalty.deck}-loyalty-{n}", loyalty.deck, None, "loyalty", loyalty.bid)


def _check_group_daimyo(group: _CardGroupRecord, daimyo: Mapping[str, Daimyo]) -> None:
    entry = f"group {group.daimyo}"
    if group.daimyo not in daimyo:
        raise ComponentDataError(CARDS, entry, f"unknown daimyo {group.daimyo!r}")
    owner = daimyo[group.daimyo]
    if owner.side is not group.deck:
        raise ComponentDataError(CARDS, entry, f"{owner.id} is on the {owner.side} side, not {group.deck}")
    if not owner.has_cards:
        raise ComponentDataError(CARDS, entry, f"{owner.id} has no cards (has_cards = false)")


def _check_group_counts(group: _CardGroupRecord) -> None:
    """One double card per group (its id carries no number); no negative counts."""
    entry = f"group {group.daimyo}"
    if group.double.count != 1:
        raise ComponentDataError(CARDS, entry, f"double count {group.double.count}, expected 1")
    for kind, counted in group.kinds():
        if counted.count < 0:
            raise ComponentDataError(CARDS, entry, f"{kind} count {counted.count} is negative")


def _check_group_bids(group: _CardGroupRecord) -> None:
    """6.3, 8.4: parity by side; double above swords above plain."""
    entry = f"group {group.daimyo}"
    for kind, counted in group.kinds():
        _check_bid_parity(entry, group.deck, kind, counted.bid)
    bids = [counted.bid for _, counted in group.kinds()]
    if not bids[0] > bids[1] > bids[2]:
        raise ComponentDataError(CARDS, entry, f"bids {bids}: expected double > swords > plain")


def _check_loyalty(loyalty: _LoyaltyRecord) -> None:
    entry = f"loyalty {loyalty.deck}"
    if loyalty.count < 0:
        raise ComponentDataError(CARDS, entry, f"count {loyalty.count} is negative")
    _check_bid_parity(entry, loyalty.deck, "loyalty", loyalty.bid)


def _check_bid_parity(entry: str, side: Side, kind: str, bid: int) -> None:
    """6.3: Tokugawa bid numbers are even, Ishida odd, so bids never tie."""
    wanted = 0 if side is Side.TOKUGAWA else 1
    if bid % 2 != wanted:
        parity = "even" if wanted == 0 else "odd"
        raise ComponentDataError(CARDS, entry, f"{kind} bid {bid}: {side} bids must be {parity} (6.3)")


def _check_every_card_daimyo_has_a_group(
    groups: tuple[_CardGroupRecord, ...], daimyo: tuple[Daimyo, ...]
) -> None:
    _check_unique(CARDS, "group", (group.daimyo for group in groups))
    grouped = {group.daimyo for group in groups}
    for d in daimyo:
        if d.has_cards and d.id not in grouped:
            raise ComponentDataError(CARDS, f"daimyo {d.id}", "has_cards = true but no card group")


# ---------------------------------------------------------------------------
# setup.toml


def _build_setup(
    file: _SetupFile, locations: tuple[Location, ...], blocks: tuple[Block, ...]
) -> Setup:
    location_ids = {loc.id for loc in locations}
    blocks_by_id = {block.id: block for block in blocks}
    _check_setup_numbers(file)
    _check_fixed_places(file.fixed, location_ids)
    _check_fixed_blocks(file.fixed, blocks_by_id)
    _check_mori_box(file.fixed, blocks_by_id)
    _check_random_placements(file.random, location_ids)
    _check_bags(file, blocks, blocks_by_id)
    _check_start_control(file.start_control, location_ids)
    _check_reinforcement_track(file.reinforcement, file.weeks)
    return Setup(
        fixed=tuple((place, ids) for place, ids in file.fixed.items()),
        random=tuple((side, tuple(file.random.get(side, {}).items())) for side in BOTH_SIDES),
        recruitment_draws=file.recruitment_draws,
        hand_size=file.hand_size,
        start_control=tuple(file.start_control.items()),
        reinforcement=tuple(file.reinforcement[str(week)] for week in range(1, file.weeks + 1)),
        weeks=file.weeks,
    )


def _check_setup_numbers(file: _SetupFile) -> None:
    minimums = (
        ("weeks", file.weeks, 1),
        ("hand_size", file.hand_size, 0),
        ("recruitment_draws", file.recruitment_draws, 0),
    )
    for name, value, least in minimums:
        if value < least:
            raise ComponentDataError(SETUP, name, f"{value}: must be at least {least}")


def _check_fixed_places(fixed: Mapping[str, tuple[str, ...]], location_ids: set[str]) -> None:
    for place in fixed:
        if place != MORI_BOX and place not in location_ids:
            raise ComponentDataError(SETUP, f"fixed {place}", f"unknown location {place!r}")


def _check_fixed_blocks(fixed: Mapping[str, tuple[str, ...]], blocks: Mapping[str, Block]) -> None:
    placed: dict[str, str] = {}
    for place, ids in fixed.items():
        for block_id in ids:
            if block_id not in blocks:
                raise ComponentDataError(SETUP, f"fixed {place}", f"unknown block {block_id!r}")
            if block_id in placed:
                raise ComponentDataError(
                    SETUP, f"fixed {place}", f"block {block_id!r} is already set up at {placed[block_id]}"
                )
            placed[block_id] = place


def _check_mori_box(fixed: Mapping[str, tuple[str, ...]], blocks: Mapping[str, Block]) -> None:
    """9.3: the Mori Box is Ishida's."""
    for block_id in fixed.get(MORI_BOX, ()):
        if blocks[block_id].side is not Side.ISHIDA:
            raise ComponentDataError(SETUP, f"fixed {MORI_BOX}", f"{block_id!r} is not an Ishida block")


def _check_random_placements(random: Mapping[Side, Mapping[str, int]], location_ids: set[str]) -> None:
    for side, placements in random.items():
        for location_id, count in placements.items():
            if location_id not in location_ids:
                raise ComponentDataError(SETUP, f"random {side}", f"unknown location {location_id!r}")
            if count < 1:
                raise ComponentDataError(SETUP, f"random {side}", f"{location_id} = {count}: must be at least 1")


def _check_bags(file: _SetupFile, blocks: tuple[Block, ...], by_id: Mapping[str, Block]) -> None:
    """5.2: the bag must hold the random and Recruitment Box blocks after the fixed ones."""
    for side in BOTH_SIDES:
        total = sum(1 for block in blocks if block.side is side)
        fixed = sum(1 for ids in file.fixed.values() for block_id in ids if by_id[block_id].side is side)
        drawn = sum(file.random.get(side, {}).values()) + file.recruitment_draws
        if fixed + drawn > total:
            raise ComponentDataError(
                SETUP, f"random {side}", f"{fixed} fixed + {drawn} drawn blocks, but only {total} blocks"
            )


def _check_start_control(start_control: Mapping[str, Side], location_ids: set[str]) -> None:
    for location_id in start_control:
        if location_id not in location_ids:
            raise ComponentDataError(SETUP, f"start_control {location_id}", f"unknown location {location_id!r}")


def _check_reinforcement_track(track: Mapping[str, int], weeks: int) -> None:
    """One entry per week, 1 to `weeks`, none negative."""
    expected = [str(week) for week in range(1, weeks + 1)]
    if sorted(track, key=lambda key: (len(key), key)) != expected:
        raise ComponentDataError(
            SETUP, "reinforcement", f"weeks {', '.join(track)}: expected 1 to {weeks}"
        )
    for week, count in track.items():
        if count < 0:
            raise ComponentDataError(SETUP, f"reinforcement {week}", f"{count}: negative count")


def _build_discs(file: _SetupFile, locations: tuple[Location, ...]) -> tuple[Disc, ...]:
    _check_unique(SETUP, "disc", (disc.id for disc in file.discs))
    _check_discs_in_castles(file.discs, {loc.id: loc for loc in locations})
    return file.discs


def _check_discs_in_castles(discs: tuple[Disc, ...], locations: Mapping[str, Location]) -> None:
    """9.1, 9.2: a disc is always inside its castle."""
    for disc in discs:
        where = locations.get(disc.location)
        if where is None:
            raise ComponentDataError(SETUP, f"disc {disc.id}", f"unknown location {disc.location!r}")
        if not where.is_castle:
            raise ComponentDataError(SETUP, f"disc {disc.id}", f"{disc.location} is not a castle")


# ---------------------------------------------------------------------------
# shared checks


def _check_unique(file: str, what: str, ids: Iterable[str]) -> None:
    seen: set[str] = set()
    for id in ids:
        if id in seen:
            raise ComponentDataError(file, f"{what} {id}", f"duplicate {what} id")
        seen.add(id)
