"""Game records: the seed, the data version and the commands in order.

Replaying a record rebuilds every state, since all randomness comes from the
seed (architecture.md). A record is JSON, written and read with cattrs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Iterator

import cattrs
from attrs import frozen
from cattrs.preconf.json import make_converter

from rules.components import default_components
from rules.engine import apply, start_game
from rules.errors import IllegalCommand
from rules.events import Event
from rules.notation import NotationError, format_command, parse_command
from rules.commands import Command
from rules.state import GameState

RECORD_FORMAT = "sekigahara-record"
RECORD_VERSION = 1

_converter = make_converter(forbid_extra_keys=True)


class RecordError(ValueError):
    """A record that cannot be replayed; the message says where and why."""


@frozen
class GameRecord:
    seed: int
    data_version: str
    commands: tuple[str, ...] = ()
    format: str = RECORD_FORMAT
    version: int = RECORD_VERSION

    def with_command(self, command: Command) -> GameRecord:
        return GameRecord(self.seed, self.data_version, self.commands + (format_command(command),))


def new_record(seed: int) -> GameRecord:
    return GameRecord(seed, default_components().data_version)


def record_to_json(record: GameRecord) -> str:
    return json.dumps(_converter.unstructure(record), indent=1) + "\n"


def record_from_json(text: str, source: str = "record") -> GameRecord:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"{source}: not JSON ({error})") from None
    try:
        record = _converter.structure(data, GameRecord)
    except cattrs.BaseValidationError as error:
        raise RecordError(f"{source}: not a game record: {'; '.join(cattrs.transform_error(error))}") from None
    if record.format != RECORD_FORMAT or record.version != RECORD_VERSION:
        raise RecordError(
            f"{source}: format {record.format!r} version {record.version} is not "
            f"{RECORD_FORMAT!r} version {RECORD_VERSION}"
        )
    return record


def save_record(record: GameRecord, path: Path) -> None:
    path.write_text(record_to_json(record), encoding="utf-8")


def load_record(path: Path) -> GameRecord:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise RecordError(f"{path}: cannot read ({error.strerror})") from None
    return record_from_json(text, str(path))


def replay_steps(record: GameRecord) -> Iterator[tuple[Command | None, GameState, tuple[Event, ...]]]:
    """Yield (None, state after setup, setup events), then (command, state, events)
    for each command in turn. A bad record raises RecordError naming the command."""
    expected = default_components().data_version
    if record.data_version != expected:
        raise RecordError(
            f"record was made with component data {record.data_version}, "
            f"but this game's data is {expected}"
        )
    state, events = start_game(record.seed)
    yield None, state, tuple(events)
    for number, line in enumerate(record.commands, start=1):
        try:
            command = parse_command(line)
            state, events = apply(state, command)
        except (NotationError, IllegalCommand) as error:
            raise RecordError(f"command {number} ({line!r}) is illegal: {error}") from None
        yield command, state, events


def replay_states(record: GameRecord) -> Iterator[GameState]:
    """Yield the state after setup, then after each command in turn."""
    for _, state, _ in replay_steps(record):
        yield state


def replay(record: GameRecord) -> GameState:
    """The final state of a record."""
    *_, final = replay_states(record)
    return final
