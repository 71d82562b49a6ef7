"""Hot seat: both seats in this process, over one GameHost.

The GameHost owns the engine and the record; each LocalSeat shows one side's
view and log and answers at once. This is the only part of the app (besides
the host side of networked play) that holds the whole game.
"""

from __future__ import annotations

import time
from pathlib import Path

from rules.errors import IllegalCommand
from rules.events import Event
from rules.notation import NotationError, format_command
from rules.infra.record import RecordError, load_position_record, record_to_json, seed_problem
from rules.sides import BOTH_SIDES, Side
from rules.view import PlayerView
from sekigahara_tui.hosting.host import GameHost
from sekigahara_tui.seat import Answer, Seat, Table

__all__ = ["LocalSeat", "LocalTable", "RecordError", "seed_problem"]


class LocalSeat(Seat):
    def __init__(self, table: LocalTable, side: Side) -> None:
        super().__init__(side)
        self._table = table
        self._view: tuple[int, PlayerView] | None = None  # (table change number, view)

    @property
    def view(self) -> PlayerView:
        # A view lists the legal commands, which takes a moment: one per change.
        changes = self._table.changes
        if self._view is None or self._view[0] != changes:
            self._view = (changes, self._table.host.view(self.side))
        return self._view[1]

    @property
    def log(self) -> list[Event]:
        return self._table.host.events_for(self.side)

    @property
    def log_generation(self) -> int:
        return self._table.undos

    @property
    def why_no_undo(self) -> str | None:
        return self._table.host.why_no_undo(self.side)

    def submit(self, text: str) -> None:
        try:
            self._table.host.submit_text(text, self.side)
        except (NotationError, IllegalCommand) as error:
            self._answered(Answer(text, error=str(error)))  # nothing changed
            return
        self._answered(Answer(text))
        self._table.changed()

    def undo(self) -> None:
        try:
            command = self._table.host.undo(self.side)
        except IllegalCommand as error:
            self._answered(Answer("undo", error=str(error)))
            return
        self._table.undos += 1
        self._answered(Answer("undo", undone=format_command(command, with_side=False)))
        self._table.changed()


class LocalTable(Table):
    """A hot-seat game: both seats, the record, saves and the autosave."""

    def __init__(self, host: GameHost) -> None:
        self.host = host
        self.changes = 0
        self.undos = 0
        self.seats = {side: LocalSeat(self, side) for side in BOTH_SIDES}

    @classmethod
    def new(cls, seed: int, autosave: Path | None = None) -> LocalTable:
        return cls(GameHost.new(seed, autosave=autosave))

    @classmethod
    def load(cls, path: Path, autosave: Path | None = None) -> LocalTable:
        """A saved game; a bad file raises RecordError and nothing is made."""
        return cls(GameHost.load(path, autosave=autosave))

    @classmethod
    def at_position(cls, path: Path, autosave: Path | None = None) -> LocalTable:
        """A new game at a position file; its record carries the position."""
        return cls(GameHost.from_record(load_position_record(path), autosave=autosave))

    def changed(self) -> None:
        self.changes += 1
        for seat in self.seats.values():
            seat._changed()

    def first_seat(self) -> Seat:
        return self.seats[self.host.side_to_act() or Side.ISHIDA]

    can_save = True

    def save(self, path: Path) -> None:
        self.host.save(path)

    def record_json(self) -> str:
        """The game's record as JSON (a finished game's analysis, screens/game_over.py)."""
        return record_to_json(self.host.record)

    def default_save_name(self) -> str:
        """By the time of saving, never by the seed (hot-seat privacy)."""
        return f"sekigahara-{time.strftime('%Y-%m-%d-%H%M%S')}.json"

    @property
    def warning(self) -> str | None:
        return self.host.autosave_error

    def close(self) -> None:
        """The game screen goes: the last command is in the autosave (hosting/autosaver.py)."""
        self.host.close()
