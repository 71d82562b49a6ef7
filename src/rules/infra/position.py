"""Position files: any game position written as TOML, for tests and for study.

`load_position(text)` builds a `GameState` from `initial_state(seed)`: it places
the blocks, deals the cards, sets control, the sieges (8.9.4) and the R51
record, sets the calendar, then begins the named phase so the state waits for
the right decision. The format is in docs/positions.md. A position that cannot
occur in a game raises `InvalidPosition` naming the source, the table and the
entry at fault.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any, Callable

from attrs import frozen

from rules.bidding import begin_bid
from rules.combat import begin_combat_phase, next_combat
from rules.components import Location, default_components
from rules.control import sides_present, update_castle_control
from rules.errors import InvalidPosition
from rules.events import Event
from rules.immutable import evolve
from rules.movement import begin_movement_phase
from rules.randomness import shuffled
from rules.reinforcement import begin_reinforcement
from rules.sequence import advance
from rules.sides import BOTH_SIDES, Side
from rules.setup import initial_state
from rules.state import (
    ELIMINATED,
    MORI_BOX,
    OFF_MAP,
    RECRUITMENT_BOX,
    DecisionKind,
    GameState,
    SideCards,
    Turn,
    sorted_pairs,
    with_positions,
)
from rules.victory import instant_victory

ROOT_TABLES = (
    "game", "blocks", "hands", "draw_piles", "discard_piles", "unlisted_cards", "control", "castles",
    "besieged", "entered_from",
)
GAME_KEYS = ("seed", "week", "turn", "phase", "first_player", "active", "discs", "combats")
REQUIRED_GAME_KEYS = ("week", "phase")
CARD_TABLES = {"hands": "hand", "draw_piles": "draw_pile", "discard_piles": "discard_pile"}
UNLISTED_DESTINATIONS = ("draw_pile", "discard_pile")
PHASES = ("reinforcement", "bid", "movement", "combat")
TURN_PHASES = ("movement", "combat")  # the phases of turns A and B (6.4): they have a first player
# No entry needs more than a list inside an inline table ([entered_from]); the
# limit leaves room for wrong shapes to get their own message first.
MAX_NESTING = 4


@frozen
class _Calendar:
    """The [game] table, checked."""

    seed: int
    week: int
    turn: Turn
    phase: str
    first_player: Side | None
    active: Side | None
    discs: frozenset[str]
    combats: tuple[str, ...] | None  # None: every location with both sides (8.1)


@frozen
class _Where:
    """Where in the file a value came from, for error messages."""

    source: str
    table: str | None

    def error(self, entry: str | None, problem: str) -> InvalidPosition:
        where = f"[{self.table}]" if self.table else "top level:"
        if entry is not None:
            where += f" {entry}"
        return InvalidPosition(f"{self.source}: {where.rstrip(':')}: {problem}")

    def at(self, table: str) -> _Where:
        return _Where(self.source, table)


# ---------------------------------------------------------------------------
# entry points


def load_position(text: str, source: str = "position") -> GameState:
    """The position described by `text` (docs/positions.md), waiting for its decision."""
    root = _Where(source, None)
    data = _parse(text, root)
    _check_keys(root, data, ROOT_TABLES, "table")
    calendar = _read_game(root.at("game"), _table(root, data, "game", required=True))
    state = _initial_state_for(calendar)
    state = _place_blocks(state, root.at("blocks"), _table(root, data, "blocks"))
    state = _deal_cards(state, root, data)
    if "control" in data:
        state = _set_resource_control(state, root.at("control"), _table(root, data, "control"))
    state = _set_castle_control(state, root.at("castles"), _table(root, data, "castles"))
    state = _set_sieges(state, root, data)
    state = _set_entered_from(state, root, data, calendar)
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
# reading the TOML


def _parse(text: str, root: _Where) -> dict[str, Any]:
    """The TOML, with no value nested deeper than a position needs. tomllib
    recurses on nested arrays and inline tables, so thousands of levels run
    out of stack before any check could see them."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InvalidPosition(f"{root.source}: not valid TOML: {error}") from None
    except RecursionError:
        raise InvalidPosition(f"{root.source}: {_too_deep()}") from None
    _check_nesting(root, data)
    return data


def _too_deep() -> str:
    return (
        f"nested more than {MAX_NESTING} lists or tables deep; "
        "no entry of a position needs more than 2 (a list in an inline table)"
    )


def _check_nesting(root: _Where, data: dict[str, Any]) -> None:
    """Refuse deep values before anything reads them (messages print values)."""
    for key, value in data.items():
        where, entries = (root.at(key), value.items()) if isinstance(value, dict) else (root, [(key, value)])
        for entry, item in entries:
            if _nesting(item) > MAX_NESTING:
                raise where.error(entry, _too_deep())


def _nesting(value: Any) -> int:
    """How many lists and tables deep `value` goes, counted without recursion
    and only up to one more than MAX_NESTING."""
    deepest, stack = 0, [(value, 0)]
    while stack and deepest <= MAX_NESTING:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, depth + 1)
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def _table(root: _Where, data: dict[str, Any], name: str, required: bool = False) -> dict[str, Any]:
    if name not in data:
        if required:
            raise root.at(name).error(None, "this table is required")
        return {}
    value = data[name]
    if not isinstance(value, dict):
        raise root.error(name, f"must be a table [{name}], not {value!r}")
    return value


def _check_keys(where: _Where, table: dict[str, Any], allowed: tuple[str, ...], what: str) -> None:
    """Unknown keys are errors, so that a typo never passes silently."""
    for key in table:
        if key not in allowed:
            raise where.error(key, f"unknown {what} {key!r}; expected one of: {', '.join(allowed)}")


def _side(where: _Where, entry: str, value: Any) -> Side:
    try:
        return Side(value)
    except ValueError:
        raise where.error(entry, f"unknown side {value!r}; expected ishida or tokugawa") from None


def _side_key(where: _Where, key: str) -> Side:
    return _side(where, key, key)


def _integer(where: _Where, entry: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise where.error(entry, f"must be a whole number, not {value!r}")
    return value


def _ids(where: _Where, entry: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise where.error(entry, f"must be a list of ids in quotes, not {value!r}")
    return tuple(value)


def _unique_ids(where: _Where, entry: str, value: Any, what: str) -> tuple[str, ...]:
    ids = _ids(where, entry, value)
    for item in ids:
        if ids.count(item) > 1:
            raise where.error(entry, f"{what} {item!r} is listed twice")
    return ids


def _inline_table(where: _Where, entry: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise where.error(entry, f"must be a table {{ side = [...] }}, not {value!r}")
    return value


# ---------------------------------------------------------------------------
# [game]: the calendar (6.1, 6.4), the discs (3.4) and the combats (8.1)


def _read_game(where: _Where, table: dict[str, Any]) -> _Calendar:
    """Week (1..7), turn, phase, the week's first player (6.1, 6.3, 6.4) and
    the combats still to be declared (8.1)."""
    _check_keys(where, table, GAME_KEYS, "key")
    for key in REQUIRED_GAME_KEYS:
        if key not in table:
            raise where.error(key, "is required")
    phase = _read_phase(where, table["phase"])
    week = _read_week(where, table["week"], phase)
    turn = _read_turn(where, table.get("turn", "A"), phase)
    first, active = _read_players(where, table, phase)
    return _Calendar(
        seed=_integer(where, "seed", table.get("seed", 0)),
        week=week,
        turn=turn,
        phase=phase,
        first_player=first,
        active=active,
        discs=_read_discs(where, table),
        combats=_read_combats(where, table, phase),
    )


def _read_phase(where: _Where, value: Any) -> str:
    if value not in PHASES:
        raise where.error("phase", f"unknown phase {value!r}; expected one of: {', '.join(PHASES)}")
    return value


def _read_week(where: _Where, value: Any, phase: str) -> int:
    """6.1: weeks 1 to 7; week 1 has no reinforcement step."""
    week = _integer(where, "week", value)
    weeks = default_components().setup.weeks
    if not 1 <= week <= weeks:
        raise where.error("week", f"week {week} is outside 1..{weeks} (6)")
    if week == 1 and phase == "reinforcement":
        raise where.error("phase", "week 1 has no reinforcement step (6.1)")
    return week


def _read_turn(where: _Where, value: Any, phase: str) -> Turn:
    """6.1: the reinforcement and turn order steps come before turn A."""
    if value not in ("A", "B"):
        raise where.error("turn", f"unknown turn {value!r}; expected \"A\" or \"B\"")
    if value == "B" and phase not in TURN_PHASES:
        raise where.error("turn", f"the {phase} step comes before turn A (6.1)")
    return Turn(value)


def _read_players(where: _Where, table: dict[str, Any], phase: str) -> tuple[Side | None, Side | None]:
    """6.3: the bid decides the first player, so only a movement or combat
    position names one."""
    if phase not in TURN_PHASES:
        for key in ("first_player", "active"):
            if key in table:
                raise where.error(key, f"the bid decides it (6.3): give it only with phase = {_turn_phases()}")
        return None, None
    if "first_player" not in table:
        raise where.error("first_player", f"is required with phase = {_turn_phases()} (6.3, 6.4)")
    first = _side(where, "first_player", table["first_player"])
    return first, _side(where, "active", table.get("active", first.value))


def _turn_phases() -> str:
    return " or ".join(f'"{phase}"' for phase in TURN_PHASES)


def _read_discs(where: _Where, table: dict[str, Any]) -> frozenset[str]:
    """3.4: the discs still in play, each in its castle (9.1, 9.2); default all."""
    known = tuple(d.id for d in default_components().discs)
    if "discs" not in table:
        return frozenset(known)
    discs = _unique_ids(where, "discs", table["discs"], "disc")
    for disc in discs:
        if disc not in known:
            raise where.error("discs", f"unknown disc {disc!r}; expected one of: {', '.join(known)}")
    return frozenset(discs)


def _read_combats(where: _Where, table: dict[str, Any], phase: str) -> tuple[str, ...] | None:
    """8.1: the locations where combat is still to be declared this Combat
    Phase; only a combat position has them. Checked against the units in
    `_check_combats`, once the blocks are placed."""
    if "combats" not in table:
        return None
    if phase != "combat":
        raise where.error("combats", 'give it only with phase = "combat" (8.1)')
    combats = _unique_ids(where, "combats", table["combats"], "location")
    for location in combats:
        if location not in default_components().location_ids:
            raise where.error("combats", f"unknown location {location!r}")
    return combats


def _initial_state_for(calendar: _Calendar) -> GameState:
    """`initial_state` (every block in its bag, R6 control) with the position's calendar."""
    return evolve(
        initial_state(calendar.seed),
        week=calendar.week,
        turn=calendar.turn,
        first_player=calendar.first_player,
        discs=calendar.discs,
    )


# ---------------------------------------------------------------------------
# [blocks]: where each block is (4.1, 4.4, 9.3)


def _place_blocks(state: GameState, where: _Where, table: dict[str, Any]) -> GameState:
    """Each listed block at its place; every other block stays in its bag."""
    placed: dict[str, str] = {}
    for place, value in table.items():
        _check_place(where, place)
        for block in _ids(where, place, value):
            _check_block(where, place, block, placed)
            placed[block] = place
    _check_mori_leader_last(where, placed)
    return with_positions(state, placed)


def _check_place(where: _Where, place: str) -> None:
    if place in OFF_MAP:
        return
    try:
        default_components().location(place)
    except KeyError:
        raise where.error(
            place,
            f"unknown place {place!r}: expected a location id or one of: {', '.join(sorted(OFF_MAP))}",
        ) from None


def _check_block(where: _Where, place: str, block_id: str, placed: dict[str, str]) -> None:
    """One place per block; a side's own Recruitment Box only (4.4); the Mori
    Box holds only the blocks that start in it, since none may be added (9.3)."""
    c = default_components()
    try:
        block = c.block(block_id)
    except KeyError:
        raise where.error(place, f"unknown block {block_id!r}") from None
    if block_id in placed:
        raise where.error(place, f"block {block_id!r} is already at {placed[block_id]}")
    if place in (RECRUITMENT_BOX.ishida, RECRUITMENT_BOX.tokugawa) and place != RECRUITMENT_BOX[block.side]:
        raise where.error(
            place, f"{block_id!r} is a block of the {block.side} side, not of this Recruitment Box's (4.4)"
        )
    if place == MORI_BOX and block_id not in c.setup.fixed_at(MORI_BOX):
        starters = ", ".join(c.setup.fixed_at(MORI_BOX))
        raise where.error(
            place,
            f"{block_id!r} cannot be in the Mori Box: only {starters} start there "
            "and no block may be added (5.2.1, 9.3)",
        )


def _check_mori_leader_last(where: _Where, placed: dict[str, str]) -> None:
    """9.3, R40: the Mori leader leaves the Mori Box last."""
    c = default_components()
    in_box = [b for b in c.setup.fixed_at(MORI_BOX) if placed.get(b) == MORI_BOX]
    for leader in (b for b in c.setup.fixed_at(MORI_BOX) if c.block(b).is_leader):
        if in_box and leader not in in_box:
            raise where.error(
                MORI_BOX,
                f"{in_box[0]!r} is in the Mori Box but {leader!r} is not: "
                "the Mori leader enters last (9.3, R40)",
            )


# ---------------------------------------------------------------------------
# [hands], [draw_piles], [discard_piles], [unlisted_cards]: the decks (3.3)


def _deal_cards(state: GameState, root: _Where, data: dict[str, Any]) -> GameState:
    """3.3: every card of a deck is in its hand, draw pile or discard pile."""
    listed = _read_card_lists(root, data)
    rest_to = _read_unlisted(root.at("unlisted_cards"), _table(root, data, "unlisted_cards"))
    for side in BOTH_SIDES:
        state = _deal_side(state, side, listed[side], rest_to[side])
    return state


def _read_card_lists(root: _Where, data: dict[str, Any]) -> dict[Side, dict[str, tuple[str, ...]]]:
    lists: dict[Side, dict[str, tuple[str, ...]]] = {side: {} for side in BOTH_SIDES}
    seen: dict[str, str] = {}
    for table_name, pile in CARD_TABLES.items():
        where = root.at(table_name)
        for key, value in _table(root, data, table_name).items():
            side = _side_key(where, key)
            cards = _ids(where, key, value)
            for card in cards:
                _check_card(where, key, side, card, seen)
                seen[card] = f"[{table_name}] {key}"
            lists[side][pile] = cards
    return lists


def _check_card(where: _Where, key: str, side: Side, card_id: str, seen: dict[str, str]) -> None:
    """Each card is in one place, and in its own side's deck (3.3)."""
    try:
        card = default_components().card(card_id)
    except KeyError:
        raise where.error(key, f"unknown card {card_id!r}") from None
    if card.side is not side:
        raise where.error(key, f"{card_id!r} is a card of the {card.side} deck, not the {side} deck (3.3)")
    if card_id in seen:
        raise where.error(key, f"card {card_id!r} is already in {seen[card_id]}")


def _read_unlisted(where: _Where, table: dict[str, Any]) -> dict[Side, str]:
    rest_to = {side: "draw_pile" for side in BOTH_SIDES}
    for key, value in table.items():
        side = _side_key(where, key)
        if value not in UNLISTED_DESTINATIONS:
            raise where.error(key, f"{value!r}: expected \"draw_pile\" or \"discard_pile\"")
        rest_to[side] = value
    return rest_to


def _deal_side(state: GameState, side: Side, listed: dict[str, tuple[str, ...]], rest_to: str) -> GameState:
    """Unlisted cards are shuffled with the seed and go below the listed draw
    pile (its top first) or below the listed discard pile (its top last)."""
    named = {card for cards in listed.values() for card in cards}
    unlisted = [card.id for card in default_components().cards_of(side) if card.id not in named]
    rest, state = shuffled(state, unlisted)
    draw, discard = listed.get("draw_pile", ()), listed.get("discard_pile", ())
    if rest_to == "draw_pile":
        draw = draw + rest
    else:
        discard = rest + discard
    cards = SideCards(hand=listed.get("hand", ()), draw_pile=draw, discard_pile=discard)
    return evolve(state, cards=state.cards.replace(side, cards))


# ---------------------------------------------------------------------------
# [control] and [castles] (4.2, 4.3, R6, R36, R54)


def _set_resource_control(state: GameState, where: _Where, table: dict[str, Any]) -> GameState:
    """4.2: resource location = side; one left out is uncontrolled. Without the
    table, the start control stays (R6)."""
    control: dict[str, Side] = {}
    for location, value in table.items():
        _check_location(where, location, lambda loc: loc.resource, "a resource location (4.2)")
        control[location] = _side(where, location, value)
    return evolve(state, resource_control=sorted_pairs(control))


def _check_location(where: _Where, location: str, test: Callable[[Location], bool], kind: str) -> None:
    if not test(_known_location(where, location)):
        raise where.error(location, f"{location} is not {kind}")


def _known_location(where: _Where, location: str) -> Location:
    try:
        return default_components().location(location)
    except KeyError:
        raise where.error(location, f"unknown location {location!r}") from None


def _set_castle_control(state: GameState, where: _Where, table: dict[str, Any]) -> GameState:
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


def _read_castles(where: _Where, table: dict[str, Any]) -> dict[str, Side]:
    owners: dict[str, Side] = {}
    for location, value in table.items():
        _check_location(where, location, lambda loc: loc.is_castle, "a castle location (4.3)")
        owners[location] = _side(where, location, value)
    return owners


def _siege_owner(state: GameState, where: _Where, castle_id: str, given: Side | None) -> Side:
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


def _set_sieges(state: GameState, root: _Where, data: dict[str, Any]) -> GameState:
    """8.9.4 step 5: where a siege goes on, the castle's owner is besieged
    inside. Without [besieged], every castle location holding units of both
    sides is such a siege; with it, exactly the sieges it lists."""
    if "besieged" in data:
        sieges = _read_besieged(state, root.at("besieged"), _table(root, data, "besieged"))
    else:
        sieges = _inferred_sieges(state)
    return evolve(state, besieged=sorted_pairs(sieges))


def _inferred_sieges(state: GameState) -> dict[str, Side]:
    """Both sides at a castle location: its owner (R54, R36) is inside."""
    return {castle_id: state.control_of_castle(castle_id) for castle_id in _contested_castles(state)}


def _read_besieged(state: GameState, where: _Where, table: dict[str, Any]) -> dict[str, Side]:
    sieges: dict[str, Side] = {}
    for location, value in table.items():
        _check_location(where, location, lambda loc: loc.is_castle, "a castle location (8.9)")
        sieges[location] = _side(where, location, value)
        _check_siege(state, where, location, sieges[location])
    return sieges


def _check_siege(state: GameState, where: _Where, location: str, side: Side) -> None:
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


def _set_entered_from(state: GameState, root: _Where, data: dict[str, Any], calendar: _Calendar) -> GameState:
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
    for location, value in _table(root, data, "entered_from").items():
        _known_location(where, location)
        for key, origins in _inline_table(where, location, value).items():
            entry = f"{location}.{key}"
            side = _side(where, entry, key)
            entries += [(location, side, origin) for origin in _read_origins(where, entry, location, origins)]
    return evolve(state, entered_from=tuple(sorted(entries)))


def _record_may_be_kept(calendar: _Calendar) -> bool:
    if calendar.phase == "combat":
        return True
    return calendar.phase == "movement" and calendar.active is not calendar.first_player


def _read_origins(where: _Where, entry: str, location: str, value: Any) -> tuple[str, ...]:
    """R51: blocks enter a location from an adjacent one, along a road."""
    origins = _unique_ids(where, entry, value, "location")
    neighbours = default_components().neighbours(location)
    for origin in origins:
        if origin not in neighbours:
            raise where.error(
                entry,
                f"{origin!r} is not adjacent to {location} by road (R51); "
                f"expected one of: {', '.join(neighbours)}",
            )
    return origins


# ---------------------------------------------------------------------------
# finishing


def _check_game_not_over(state: GameState, root: _Where) -> None:
    """2.1: a position with a side's leader eliminated or Hideyori captured is
    already won; there is nothing left to play."""
    result = instant_victory(state)
    if result is None:
        return
    if "hideyori" not in state.discs:
        raise root.at("game").error("discs", "without 'hideyori' the game is already over (2.1, 9.1)")
    leader = "tokugawa-leader" if result.winner is Side.ISHIDA else "ishida-leader"
    raise root.at("blocks").error(ELIMINATED, f"{leader!r} eliminated: the game is already over (2.1)")


def _check_combats(state: GameState, where: _Where, combats: tuple[str, ...] | None) -> None:
    """8.1: combat is declared only where both sides have units (R36: discs count)."""
    for location in combats or ():
        present = sides_present(state, location)
        if len(present) < 2:
            units = f"only {next(iter(present))} has" if present else "neither side has"
            raise where.error("combats", f"no combat at {location}: {units} units there (8.1)")


def _begin_phase(state: GameState, calendar: _Calendar) -> GameState:
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


def _begin_combat(state: GameState, calendar: _Calendar) -> GameState:
    """8.1: every location with both sides is pending, or only those [game]
    combats lists (the others were fought earlier in the phase)."""
    assert calendar.active is not None
    state, _ = begin_combat_phase(state, calendar.active)
    if calendar.combats is None or state.combat is None:
        return state
    state, _ = next_combat(evolve(state, combat=evolve(state.combat, pending=frozenset(calendar.combats))))
    return state
