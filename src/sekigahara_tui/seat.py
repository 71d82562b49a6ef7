"""Seats: the one way a screen sees and plays a game.

A seat is one side's place at the table. It holds what that side may know
(R55): its PlayerView, the events it has seen, whether it may undo (R58). A
screen draws from a seat and answers through it, as notation text, whether the
game runs in this process (hot seat: two LocalSeats over one GameHost,
sekigahara_tui.local) or on a host over a socket (a RemoteSeat,
sekigahara_tui.remote). Answers come back through the listener: at once from
a local seat, later from a remote one, so the screens have one code path.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from pathlib import Path
from typing import Protocol

from attrs import frozen

from rules.surface import BOTH_SIDES, CombatEnded, Event, Overrun, Pair, PieceLost, PlayerView, Side


@frozen
class Answer:
    """The outcome of a seat's own submit or undo: `error` is None when it was
    accepted, else one line saying why not (the rule, or what went wrong)."""

    text: str  # what was given: the command's notation, or "undo"
    error: str | None = None
    undone: str | None = None  # for an accepted undo: the command taken back


class SeatListener(Protocol):
    def seat_changed(self, seat: Seat) -> None:
        """The view or the log changed (any side's command, an undo, a reconnect)."""

    def seat_answered(self, seat: Seat, answer: Answer) -> None:
        """This seat's own submit or undo was accepted or refused."""

    def seat_status(self, seat: Seat) -> None:
        """The connection or the other player's presence changed."""


class Seat(ABC):
    """One side's seat. Subclasses fill in how commands reach the game."""

    side: Side
    listeners: list[SeatListener]

    def __init__(self, side: Side) -> None:
        self.side = side
        self.listeners = []

    # --- what the seat knows ------------------------------------------------------

    @property
    @abstractmethod
    def view(self) -> PlayerView | None:
        """The side's view (None while a remote seat has not heard from the host)."""
        raise NotImplementedError

    @property
    @abstractmethod
    def log(self) -> list[Event]:
        """Every event this side has seen, oldest first; an undo removes its events."""
        raise NotImplementedError

    @property
    def log_generation(self) -> int:
        """Changes whenever the log lost events (an undo, a fresh start), so a
        screen knows to rewrite its log rather than append to it."""
        return 0

    @property
    @abstractmethod
    def why_no_undo(self) -> str | None:
        """Why this side may not take back its last command now (R58), or None."""
        raise NotImplementedError

    @property
    def is_over(self) -> bool:
        view = self.view
        return view is not None and view.result is not None

    @property
    def waiting_for_answer(self) -> str | None:
        """The command on its way to the host, if any (a local seat answers at once)."""
        return None

    @property
    def connection(self) -> str | None:
        """The connection to the host in words, None for a local seat."""
        return None

    @property
    def opponent_present(self) -> bool | None:
        """Whether the other player is connected, None when it cannot be known
        (a local game, or not yet connected)."""
        return None

    @property
    def join_hint(self) -> str | None:
        """How the other player joins this game, for a networked seat."""
        return None

    def deciding(self) -> bool:
        """Whether this side has a command to give now."""
        view = self.view
        return view is not None and bool(view.legal)

    # --- playing ---------------------------------------------------------------------

    @abstractmethod
    def submit(self, text: str) -> None:
        """Give one command as notation text, for this side only."""
        raise NotImplementedError

    @abstractmethod
    def undo(self) -> None:
        """Take back this side's last command, if R58 allows."""
        raise NotImplementedError

    # --- telling the screens -----------------------------------------------------

    def _changed(self) -> None:
        for listener in list(self.listeners):
            listener.seat_changed(self)

    def _answered(self, answer: Answer) -> None:
        for listener in list(self.listeners):
            listener.seat_answered(self, answer)

    def _status(self) -> None:
        for listener in list(self.listeners):
            listener.seat_status(self)


@frozen
class GameTerms:
    """What a game's players agreed on that the screen must respect. A club
    game's terms come from the club (a rated game, issue 25); every other game
    (hot seat, against the computer, two terminals) is not rated."""

    rated: bool = False


def hints_allowed(terms: GameTerms) -> bool:
    """The one rule for hints (h, screens/hints.py): only in a game that is not rated."""
    return not terms.rated


class Table:
    """The seats one screen plays: both sides in a hot-seat game, one in a
    networked game. Saving belongs to a table that holds the whole game."""

    seats: dict[Side, Seat]
    terms = GameTerms()  # a club table gives its game's own

    @property
    def hot_seat(self) -> bool:
        return len(self.seats) > 1

    def first_seat(self) -> Seat:
        """The seat to show first: one that decides, else the first."""
        return next((seat for seat in self.seats.values() if seat.deciding()), next(iter(self.seats.values())))

    def next_seat(self, current: Seat) -> Seat:
        """Who decides after a change: `current` while it still decides, else a
        seat that does (a simultaneous decision is finished seat by seat)."""
        if current.deciding():
            return current
        return next((seat for seat in self.seats.values() if seat.deciding()), current)

    # Saving: only a table holding the whole game (its record) can save it.
    can_save = False

    def save(self, path: Path) -> None:
        raise OSError("this game is kept by its host; ask the host to export it")

    def default_save_name(self) -> str:
        return "sekigahara.json"

    @property
    def warning(self) -> str | None:
        """Something the players should know that does not stop the game (a failed autosave)."""
        return None

    def start(self) -> None:
        """Take up the game, from inside the app's event loop (a remote table connects)."""

    def close(self) -> None:
        """Let go of the game (a remote table disconnects)."""


@frozen
class GameStats:
    """Public figures for the game-over screen, counted from a seat's log."""

    battles: int
    blocks_lost: Pair[int]


def game_stats(log: list[Event]) -> GameStats:
    """Battles fought and pieces lost, from public events (R55: both sides see them)."""
    battles = 0
    lost = {side: 0 for side in BOTH_SIDES}
    for event in log:
        if isinstance(event, CombatEnded):
            battles += 1
        elif isinstance(event, PieceLost):
            lost[event.side] += 1
        elif isinstance(event, Overrun):
            lost[event.side.other] += len(event.eliminated)
    return GameStats(battles, Pair(lost[Side.ISHIDA], lost[Side.TOKUGAWA]))
