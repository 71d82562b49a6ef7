"""Tournaments in the club's store (issue 26): the tournament, its
entrants in sign-up order, and each round's boards with their games.

Standings are never stored: they are worked out (tournament_pairing.py)
from the boards and the results table, which a game's end writes in its own
transaction (store.py), so a tournament's standings change in the very
transaction that stores the result, and no restart or kill -9 can leave
them behind it. A round's boards are written in one transaction before their
games are made (store.create_game, one a game); after a crash between the
two, the club makes the games still missing (tournaments.py, resume), so a
round is made once, whole.
"""

from __future__ import annotations

import time

from attrs import frozen

from typing import TYPE_CHECKING

from sekigahara_tui.hosting.database import Location, connect
from sekigahara_tui.hosting.tournament_pairing import Pairing, Played

if TYPE_CHECKING:
    from sekigahara_tui.hosting.tournament_leases import TournamentLeases

TOURNAMENT_MIGRATION: tuple[str, ...] = (
    """CREATE TABLE tournaments (
        name TEXT PRIMARY KEY,
        format TEXT NOT NULL CHECK (format IN ('round-robin', 'swiss')),
        rounds INTEGER,               -- a Swiss's rounds; NULL: a round-robin's, from its entrants
        clock TEXT NOT NULL,          -- its games' clock preset (clocks.py); a time-out loses
        created_by TEXT NOT NULL,
        created REAL NOT NULL,
        started REAL                  -- NULL: members may still sign up
    )""",
    """CREATE TABLE tournament_entrants (
        tournament TEXT NOT NULL REFERENCES tournaments(name),
        entrant TEXT NOT NULL,
        level TEXT,                   -- NULL: a member; else the computer at this level
        number INTEGER NOT NULL,      -- sign-up order, from 1: the last tie-break
        PRIMARY KEY (tournament, entrant)
    )""",
    """CREATE TABLE tournament_games (
        tournament TEXT NOT NULL REFERENCES tournaments(name),
        round INTEGER NOT NULL,
        board INTEGER NOT NULL,
        ishida TEXT NOT NULL,
        tokugawa TEXT,                -- NULL: a bye for ishida
        game TEXT UNIQUE,             -- NULL for a bye; made just after this row (again after a crash)
        PRIMARY KEY (tournament, round, board)
    )""",
)


class TournamentError(ValueError):
    """A tournament request that cannot be done; one line. Nothing changed."""


NOT_ACTING = "this host no longer acts for the tournament"


class NotActing(TournamentError):
    """Fenced (several hosts, tournament_leases.py): another host acts for it now; nothing was written."""


@frozen
class Board:
    round: int
    board: int
    ishida: str
    tokugawa: str | None
    game: str | None
    status: str  # "bye", "unmade" (its game not made yet), "playing", "over"
    kind: str | None  # the result's kind (results table), once over
    winner: str | None  # the winning side, once over (None: cancelled)

    @property
    def played(self) -> Played:
        if self.tokugawa is None:
            return Played(self.round, self.ishida, None, 1.0)
        if self.status != "over":
            return Played(self.round, self.ishida, self.tokugawa, None)
        score = 0.5 if self.winner is None else (1.0 if self.winner == "ishida" else 0.0)
        return Played(self.round, self.ishida, self.tokugawa, score)


@frozen
class Tournament:
    name: str
    format: str
    rounds: int | None
    clock: str
    created_by: str
    created: float
    started: float | None
    entrants: tuple[str, ...]  # in sign-up order
    levels: dict[str, str]  # computer entrants' levels
    boards: tuple[Board, ...]  # by round, board

    def last_round(self) -> int:
        return max((b.round for b in self.boards), default=0)

    def round_over(self, round: int) -> bool:
        return all(b.status in ("over", "bye") for b in self.boards if b.round == round)


class TournamentStore:
    """Its own connection to the club's store (like clock_store.py's)."""

    def __init__(self, location: Location) -> None:
        self._db = connect(location, foreign_keys=True)
        # Several hosts: a round and the start written only while this host's lease holds, in
        # the write's own statement (tournament_leases.py); None: one host (SQLite), unfenced.
        self.fence: TournamentLeases | None = None

    def close(self) -> None:
        self._db.close()

    def create(self, name: str, format: str, rounds: int | None, clock: str, member: str) -> None:
        with self._db.write():
            if self._db.execute("SELECT 1 FROM tournaments WHERE name = ?", (name,)).fetchone():
                raise TournamentError(f"there is a tournament called {name!r} already")
            self._db.execute(
                "INSERT INTO tournaments (name, format, rounds, clock, created_by, created) VALUES (?, ?, ?, ?, ?, ?)",
                (name, format, rounds, clock, member, time.time()),
            )

    def sign_up(self, name: str, entrant: str | None, level: str | None) -> str:
        """Add a member (`entrant`), or the computer at `level` (named
        computer#N: no member's name has a #); the entrant's name. Only before
        the start; checked and added in one transaction."""
        with self._db.write():
            row = self._db.execute("SELECT started FROM tournaments WHERE name = ?", (name,)).fetchone()
            if row is None:
                raise TournamentError(f"no tournament called {name!r}")
            if row[0] is not None:
                raise TournamentError(f"{name!r} has started: sign-up is closed")
            number = self._db.execute("SELECT count(*) FROM tournament_entrants WHERE tournament = ?", (name,)).fetchone()[0] + 1
            if level is not None:
                entrant = f"computer#{1 + self._db.execute('SELECT count(*) FROM tournament_entrants WHERE tournament = ? AND level IS NOT NULL', (name,)).fetchone()[0]}"
            elif self._db.execute("SELECT 1 FROM tournament_entrants WHERE tournament = ? AND entrant = ?", (name, entrant)).fetchone():
                raise TournamentError(f"{entrant} has signed up for {name!r} already")
            self._db.execute("INSERT INTO tournament_entrants (tournament, entrant, level, number) VALUES (?, ?, ?, ?)",
                             (name, entrant, level, number))
            assert entrant is not None
            return entrant

    def add_round(self, name: str, round: int, boards: list[Pairing], game_ids: list[str | None], start: bool = False) -> bool:
        """Write a round's boards (and with `start`, the start), in one
        transaction; False (nothing written) if that round is there already."""
        with self._db.write():
            if self._db.execute("SELECT 1 FROM tournament_games WHERE tournament = ? AND round = ?", (name, round)).fetchone():
                return False
            if start and not self._start(name):
                return False
            self._insert_boards(name, round, boards, game_ids)
            return True

    def add_rounds(self, name: str, rounds: list[list[Pairing]], game_ids: list[list[str | None]]) -> bool:
        """A round-robin's start: every round's boards and the start in one transaction."""
        with self._db.write():
            if not self._start(name):
                return False
            for round, (boards, ids) in enumerate(zip(rounds, game_ids), start=1):
                self._insert_boards(name, round, boards, ids)
            return True

    def _start(self, name: str) -> bool:
        """Within the caller's transaction: the start written; False if started already."""
        fence, held = self._fence(name)
        cursor = self._db.execute("UPDATE tournaments SET started = ? WHERE name = ? AND started IS NULL" + fence,
                                  (time.time(), name, *held))
        if cursor.rowcount != 1:
            self._refused(name)
            return False
        return True

    def _insert_boards(self, name: str, round: int, boards: list[Pairing], game_ids: list[str | None]) -> None:
        """Within the caller's transaction; each row fenced in its own statement (several hosts)."""
        fence, held = self._fence(name)
        insert = "INSERT INTO tournament_games (tournament, round, board, ishida, tokugawa, game) "
        insert += "VALUES (?, ?, ?, ?, ?, ?)" if self.fence is None else "SELECT ?, ?, ?, ?, ?, ? WHERE 1 = 1" + fence
        for number, (pairing, game) in enumerate(zip(boards, game_ids), start=1):
            if self._db.execute(insert, (name, round, number, pairing.ishida, pairing.tokugawa, game, *held)).rowcount != 1:
                self._refused(name)

    def _fence(self, name: str) -> tuple[str, tuple]:
        return ("", ()) if self.fence is None else self.fence.fence(name)

    def _refused(self, name: str) -> None:
        """A fenced write changed nothing: NotActing (the transaction rolled back) if that was the lease's doing."""
        if self.fence is not None and not self.fence.holds(self._db, name):
            raise NotActing(f"{NOT_ACTING}: nothing was written")

    # --- reading ---------------------------------------------------------------------

    def names(self) -> list[str]:
        return [row[0] for row in self._db.execute("SELECT name FROM tournaments ORDER BY created")]

    def running(self) -> list[str]:
        return [row[0] for row in self._db.execute("SELECT name FROM tournaments WHERE started IS NOT NULL ORDER BY created")]

    def game_tournaments(self) -> dict[str, str]:
        """Each tournament game's tournament."""
        return dict(self._db.execute("SELECT game, tournament FROM tournament_games WHERE game IS NOT NULL"))

    def tournament(self, name: str) -> Tournament | None:
        """The tournament as the store has it now (one read transaction)."""
        with self._db.read():
            row = self._db.execute(
                "SELECT name, format, rounds, clock, created_by, created, started FROM tournaments WHERE name = ?", (name,)
            ).fetchone()
            if row is None:
                return None
            entrants = self._db.execute(
                "SELECT entrant, level FROM tournament_entrants WHERE tournament = ? ORDER BY number", (name,)
            ).fetchall()
            boards = self._db.execute(
                "SELECT t.round, t.board, t.ishida, t.tokugawa, t.game, g.status, r.kind, r.winner"
                " FROM tournament_games t LEFT JOIN games g ON g.id = t.game LEFT JOIN results r ON r.game = t.game"
                " WHERE t.tournament = ? ORDER BY t.round, t.board", (name,)
            ).fetchall()
        return Tournament(
            *row,
            entrants=tuple(e for e, _ in entrants),
            levels={e: level for e, level in entrants if level is not None},
            boards=tuple(
                Board(r, b, i, t, g, "bye" if t is None else ("unmade" if status is None else status), kind, winner)
                for r, b, i, t, g, status, kind, winner in boards
            ),
        )
