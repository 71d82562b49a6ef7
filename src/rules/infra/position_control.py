"""Position files, who holds what: [control] and [castles] (4.2, 4.3, R6,
R36, R54), [besieged], the sieges that go on (8.9.4 step 5, 8.9.6, R57), and
[entered_from], where each side's blocks entered each location this turn (R51)."""

from __future__ import annotations

from typing import Any

from rules.components import default_components
from rules.control import sides_present, update_castle_control
from rules.immutable import evolve
from rules.infra.position_calendar import Calendar
from rules.infra.position_toml import (
    Where,
    check_location,
    known_location,
    read_inline_table,
    read_side,
    read_table,
    read_unique_ids,
)
from rules.sides import Side
from rules.state import GameState, sorted_pairs


# ---------------------------------------------------------------------------
# [control] and [castles] (4.2, 4.3, R6, R36, R54)


def set_resource_control(state: GameState, where: Where, table: dict[str, Any]) -> GameState:
    """4.2: resource location = side; one left out is uncontrolled. Without the
    table, the start control stays (R6)."""
    control: dict[str, Side] = {}
    for location, value in table.items():
        check_location(where, location, lambda loc: loc.resource, "a resource location (4.2)")
        control[location] = read_side(where, location, value)
    return evolve(state, resource_control=sorted_pairs(control))


def set_castle_control(state: GameState, where: Where, table: dict[str, Any]) -> GameState:
    """4.3: castles follow the units there; where both sides are present (a
    siege) the [castles] entry names the owner (R54), or a disc's side (R36)."""
    owners = _read_castles(where, table)
    control = dict(state.castle_control)
    for castle_id in _contested_castles(state):
        control[castle_id] = _siege_owner(state, where, castle_id, owners.get(castle_id))
    state, _ = update_castle_control(evolve(state, castle_control=sorted_pairs(control)))
    for castle_id, side in owners.items():
        if state.control_of_castle(castle_id) is not side:
            derived = state.control_of_castle(castle_id)
            raise where.error(
                castle_id, f"no siege at {castle_id}: 4.3 gives the castle to {derived}, not {side}"
            )
    return state


def _contested_castles(state: GameState) -> list[str]:
    """Castle locations holding units of both sides (blocks or discs, R36)."""
    castles = default_components().castles()
    return [castle.id for castle in castles if len(sides_present(state, castle.id)) == 2]


def _read_castles(where: Where, table: dict[str, Any]) -> dict[str, Side]:
    owners: dict[str, Side] = {}
    for location, value in table.items():
        check_location(where, location, lambda loc: loc.is_castle, "a castle location (4.3)")
        owners[location] = read_side(where, location, value)
    return owners


def _siege_owner(state: GameState, where: Where, castle_id: str, given: Side | None) -> Side:
    """R54: the owner of a castle with units of both sides; a disc is always
    inside its castle, so its side owns it (R36)."""
    for disc in default_components().discs:
        if disc.id in state.discs and disc.location == castle_id:
            if given is not None and given is not disc.side:
                raise where.error(
                    castle_id, f"the {disc.id} disc is inside the castle, so {disc.side} owns it (R36)"
                )
            return disc.side
    if given is None:
        raise where.error(castle_id, f"both sides have units at {castle_id}: name the castle's owner (R54)")
    return given


# ---------------------------------------------------------------------------
# [besieged]: sieges that go on (8.9.4 step 5, 8.9.6, R57)


def set_sieges(state: GameState, root: Where, data: dict[str, Any]) -> GameState:
    """8.9.4 step 5: where a siege goes on, the castle's owner is besieged
    inside. Without [besieged], every castle location holding units of both
    sides is such a siege; with it, exactly the sieges it lists."""
    if "besieged" in data:
        sieges = _read_besieged(state, root.at("besieged"), read_table(root, data, "besieged"))
    else:
        sieges = _inferred_sieges(state)
    return evolve(state, besieged=sorted_pairs(sieges))


def _inferred_sieges(state: GameState) -> dict[str, Side]:
    """Both sides at a castle location: its owner (R54, R36) is inside."""
    return {castle_id: state.control_of_castle(castle_id) for castle_id in _contested_castles(state)}


def _read_besieged(state: GameState, where: Where, table: dict[str, Any]) -> dict[str, Side]:
    sieges: dict[str, Side] = {}
    for location, value in table.items():
        check_location(where, location, lambda loc: loc.is_castle, "a castle location (8.9)")
        sieges[location] = read_side(where, location, value)
        _check_siege(state, where, location, sieges[location])
    return sieges


def _check_siege(state: GameState, where: Where, location: str, side: Side) -> None:
    """8.9.1, 8.9.4 step 5: the castle's owner, with units inside, and enemy
    units outside besieging it."""
    present = sides_present(state, location)
    if side not in present:
        raise where.error(location, f"no {side} units at {location} to be besieged (8.9.6)")
    if side.other not in present:
        raise where.error(location, f"no {side.other} units at {location}: nobody besieges it (8.9.4)")
    owner = state.control_of_castle(location)
    if owner is not side:
        raise where.error(
            location,
            f"{owner} owns the castle at {location} (R54, R36), so only {owner} can be besieged inside (8.9.1)",
        )


# ---------------------------------------------------------------------------
# [entered_from]: where each side's blocks entered each location this turn (R51)


def set_entered_from(state: GameState, root: Where, data: dict[str, Any], calendar: Calendar) -> GameState:
    """R51: the record starts empty at the start of each turn, and the first
    player's Movement Phase opens the turn (6.4); so only a Combat Phase or the
    second player's Movement Phase may carry one. Left out, it is empty."""
    if "entered_from" not in data:
        return state
    where = root.at("entered_from")
    if not _record_may_be_kept(calendar):
        raise where.error(
            None,
            "the record starts empty each turn (R51): give it only in a Combat Phase "
            "or in the second player's Movement Phase (6.4)",
        )
    entries: list[tuple[str, Side, str]] = []
    for location, value in read_table(root, data, "entered_from").items():
        known_location(where, location)
        for key, origins in read_inline_table(where, location, value).items():
            entry = f"{location}.{key}"
            side = read_side(where, entry, key)
            entries += [(location, side, origin) for origin in _read_origins(where, entry, location, origins)]
    return evolve(state, entered_from=tuple(sorted(entries)))


def _record_may_be_kept(calendar: Calendar) -> bool:
    if calendar.phase == "combat":
        return True
    return calendar.phase == "movement" and calendar.active is not calendar.first_player


def _read_origins(where: Where, entry: str, location: str, value: Any) -> tuple[str, ...]:
    """R51: blocks enter a location from an adjacent one, along a road."""
    origins = read_unique_ids(where, entry, value, "location")
    neighbours = default_components().neighbours(location)
    for origin in origins:
        if origin not in neighbours:
            raise where.error(
                entry,
                f"{origin!r} is not adjacent to {location} by road (R51); "
                f"expected one of: {', '.join(neighbours)}",
            )
    return origins
