"""Position files, the [game] table: the calendar (6.1, 6.4), the discs still
in play (3.4) and the combats still to be declared (8.1)."""

from __future__ import annotations

from typing import Any

from attrs import frozen

from rules.components import default_components
from rules.immutable import evolve
from rules.infra.position_toml import Where, check_keys, read_integer, read_side, read_unique_ids
from rules.setup import initial_state
from rules.sides import Side
from rules.state import GameState, Turn

GAME_KEYS = ("seed", "week", "turn", "phase", "first_player", "active", "discs", "combats")
REQUIRED_GAME_KEYS = ("week", "phase")
PHASES = ("reinforcement", "bid", "movement", "combat")
TURN_PHASES = ("movement", "combat")  # the phases of turns A and B (6.4): they have a first player


@frozen
class Calendar:
    """The [game] table, checked."""

    seed: int
    week: int
    turn: Turn
    phase: str
    first_player: Side | None
    active: Side | None
    discs: frozenset[str]
    combats: tuple[str, ...] | None  # None: every location with both sides (8.1)


def read_game(where: Where, table: dict[str, Any]) -> Calendar:
    """Week (1..7), turn, phase, the week's first player (6.1, 6.3, 6.4) and
    the combats still to be declared (8.1)."""
    check_keys(where, table, GAME_KEYS, "key")
    for key in REQUIRED_GAME_KEYS:
        if key not in table:
            raise where.error(key, "is required")
    phase = _read_phase(where, table["phase"])
    week = _read_week(where, table["week"], phase)
    turn = _read_turn(where, table.get("turn", "A"), phase)
    first, active = _read_players(where, table, phase)
    return Calendar(
        seed=read_integer(where, "seed", table.get("seed", 0)),
        week=week,
        turn=turn,
        phase=phase,
        first_player=first,
        active=active,
        discs=_read_discs(where, table),
        combats=_read_combats(where, table, phase),
    )


def _read_phase(where: Where, value: Any) -> str:
    if value not in PHASES:
        raise where.error("phase", f"unknown phase {value!r}; expected one of: {', '.join(PHASES)}")
    return value


def _read_week(where: Where, value: Any, phase: str) -> int:
    """6.1: weeks 1 to 7; week 1 has no reinforcement step."""
    week = read_integer(where, "week", value)
    weeks = default_components().setup.weeks
    if not 1 <= week <= weeks:
        raise where.error("week", f"week {week} is outside 1..{weeks} (6)")
    if week == 1 and phase == "reinforcement":
        raise where.error("phase", "week 1 has no reinforcement step (6.1)")
    return week


def _read_turn(where: Where, value: Any, phase: str) -> Turn:
    """6.1: the reinforcement and turn order steps come before turn A."""
    if value not in ("A", "B"):
        raise where.error("turn", f"unknown turn {value!r}; expected \"A\" or \"B\"")
    if value == "B" and phase not in TURN_PHASES:
        raise where.error("turn", f"the {phase} step comes before turn A (6.1)")
    return Turn(value)


def _read_players(where: Where, table: dict[str, Any], phase: str) -> tuple[Side | None, Side | None]:
    """6.3: the bid decides the first player, so only a movement or combat
    position names one."""
    if phase not in TURN_PHASES:
        for key in ("first_player", "active"):
            if key in table:
                raise where.error(key, f"the bid decides it (6.3): give it only with phase = {_turn_phases()}")
        return None, None
    if "first_player" not in table:
        raise where.error("first_player", f"is required with phase = {_turn_phases()} (6.3, 6.4)")
    first = read_side(where, "first_player", table["first_player"])
    return first, read_side(where, "active", table.get("active", first.value))


def _turn_phases() -> str:
    return " or ".join(f'"{phase}"' for phase in TURN_PHASES)


def _read_discs(where: Where, table: dict[str, Any]) -> frozenset[str]:
    """3.4: the discs still in play, each in its castle (9.1, 9.2); default all."""
    known = tuple(d.id for d in default_components().discs)
    if "discs" not in table:
        return frozenset(known)
    discs = read_unique_ids(where, "discs", table["discs"], "disc")
    for disc in discs:
        if disc not in known:
            raise where.error("discs", f"unknown disc {disc!r}; expected one of: {', '.join(known)}")
    return frozenset(discs)


def _read_combats(where: Where, table: dict[str, Any], phase: str) -> tuple[str, ...] | None:
    """8.1: the locations where combat is still to be declared this Combat
    Phase; only a combat position has them. Checked against the units in
    `_check_combats`, once the blocks are placed."""
    if "combats" not in table:
        return None
    if phase != "combat":
        raise where.error("combats", 'give it only with phase = "combat" (8.1)')
    combats = read_unique_ids(where, "combats", table["combats"], "location")
    for location in combats:
        if location not in default_components().location_ids:
            raise where.error("combats", f"unknown location {location!r}")
    return combats


def initial_state_for(calendar: Calendar) -> GameState:
    """`initial_state` (every block in its bag, R6 control) with the position's calendar."""
    return evolve(
        initial_state(calendar.seed),
        week=calendar.week,
        turn=calendar.turn,
        first_player=calendar.first_player,
        discs=calendar.discs,
    )
