"""Reading the components from `data/`: the four TOML files are parsed,
structured (rules.infra.component_files), checked, and built into the frozen
classes of rules.components. Every problem raises `ComponentDataError`
naming the file, the entry and what is wrong. The entry point is
`rules.components.load_components`."""

from __future__ import annotations

import hashlib
import os
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from rules.infra.component_files import (
    BlocksFile, CardGroupRecord, CardsFile, DaimyoRecord, LocationRecord, LoyaltyRecord, MapFile, SetupFile, structure_file,
)
from rules.components import (
    BLOCK_KINDS, BLOCKS, BLOCKS_PER_SIDE, CARDS, DATA_FILES, MAP, MAX_CONNECTIONS, MORI_BOX, SETUP,
    STRENGTH, UNIQUE_KINDS, Block, Card, ComponentDataError, Components, Connection, Daimyo, Disc,
    Location, Setup, adjacency, breadth_first, default_data_dir,
)
from rules.sides import BOTH_SIDES, Side

SIDE_ORDER = {side: n for n, side in enumerate(BOTH_SIDES)}


def load(data_dir: Path | Traversable | str | None = None) -> Components:
    """Load and check the four data files; None loads the packaged data."""
    directory = _as_directory(data_dir)
    contents = {name: _read_file(directory, name) for name in DATA_FILES}
    tables = {name: _parse_toml(name, content) for name, content in contents.items()}
    blocks_file = structure_file(BLOCKS, tables[BLOCKS], BlocksFile)
    map_file = structure_file(MAP, tables[MAP], MapFile)
    cards_file = structure_file(CARDS, tables[CARDS], CardsFile)
    setup_file = structure_file(SETUP, tables[SETUP], SetupFile)

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
# blocks.toml: daimyo and blocks


def _build_daimyo(file: BlocksFile) -> tuple[Daimyo, ...]:
    _check_unique(BLOCKS, "daimyo", (record.id for record in file.daimyo))
    return tuple(Daimyo(record.id, record.side, record.has_cards) for record in file.daimyo)


def _build_blocks(file: BlocksFile, daimyo: tuple[Daimyo, ...]) -> tuple[Block, ...]:
    """Blocks: all Ishida, then all Tokugawa; daimyo in table order; kinds in BLOCK_KINDS order."""
    for record in file.daimyo:
        _check_block_counts(record)
    made = [block for record in file.daimyo for block in _blocks_of(record)]
    blocks = tuple(sorted(made, key=lambda block: SIDE_ORDER[block.side]))
    _check_unique(BLOCKS, "block", (block.id for block in blocks))
    _check_any_card_blocks(blocks, daimyo)
    _check_blocks_per_side(blocks)
    return blocks


def _blocks_of(record: DaimyoRecord) -> Iterator[Block]:
    for kind in BLOCK_KINDS:
        for n in range(1, record.blocks.get(kind, 0) + 1):
            yield Block(_block_id(record.id, kind, n), record.side, record.id, kind, STRENGTH[kind])


def _block_id(daimyo: str, kind: str, n: int) -> str:
    """`<daimyo>-<kind>` for a unique kind, else `<daimyo>-<kind>-<n>` (components.md)."""
    return f"{daimyo}-{kind}" if kind in UNIQUE_KINDS else f"{daimyo}-{kind}-{n}"


def _check_block_counts(record: DaimyoRecord) -> None:
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


def _build_locations(file: MapFile, daimyo: tuple[Daimyo, ...]) -> tuple[Location, ...]:
    locations = tuple(_location(record) for record in file.locations)
    _check_unique(MAP, "location", (loc.id for loc in locations))
    _check_capitals_are_resources(locations)
    _check_recruitment(locations, {d.id: d for d in daimyo})
    return locations


def _location(record: LocationRecord) -> Location:
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


def _build_connections(file: MapFile, locations: tuple[Location, ...]) -> tuple[Connection, ...]:
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
    for id, others in adjacency(locations, connections).items():
        if len(others) > MAX_CONNECTIONS:
            raise ComponentDataError(
                MAP, f"location {id}", f"{len(others)} connections, at most {MAX_CONNECTIONS}"
            )


def _check_map_connected(locations: tuple[Location, ...], connections: tuple[Connection, ...]) -> None:
    neighbours = adjacency(locations, connections)
    start = locations[0].id
    reached = breadth_first(start, lambda here: (other for other, _ in neighbours[here]))
    for loc in locations:
        if loc.id not in reached:
            raise ComponentDataError(MAP, f"location {loc.id}", f"cannot be reached from {start}")


# ---------------------------------------------------------------------------
# cards.toml


def _build_cards(file: CardsFile, daimyo: tuple[Daimyo, ...]) -> tuple[Card, ...]:
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
    groups = sorted(file.groups, key=lambda g: (SIDE_ORDER[g.deck], table_order[g.daimyo]))
    made = [card for group in groups for card in _cards_of_group(group)]
    made += [card for loyalty in file.loyalty for card in _loyalty_cards(loyalty)]
    cards = tuple(sorted(made, key=lambda card: SIDE_ORDER[card.side]))
    _check_unique(CARDS, "card", (card.id for card in cards))
    return cards


def _cards_of_group(group: CardGroupRecord) -> Iterator[Card]:
    yield Card(f"{group.daimyo}-double", group.deck, group.daimyo, "double", group.double.bid)
    for kind, counted in group.kinds()[1:]:
        for n in range(1, counted.count + 1):
            yield Card(f"{group.daimyo}-{kind}-{n}", group.deck, group.daimyo, kind, counted.bid)


def _loyalty_cards(loyalty: LoyaltyRecord) -> Iterator[Card]:
    for n in range(1, loyalty.count + 1):
        yield Card(f"{loyalty.deck}-loyalty-{n}", loyalty.deck, None, "loyalty", loyalty.bid)


def _check_group_daimyo(group: CardGroupRecord, daimyo: Mapping[str, Daimyo]) -> None:
    entry = f"group {group.daimyo}"
    if group.daimyo not in daimyo:
        raise ComponentDataError(CARDS, entry, f"unknown daimyo {group.daimyo!r}")
    owner = daimyo[group.daimyo]
    if owner.side is not group.deck:
        raise ComponentDataError(CARDS, entry, f"{owner.id} is on the {owner.side} side, not {group.deck}")
    if not owner.has_cards:
        raise ComponentDataError(CARDS, entry, f"{owner.id} has no cards (has_cards = false)")


def _check_group_counts(group: CardGroupRecord) -> None:
    """One double card per group (its id carries no number); no negative counts."""
    entry = f"group {group.daimyo}"
    if group.double.count != 1:
        raise ComponentDataError(CARDS, entry, f"double count {group.double.count}, expected 1")
    for kind, counted in group.kinds():
        if counted.count < 0:
            raise ComponentDataError(CARDS, entry, f"{kind} count {counted.count} is negative")


def _check_group_bids(group: CardGroupRecord) -> None:
    """6.3, 8.4: parity by side; double above swords above plain."""
    entry = f"group {group.daimyo}"
    for kind, counted in group.kinds():
        _check_bid_parity(entry, group.deck, kind, counted.bid)
    bids = [counted.bid for _, counted in group.kinds()]
    if not bids[0] > bids[1] > bids[2]:
        raise ComponentDataError(CARDS, entry, f"bids {bids}: expected double > swords > plain")


def _check_loyalty(loyalty: LoyaltyRecord) -> None:
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
    groups: tuple[CardGroupRecord, ...], daimyo: tuple[Daimyo, ...]
) -> None:
    _check_unique(CARDS, "group", (group.daimyo for group in groups))
    grouped = {group.daimyo for group in groups}
    for d in daimyo:
        if d.has_cards and d.id not in grouped:
            raise ComponentDataError(CARDS, f"daimyo {d.id}", "has_cards = true but no card group")


# ---------------------------------------------------------------------------
# setup.toml


def _build_setup(
    file: SetupFile, locations: tuple[Location, ...], blocks: tuple[Block, ...]
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


def _check_setup_numbers(file: SetupFile) -> None:
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


def _check_bags(file: SetupFile, blocks: tuple[Block, ...], by_id: Mapping[str, Block]) -> None:
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


def _build_discs(file: SetupFile, locations: tuple[Location, ...]) -> tuple[Disc, ...]:
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
