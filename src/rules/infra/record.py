"""Game records: the seed, the data version and the commands in order.

Replaying a record rebuilds every state, since all randomness comes from the
seed (architecture.md). A game started from a position file (docs/positions.md)
also carries the position's text, and replays from it instead of from setup;
a game against the computer names the computer's side and level. A club
game ended outside the rules (resigned, timed out, cancelled, or finished by
the computer standing in for a seat) says so in `end` (issue 25): its
commands alone would leave it in progress. Records without it still load.

A record is JSON, read strictly since a save may come from anywhere: exact
types, no duplicate or unknown keys, and caps on the file's size, the number
of commands and each command's length. Anything else is a RecordError whose
one-line message quotes the input only in short, escaped excerpts.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any, Iterator

from attrs import frozen

from rules.commands import Command
from rules.components import default_components
from rules.engine import apply, start_game
from rules.errors import IllegalCommand, InvalidPosition
from rules.events import Event
from rules.immutable import evolve
from rules.notation import NotationError, format_command, parse_command
from rules.infra.position import load_position
from rules.sides import Side
from rules.state import GameState
from rules.victory import CANCELLED, OUTSIDE_THE_RULES, end_outside_rules
from rules.infra.untrusted import UntrustedInputError, decode_utf8, excerpt, printable, printable_path, read_bytes, read_text, strict_json

RECORD_FORMAT = "sekigahara-record"
RECORD_VERSION = 1

# Caps, each far above any real game. The longest of 300 random games has 740
# commands, the longest command 99 characters, the largest record 21 KB
# (`python3 benchmarks/protocol.py --games 300`, 2026-11-25); a game between
# people, with its selections and take-backs, a few thousand commands at most. MAX_COMMANDS matches the self-play limit (selfplay.py) and
# fits in MAX_RECORD_BYTES at typical command lengths, so the caps refuse only
# files no game writes, and a padded record (millions of select/deselect pairs,
# minutes and gigabytes to replay) is refused before a byte is parsed.
MAX_RECORD_BYTES = 2 * 1024 * 1024
MAX_COMMANDS = 20_000
MAX_COMMAND_LENGTH = 500
# A record is an object holding a list of strings: two levels. Ten leaves room
# for a clear "not a game record" message rather than a nesting one.
MAX_RECORD_DEPTH = 10
# Seeds fit in 64 bits; a seed of thousands of digits is refused.
SEED_LIMIT = 2**63

# Each key of the JSON object, its type, and whether it may be left out.
_FIELDS: dict[str, tuple[type, bool]] = {
    "seed": (int, True),
    "data_version": (str, True),
    "commands": (list, False),
    "format": (str, False),
    "version": (int, False),
    "position": (str, False),
    "computer": (str, False),
    "end": (dict, False),
}
_TYPE_NAMES = {int: "a whole number", str: "a string", list: "a list of strings", dict: "an object"}

# The ways a club game ends that its commands do not say (hosting/store.py's
# END_KINDS but "rules"): the engine's causes outside the rules, and a game the
# computer finished for a seat out of time (its commands end it by the rules).
FINISHED_BY_STAND_IN = "finished-by-stand-in"
END_CAUSES = tuple(sorted(OUTSIDE_THE_RULES)) + (FINISHED_BY_STAND_IN,)


class RecordError(ValueError):
    """A record that cannot be replayed; the message says where and why."""


@frozen
class RecordEnd:
    """How a game ended beyond what its commands say: `cause` one of
    END_CAUSES, `winner` None only when cancelled, `seat` the side it concerns
    (who resigned, ran out of time, was stood in for; None: both, cancelled)."""

    cause: str
    winner: Side | None
    seat: Side | None = None


@frozen
class GameRecord:
    seed: int
    data_version: str
    commands: tuple[str, ...] = ()
    format: str = RECORD_FORMAT
    version: int = RECORD_VERSION
    position: str | None = None  # a position file's TOML text, for a game begun from it
    # "side:level" for a game against the computer (e.g. "tokugawa:heuristic"):
    # reopening the save brings the computer back to that side.
    computer: str | None = None
    end: RecordEnd | None = None  # a club game's end outside its commands

    def with_command(self, command: Command) -> GameRecord:
        return evolve(self, commands=self.commands + (format_command(command),))

    def without_last_command(self) -> GameRecord:
        return evolve(self, commands=self.commands[:-1])


def seed_problem(seed: object) -> str | None:
    """Why `seed` cannot seed a game, or None if it can."""
    if type(seed) is not int:
        return f"must be a whole number, not {_kind(seed)}"
    if not -SEED_LIMIT < seed < SEED_LIMIT:
        return f"must be between -2**63 and 2**63, not a number of {seed.bit_length()} bits"
    return None


COMPUTER_FORM = re.compile(r"(ishida|tokugawa):[a-z0-9_-]{1,20}")


def computer_problem(computer: str) -> str | None:
    """Why `computer` cannot name the computer's side and level, or None if it can."""
    if COMPUTER_FORM.fullmatch(computer) is None:
        return f"must be a side and a level such as 'tokugawa:heuristic', not {excerpt(computer)}"
    return None


def new_record(seed: int, position: str | None = None) -> GameRecord:
    """A record with no commands yet, from setup or from a position's text."""
    problem = seed_problem(seed)
    if problem is not None:
        raise RecordError(f"the seed {problem}")
    return GameRecord(seed, default_components().data_version, position=position)


def position_record(text: str, source: str = "position") -> GameRecord:
    """A new game's record starting at the position `text` (a position file's TOML)."""
    return new_record(_load_position(text, source).seed, position=text)


def load_position_record(path: Path) -> GameRecord:
    """A new game's record starting at the position file `path`; the file must
    fit in a record, so it has the record's size cap."""
    try:
        text = read_text(path, MAX_RECORD_BYTES)
    except UntrustedInputError as error:
        raise RecordError(f"{printable_path(path)}: {error}") from None
    return position_record(text, str(path))


# --- writing -------------------------------------------------------------------


def record_to_json(record: GameRecord) -> str:
    data: dict[str, Any] = {
        "seed": record.seed,
        "data_version": record.data_version,
        "commands": list(record.commands),
        "format": record.format,
        "version": record.version,
    }
    if record.position is not None:
        data["position"] = record.position
    if record.computer is not None:
        data["computer"] = record.computer
    if record.end is not None:
        data["end"] = {"cause": record.end.cause, "winner": _side_value(record.end.winner),
                       "seat": _side_value(record.end.seat)}
    return json.dumps(data, indent=1) + "\n"


def save_record(record: GameRecord, path: Path) -> None:
    """Write the record readable by its owner only (0600), atomically: a temporary
    file in the same directory, flushed to disk, then renamed over `path`, so a
    crash leaves the old save or the new one, never half of one."""
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(record_to_json(record))
            file.flush()
            os.fsync(file.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


# --- reading -------------------------------------------------------------------


def load_record(path: Path) -> GameRecord:
    """Read a record file; a missing, huge, non-UTF-8 or malformed one raises RecordError."""
    source = str(path)
    try:
        data = read_bytes(path, MAX_RECORD_BYTES)
    except UntrustedInputError as error:
        raise RecordError(f"{printable_path(source)}: {error}") from None
    return record_from_json(data, source)


def record_from_json(text: str | bytes, source: str = "record") -> GameRecord:
    """Parse a record; anything but a well-formed record raises RecordError."""
    where = printable_path(source)
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(f"{where}: larger than {MAX_RECORD_BYTES:,} bytes")
    try:
        data = strict_json(decode_utf8(text) if isinstance(text, bytes) else text, MAX_RECORD_DEPTH)
    except UntrustedInputError as error:
        raise RecordError(f"{where}: {error}") from None
    return _structure(data, where)


def _structure(data: Any, where: str) -> GameRecord:
    if not isinstance(data, dict):
        raise RecordError(f"{where}: not a game record: the top level must be an object, not {_kind(data)}")
    for key in data:
        if key not in _FIELDS:
            raise RecordError(f"{where}: not a game record: unknown key {excerpt(key)}")
    for key, (kind, required) in _FIELDS.items():
        if key not in data:
            if required:
                raise RecordError(f"{where}: not a game record: {key!r} is missing")
        elif type(data[key]) is not kind:
            raise RecordError(f"{where}: not a game record: {key!r} must be {_TYPE_NAMES[kind]}, not {_kind(data[key])}")
    problem = seed_problem(data["seed"])
    if problem is not None:
        raise RecordError(f"{where}: not a game record: 'seed' {problem}")
    record = GameRecord(
        seed=data["seed"],
        data_version=data["data_version"],
        commands=_commands(data.get("commands", []), where),
        format=data.get("format", RECORD_FORMAT),
        version=data.get("version", RECORD_VERSION),
        position=data.get("position"),
        computer=data.get("computer"),
        end=_end(data["end"], where) if "end" in data else None,
    )
    if record.computer is not None and (problem := computer_problem(record.computer)) is not None:
        raise RecordError(f"{where}: not a game record: 'computer' {problem}")
    if record.format != RECORD_FORMAT or record.version != RECORD_VERSION:
        raise RecordError(
            f"{where}: format {excerpt(record.format)} version {record.version} is not "
            f"{RECORD_FORMAT!r} version {RECORD_VERSION}"
        )
    return record


def _side_value(side: Side | None) -> str | None:
    return side.value if side is not None else None


def _end(data: dict[str, Any], where: str) -> RecordEnd:
    """The record's `end`: exactly cause, winner and seat, each checked."""
    bad = f"{where}: not a game record: 'end'"
    if set(data) != {"cause", "winner", "seat"}:
        raise RecordError(f"{bad} must hold exactly 'cause', 'winner' and 'seat'")
    cause = data["cause"]
    if type(cause) is not str or cause not in END_CAUSES:
        raise RecordError(f"{bad}: the cause must be one of {', '.join(END_CAUSES)}, not {_kind(cause)}")
    winner, seat = (_end_side(data[key], f"{bad}: the {key}") for key in ("winner", "seat"))
    if (winner is None) != (cause == CANCELLED):
        raise RecordError(f"{bad}: only a cancelled game has no winner")
    # the computer may win for the seat it stood in for; one who resigned or ran out of time lost
    if (seat is None) != (cause == CANCELLED) or (cause in OUTSIDE_THE_RULES and seat is not None and seat is winner):
        raise RecordError(f"{bad}: the seat must be the side that lost or was stood in for")
    return RecordEnd(cause, winner, seat)


def _end_side(value: Any, what: str) -> Side | None:
    if value is None:
        return None
    if type(value) is not str or value not in {side.value for side in Side}:
        raise RecordError(f"{what} must be ishida, tokugawa or null, not {_kind(value)}")
    return Side(value)


def _commands(commands: list[Any], where: str) -> tuple[str, ...]:
    if len(commands) > MAX_COMMANDS:
        raise RecordError(f"{where}: {len(commands):,} commands, more than any game (at most {MAX_COMMANDS:,})")
    for number, line in enumerate(commands, start=1):
        if type(line) is not str:
            raise RecordError(f"{where}: command {number} must be a string, not {_kind(line)}")
        if len(line) > MAX_COMMAND_LENGTH:
            raise RecordError(f"{where}: command {number} is {len(line):,} characters long (at most {MAX_COMMAND_LENGTH})")
        if not line.isprintable():
            raise RecordError(f"{where}: command {number} ({excerpt(line)}) holds a control or unprintable character")
    return tuple(commands)


def _kind(value: Any) -> str:
    """A JSON value described without quoting it at length."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"the number {value}" if value.bit_length() <= 64 else "a huge number"
    if isinstance(value, float):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the string {excerpt(value)}"
    if value is None:
        return "null"
    if isinstance(value, list):
        return "a list"
    return "an object"


# --- replaying -----------------------------------------------------------------


def _load_position(text: str, source: str) -> GameState:
    try:
        return load_position(text, source)
    except InvalidPosition as error:
        raise RecordError(printable(str(error), 200)) from None
    except RecursionError:  # the position loader is meant to refuse this itself
        raise RecordError(f"{source}: the position is nested too deeply") from None


def _start(record: GameRecord) -> tuple[GameState, tuple[Event, ...]]:
    """The state the record's commands start from: setup, or its position."""
    if record.position is None:
        state, events = start_game(record.seed)
        return state, tuple(events)
    state = _load_position(record.position, "the record's position")
    if state.seed != record.seed:
        raise RecordError(f"the record's seed {record.seed} is not its position's seed {state.seed}")
    return state, ()


def replay_steps(record: GameRecord) -> Iterator[tuple[Command | None, GameState, tuple[Event, ...]]]:
    """Yield (None, starting state, setup events), then (command, state, events)
    for each command in turn. A bad record raises RecordError naming the command."""
    expected = default_components().data_version
    if record.data_version != expected:
        raise RecordError(
            f"record was made with component data {printable(record.data_version, 40)}, "
            f"but this game's data is {expected}"
        )
    state, events = _start(record)
    yield None, state, events
    for number, line in enumerate(record.commands, start=1):
        try:
            command = parse_command(line)
            state, events = apply(state, command)
        except (NotationError, IllegalCommand) as error:
            raise RecordError(f"command {number} ({excerpt(line)}) is illegal: {printable(str(error), 150)}") from None
        yield command, state, events


def ended_state(record: GameRecord, final: GameState) -> GameState:
    """The record's last state with its `end` applied: a game ended outside
    the rules stopped where it stands (rules.victory.end_outside_rules); one
    the computer finished must end by the rules, as its end says. An end its
    commands contradict is a RecordError."""
    end = record.end
    if end is None:
        return final
    if end.cause == FINISHED_BY_STAND_IN:
        if not final.is_over or final.result.winner is not end.winner:
            raise RecordError("the record's end says the computer finished the game, but its commands do not end it so")
        return final
    if final.is_over:
        raise RecordError(f"the record's end says {end.cause}, but its commands end the game by the rules")
    return end_outside_rules(final, end.winner, end.cause)


def replay_states(record: GameRecord) -> Iterator[GameState]:
    """Yield the state after setup, then after each command in turn."""
    for _, state, _ in replay_steps(record):
        yield state


def replay(record: GameRecord) -> GameState:
    """The final state of a record, its end (if any) applied."""
    *_, final = replay_states(record)
    return ended_state(record, final)
