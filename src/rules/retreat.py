"""8.8 Retreats (R33, R34, R51, R52)."""

from __future__ import annotations

from itertools import combinations

from rules.alike import group_kind, one_of_each
from rules.arrival import arrive, has_enemy_units, record_entry
from rules.battle import battle_of
from rules.commands import Retreat
from rules.components import default_components
from rules.control import CASTLE_CAPACITY
from rules.events import BlocksRetreated, Event, OpponentRetreated
from rules.immutable import evolve
from rules.sides import Side
from rules.state import Battle, GameState, with_positions

CASTLE = "castle"


def entered_from(state: GameState, location: str, side: Side) -> set[str]:
    """R51: the adjacent locations `side` entered `location` from this turn."""
    return {origin for loc, s, origin in state.entered_from if loc == location and s is side}


def retreat_destinations(state: GameState, battle: Battle, side: Side) -> list[str]:
    """8.8.2: the attacker goes back where some of his blocks entered from, else
    anywhere adjacent. 8.8.3: the defender goes where no enemy is and none came
    from, else anywhere adjacent. Never into a box. (R33's case, no adjacent
    location at all, cannot arise: every location has neighbours.)"""
    neighbours = list(default_components().neighbours(battle.location))
    if side is battle.attacker:
        preferred = [n for n in neighbours if n in entered_from(state, battle.location, side)]
    else:
        enemy_came = entered_from(state, battle.location, side.other)
        preferred = [n for n in neighbours if n not in enemy_came and not has_enemy_units(state, side, n)]
    return preferred or neighbours


def may_garrison(battle: Battle, side: Side) -> bool:
    """8.8.4: only into the castle of the battle's location, by the side that
    controlled it before the combat."""
    return battle.castle_owner is side


def _garrisons(blocks: tuple[str, ...]) -> list[tuple[str, ...]]:
    choices = [chosen for size in range(CASTLE_CAPACITY + 1) for chosen in combinations(sorted(blocks), size)]
    return one_of_each(choices, group_kind)


def legal_retreats(state: GameState, side: Side) -> list[Retreat]:
    battle = battle_of(state)
    blocks = state.blocks_at(battle.location, side)
    garrisons = _garrisons(blocks) if may_garrison(battle, side) else [()]
    commands = [
        Retreat(side, to, garrison)
        for to in retreat_destinations(state, battle, side)
        for garrison in garrisons if len(garrison) < len(blocks)
    ]
    if may_garrison(battle, side) and len(blocks) <= CASTLE_CAPACITY:
        commands.append(Retreat(side, CASTLE, blocks))  # R34: all fit inside
    return commands


def why_retreat_illegal(state: GameState, command: Retreat) -> str | None:
    battle = battle_of(state)
    side = command.side
    blocks = set(state.blocks_at(battle.location, side))
    if command.garrison and not may_garrison(battle, side):
        return "only the side that held the castle before the combat may retreat into it (8.8.4)"
    if len(command.garrison) > CASTLE_CAPACITY:
        return f"at most {CASTLE_CAPACITY} blocks retreat into the castle (8.8.4, R34)"
    for block in command.garrison:
        if block not in blocks:
            return f"{block} is not one of your blocks here (8.8.4)"
    if command.to == CASTLE:
        if set(command.garrison) != blocks:
            return "blocks left outside the castle must retreat to a location (8.8.4, R34)"
        return None
    if command.to not in retreat_destinations(state, battle, side):
        return f"{command.to} is not a legal retreat: choose among {', '.join(retreat_destinations(state, battle, side))} (8.8.2, 8.8.3)"
    if set(command.garrison) == blocks:
        return "name the castle as the destination when every block stays inside (R34)"
    return None


def apply_retreat(state: GameState, command: Retreat) -> tuple[GameState, list[Event]]:
    """All remaining blocks retreat together (8.8.1), up to 2 into the castle
    (R34). R52: the arrival may overrun; a combat it causes is fought at once
    unless one is still to be declared there this phase."""
    battle = battle_of(state)
    side, origin = command.side, battle.location
    leaving = tuple(b for b in state.blocks_at(origin, side) if b not in command.garrison)
    if command.garrison:
        state = evolve(state, besieged=tuple(sorted(set(state.besieged) | {(origin, side)})))
    if not leaving:
        return state, []
    to = command.to
    state = with_positions(state, {b: to for b in leaving})
    state = evolve(state, revealed=state.revealed - set(leaving))  # R62: hidden again once it retreats
    state = evolve(state, entered_from=record_entry(state.entered_from, to, side, origin))
    events: list[Event] = [BlocksRetreated(side, leaving, origin, to),
                           OpponentRetreated(side, len(leaving), origin, to, len(command.garrison))]
    state, more = arrive(state, side, to, origin)
    events += more
    assert state.combat is not None
    if not state.is_over and has_enemy_units(state, side, to) and to not in state.combat.pending:
        state = evolve(state, combat=evolve(state.combat, immediate=state.combat.immediate + ((to, side),)))
    return state, events

