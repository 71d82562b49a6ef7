"""A game's record from the store's rows (store.py): the commands standing
after its actions (each undo takes back the last command), what a member
downloads, and a new game's starting record. Imported through store.py."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from attrs import evolve

from rules.infra.record import GameRecord, RecordEnd, load_position_record, new_record

if TYPE_CHECKING:
    from sekigahara_tui.hosting.store_rows import Action, GameInfo


def record_of(info: GameInfo, actions: list[Action] | tuple[Action, ...]) -> GameRecord:
    """The game record the actions leave: each undo takes back the last command."""
    return GameRecord(info.seed, info.data_version, tuple(commands_standing(actions)), position=info.position)


def exported_record(info: GameInfo, actions: list[Action] | tuple[Action, ...]) -> GameRecord:
    """What a member downloads: record_of's, with the end its commands do not hold (issue 25)."""
    end = info.end if info.end is not None and info.end.kind != "rules" else None
    return evolve(record_of(info, actions), end=end and RecordEnd(end.kind, end.winner, end.seat))


def starting_record(seed: int, position: Path | None = None) -> GameRecord:
    """A new game's record: from setup with `seed`, or at a position file
    (whose seed it takes). RecordError for a bad seed or position."""
    return load_position_record(position) if position is not None else new_record(seed)


def commands_standing(actions: list[Action] | tuple[Action, ...]) -> list[str]:
    """The commands still standing after `actions`, oldest first."""
    commands: list[str] = []
    for action in actions:
        if action.kind == "command":
            assert action.text is not None
            commands.append(action.text)
        elif commands:
            commands.pop()
    return commands
