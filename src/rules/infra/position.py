"""Position files: any game position written as TOML, for tests and for study.

`load_position(text)` builds a `GameState` from `initial_state(seed)`: it places
the blocks, deals the cards, sets control, the sieges (8.9.4) and the R51
record, sets the calendar, then begins the named phase so the state waits for
the right decision. The format is in docs/positions.md. A position that cannot
occur in a game raises `InvalidPosition` naming the source, the table and the
entry at fault.

This module reads the file in that order; each table is read where it is
described: the TOML and its values in position_toml, [game] in
position_calendar, the blocks and decks in position_pieces, control, sieges
and the R51 record in position_control.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from rules.bidding import begin_bid
from rules.combat import begin_combat_phase, next_combat
from rules.control import sides_present
from rules.errors import InvalidPosition
from rules.events import Event
from rules.immutable import evolve
from rules.infra.position_calendar import Calendar, initial_state_for, read_game
from rules.infra.position_control import set_castle_control, set_entered_from, set_resource_control, set_sieges
from rules.infra.position_pieces import deal_cards, place_blocks
from rules.infra.position_toml import Where, check_keys, parse_toml, read_table
from rules.movement import begin_movement_phase
from rules.reinforcement import begin_reinforcement
from rules.sequence import advance
from rules.sides import Side
from rules.state import ELIMINATED, DecisionKind, GameState
from rules.victory import instant_victory

ROOT_TABLES = (
    "game", "blocks", "hands", "draw_piles", "discard_piles", "unlisted_cards", "control", "castles",
    "besieged", "entered_from",
)


# ---------------------------------------------------------------------------
# entry points


def load_position(text: str, source: str = "position") -> GameState:
    """The position described by `text` (docs/positions.md), waiting for its decision."""
    root = Where(source, None)
    data = parse_toml(text, root)
    check_keys(root, data, ROOT_TABLES, "table")
    calendar = read_game(root.at("game"), read_table(root, data, "game", required=True))
    state = initial_state_for(calendar)
    state = place_blocks(state, root.at("blocks"), read_table(root, data, "blocks"))
    state = deal_cards(state, root, data)
    if "control" in data:
        state = set_resource_control(state, root.at("control"), read_table(root, data, "control"))
    state = set_castle_control(state, root.at("castles"), read_table(root, data, "castles"))
    state = set_sieges(state, root, data)
    state = set_entered_from(state, root, data, calendar)
    _check_game_not_over(state, root)
    _check_combats(state, root.at("game"), calendar.combats)
    return _begin_phase(state, calendar)


def load_position_file(path: str | Path) -> GameState:
    """Read a position file (UTF-8 TOML); its path names it in error messages."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise InvalidPosition(f"{path}: not UTF-8 text: {error}") from None
    return load_position(text, str(path))

# ---------------------------------------------------------------------------
# finishing


def _check_game_not_over(state: GameState, root: Where) -> None:
    """2.1: a position with a side's leader eliminated or Hideyori captured is
    already won; there is nothing left to play."""
    result = instant_victory(state)
    if result is None:
        return
    if "hideyori" not in state.discs:
        raise root.at("game").error("discs", "without 'hideyori' the game is already over (2.1, 9.1)")
    leader = "tokugawa-leader" if result.winner is Side.ISHIDA else "ishida-leader"
    raise root.at("blocks").error(ELIMINATED, f"{leader!r} eliminated: the game is already over (2.1)")


def _check_combats(state: GameState, where: Where, combats: tuple[str, ...] | None) -> None:
    """8.1: combat is declared only where both sides have units (R36: discs count)."""
    for location in combats or ():
        present = sides_present(state, location)
        if len(present) < 2:
            units = f"only {next(iter(present))} has" if present else "neither side has"
            raise where.error("combats", f"no combat at {location}: {units} units there (8.1)")


def _begin_phase(state: GameState, calendar: Calendar) -> GameState:
    """Begin the phase (6.2, 6.3, 7.1, 8.1) and go on until a side has a decision."""
    begin: Callable[[GameState], tuple[GameState, list[Event]]]
    if calendar.phase == "movement":
        assert calendar.active is not None
        state, _ = begin_movement_phase(state, calendar.active)
    elif calendar.phase == "combat":
        state = _begin_combat(state, calendar)
    else:
        begin = begin_bid if calendar.phase == "bid" else begin_reinforcement
        state, _ = begin(state)
    if state.decision.kind is DecisionKind.NONE:
        state, _ = advance(state)
    return state


def _begin_combat(state: GameState, calendar: Calendar) -> GameState:
    """8.1: every location with both sides is pending, or only those [game]
    combats lists (the others were fought earlier in the phase)."""
    assert calendar.active is not None
    state, _ = begin_combat_phase(state, calendar.active)
    if calendar.combats is None or state.combat is None:
        return state
    state, _ = next_combat(evolve(state, combat=evolve(state.combat, pending=frozenset(calendar.combats))))
    return state
