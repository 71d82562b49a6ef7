"""A networked game: one seat, played through a host over a socket.

The RemoteSeat wraps the protocol client (sekigahara_tui.net.client): it shows
the view and the log the host sent, sends commands as notation text, and turns
the host's answers (a state that replies to our message, or a refusal) into
the same Answers a local seat gives. The client reconnects by itself; the
screen shows the connection and whether the other player is there.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from rules.surface import Event, PlayerView, Side
from sekigahara_tui.labels import side_name
from sekigahara_tui.net.client import Client
from sekigahara_tui.net.protocol import Refused
from sekigahara_tui.seat import Answer, Seat, Table

# What a refusal means to a player, by kind (docs/protocol.md).
REFUSAL_PREFIX = {
    "stale": "The game moved on before your command arrived; nothing was done",
    "not-authorised": "The host refused this seat",
    "seat-taken": "Someone is already playing this seat",
    "unknown-game": "The host does not hold this game",
}


class RemoteSeat(Seat):
    def __init__(self, side: Side) -> None:
        super().__init__(side)
        self.client: Client | None = None
        self._pending: tuple[str, str] | None = None  # (message id, what was sent)
        self._connection = "connecting"
        self._opponent: bool | None = None
        self._log_generation = 0
        self._log_seen: tuple[int, Event | None] = (0, None)  # length, last event
        self._join_hint: str | None = None
        self.opponent_came = False  # the other player has been here (a menu-started host stops if never)

    # --- what the seat knows -------------------------------------------------------

    @property
    def view(self) -> PlayerView | None:
        return self.client.view if self.client else None

    @property
    def log(self) -> list[Event]:
        return self.client.log if self.client else []

    @property
    def log_generation(self) -> int:
        return self._log_generation

    @property
    def why_no_undo(self) -> str | None:
        if self.client is None or self.client.view is None:
            return "not connected to the host"
        return self.client.why_no_undo

    @property
    def join_hint(self) -> str | None:
        return self._join_hint

    @property
    def waiting_for_answer(self) -> str | None:
        return self._pending[1] if self._pending else None

    @property
    def connection(self) -> str:
        return self._connection

    @property
    def opponent_present(self) -> bool | None:
        return self._opponent

    # --- playing ---------------------------------------------------------------------

    def submit(self, text: str) -> None:
        if self.client is None or self.client.view is None:
            self._answered(Answer(text, error="not connected to the host yet"))
            return
        self._pending = (self.client.submit(text), text)
        self._status()

    def undo(self) -> None:
        if self.client is None or self.client.view is None:
            self._answered(Answer("undo", error="not connected to the host yet"))
            return
        self._pending = (self.client.undo(), "undo")
        self._status()

    # --- what the client hears (ClientListener) -------------------------------------

    def on_state(self, client: Client) -> None:
        self._note_log(client.log)
        pending, self._pending = self._pending, None
        if pending is not None and client.reply_to == pending[0]:
            if pending[1] == "undo":
                self._answered(Answer("undo", undone="your last command"))
            else:
                self._answered(Answer(pending[1]))
        else:
            self._pending = pending
        self._changed()

    def on_refused(self, client: Client, refusal: Refused) -> None:
        prefix = REFUSAL_PREFIX.get(refusal.kind)
        reason = f"{prefix}: {refusal.reason}" if prefix else refusal.reason
        if self._pending is not None and refusal.id == self._pending[0]:
            text = self._pending[1]
            self._pending = None
            self._answered(Answer(text, error=reason if text != "undo" else f"Cannot undo: {reason}"))
            self._status()
        elif refusal.kind in REFUSAL_PREFIX and refusal.kind != "stale":
            self._connection = f"refused: {reason}"
            self._status()

    def on_presence(self, client: Client, connected: bool) -> None:
        self._opponent = connected
        self.opponent_came = self.opponent_came or connected is True
        self._status()

    def on_connection(self, client: Client, status: str) -> None:
        self._connection = status
        self._status()

    def _note_log(self, log: list[Event]) -> None:
        """A log that lost events (an undo, a fresh start after reconnecting)
        must be rewritten on the screen, not appended to."""
        length, last = self._log_seen
        if len(log) < length or (length and log[length - 1] is not last and log[length - 1] != last):
            self._log_generation += 1
        self._log_seen = (len(log), log[-1] if log else None)


class OneSeatTable(Table):
    """A table of one RemoteSeat whose client runs while the screen shows it."""

    def __init__(self, seat: RemoteSeat, client: Client) -> None:
        seat.client = client
        self.seats = {seat.side: seat}
        self._task: asyncio.Task | None = None

    @property
    def seat(self) -> RemoteSeat:
        return next(iter(self.seats.values()))  # type: ignore[return-value]

    def start(self) -> None:
        """Connect (from inside the app's event loop); the client reconnects by itself."""
        assert self.seat.client is not None
        self._task = asyncio.get_running_loop().create_task(self.seat.client.run())

    def close(self) -> None:
        client = self.seat.client
        if client is not None:
            asyncio.get_running_loop().create_task(client.close())
        if self._task is not None:
            self._task.cancel()


class RemoteTable(OneSeatTable):
    """One seat of a game kept by a host (`sekigahara host DIR`)."""

    def __init__(self, game_dir: Path, side: Side) -> None:
        self.game_dir = game_dir
        seat = RemoteSeat(side)
        # Whole: the other player may be another Unix user, whose `sekigahara join` lists only their own games.
        seat._join_hint = f"sekigahara join {game_dir} --seat {side.other.value}"
        # The address and the token are read now, so a bad DIR is refused at once.
        super().__init__(seat, Client.for_game_dir(game_dir, side, listener=seat))

    def describe(self) -> str:
        return f"{side_name(self.seat.side)} in the game at {self.game_dir}"
