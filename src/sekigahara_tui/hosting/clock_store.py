"""The game clocks in the store (issue 24): each game's preset and what
happens on time-out, its clocks as of its last action (written in that
action's transaction: store.py's append_many), the server's heartbeat and
down times, and the members' vacations.

A clock row is the game's clocks charged to its last action's time, before
that action's hand-over (clocks.py `Clocks.at`); who decides after it comes
from the replayed game (game_clocks.py), so a restart, even after kill -9,
recomputes the same figures. The heartbeat is written every second: at the
next start, the time from the last beat to now was the server's down time,
charged to nobody, in every game.
"""

from __future__ import annotations

import calendar
import time
from typing import TYPE_CHECKING

from attrs import frozen

from rules.surface import Side
from sekigahara_tui.bots.base import LEVELS
from sekigahara_tui.hosting.clocks import Clocks, Interval, preset_named
from sekigahara_tui.hosting.database import Database, Location, connect

if TYPE_CHECKING:
    from sekigahara_tui.hosting.ownership import Ownership

CLOCK_MIGRATION: tuple[str, ...] = (
    "ALTER TABLE games ADD COLUMN clock TEXT",  # a preset's name (clocks.py); NULL or 'none': no clock
    "ALTER TABLE games ADD COLUMN on_time_out TEXT",  # 'lose' or 'stand-in:LEVEL'
    """CREATE TABLE game_clocks (
        game TEXT PRIMARY KEY REFERENCES games(id),
        ishida_left REAL NOT NULL,
        tokugawa_left REAL NOT NULL,
        running TEXT NOT NULL,        -- the sides deciding before the hand-over: 'ishida,tokugawa', or ''
        since REAL NOT NULL,
        stood_in TEXT CHECK (stood_in IN ('ishida', 'tokugawa'))  -- the computer finishes that seat
    )""",
    "CREATE TABLE server_beats (id INTEGER PRIMARY KEY CHECK (id = 1), at REAL NOT NULL)",
    'CREATE TABLE down_times (start REAL NOT NULL, "end" REAL NOT NULL)',  # "end": a word PostgreSQL reserves
    """CREATE TABLE vacations (
        member TEXT NOT NULL,
        start REAL NOT NULL,
        "end" REAL NOT NULL,
        PRIMARY KEY (member, start)
    )""",
    "CREATE TABLE club_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL)",  # serve's vacation cap
)
DEFAULT_VACATION_DAYS = 14
DAY = 86400.0

ON_TIME_OUT = ("lose", "stand-in:")


def check_on_time_out(value: str) -> str:
    """'lose' or 'stand-in:LEVEL'; ValueError in one line otherwise."""
    if value == "lose" or (value.startswith("stand-in:") and value[len("stand-in:"):] in STAND_IN_LEVELS):
        return value
    raise ValueError(f"on_time_out must be 'lose' or one of {', '.join('stand-in:' + level for level in STAND_IN_LEVELS)}, not {value[:40]!r}")


STAND_IN_LEVELS = tuple(LEVELS)  # the club's computer's levels (bots/workers.py decides at any of them)


def start_clock(db: Database, game_id: str, now: float) -> None:
    """Within the caller's transaction: if the game has a clock and both
    seats are filled, its clocks start now (nobody deciding yet)."""
    row = db.execute(
        "SELECT clock FROM games WHERE id = ? AND ishida_player IS NOT NULL AND tokugawa_player IS NOT NULL", (game_id,)
    ).fetchone()
    preset = preset_named(row[0]) if row is not None and row[0] is not None else None
    if preset is not None:
        write_clock(db, game_id, Clocks.start(preset, now), "INSERT OR IGNORE")


def write_clock(db: Database, game_id: str, clocks: Clocks, verb: str = "INSERT OR REPLACE") -> None:
    running = ",".join(side.value for side in (Side.ISHIDA, Side.TOKUGAWA) if side in clocks.running)
    stood_in = db.execute("SELECT stood_in FROM game_clocks WHERE game = ?", (game_id,)).fetchone()
    db.execute(
        f"{verb} INTO game_clocks (game, ishida_left, tokugawa_left, running, since, stood_in) VALUES (?, ?, ?, ?, ?, ?)",
        (game_id, clocks.left_s[0], clocks.left_s[1], running, clocks.since, stood_in[0] if stood_in else None),
    )


@frozen
class ClockedGame:
    """A game in play with a clock, as the store keeps it."""

    id: str
    players: tuple[str | None, str | None]
    on_time_out: str
    clocks: Clocks  # as of its last action, before that action's hand-over
    stood_in: Side | None


class ClockStore:
    """Its own connection to the game store (SQLite: many connections, one file)."""

    def __init__(self, location: Location) -> None:
        self._location = location
        self._db = connect(location)
        self.fence: Ownership | None = None  # several hosts: a game's clock written by its owner only (ownership.py)

    def close(self) -> None:
        self._db.close()

    def _write(self, sql: str, parameters: tuple = ()) -> None:
        with self._db.write():
            self._db.execute(sql, parameters)

    # --- the heartbeat and the server's down times -------------------------------------

    def beat(self, now: float) -> None:
        """From the heartbeat's thread, on a connection of its own: the club's
        loop closing the shared connection under a beat in flight crashed the
        process (a segmentation fault in sqlite3, seen in CI)."""
        db = connect(self._location)  # PostgreSQL: a pooled connection
        try:
            with db.write():
                db.execute("INSERT OR REPLACE INTO server_beats (id, at) VALUES (1, ?)", (now,))
        finally:
            db.close()

    def note_start(self, now: float) -> Interval | None:
        """The server starts: (last beat, now) was down time, kept for good. One transaction."""
        with self._db.write():
            row = self._db.execute("SELECT at FROM server_beats WHERE id = 1").fetchone()
            self._db.execute("INSERT OR REPLACE INTO server_beats (id, at) VALUES (1, ?)", (now,))
            if row is None or row[0] >= now:
                return None
            self._db.execute('INSERT INTO down_times (start, "end") VALUES (?, ?)', (row[0], now))
            return (row[0], now)

    def down_times(self) -> list[Interval]:
        return [(a, b) for a, b in self._db.execute('SELECT start, "end" FROM down_times ORDER BY start')]

    # --- vacations -------------------------------------------------------------------

    def vacations(self, member: str) -> list[Interval]:
        return [(a, b) for a, b in self._db.execute('SELECT start, "end" FROM vacations WHERE member = ? ORDER BY start', (member,))]

    def all_vacations(self) -> dict[str, list[Interval]]:
        found: dict[str, list[Interval]] = {}
        for member, a, b in self._db.execute('SELECT member, start, "end" FROM vacations ORDER BY start'):
            found.setdefault(member, []).append((a, b))
        return found

    def set_vacation_cap(self, days: int) -> None:
        self._write("INSERT OR REPLACE INTO club_settings (key, value) VALUES ('vacation_days_per_year', ?)", (str(days),))

    def vacation_cap(self) -> int:
        row = self._db.execute("SELECT value FROM club_settings WHERE key = 'vacation_days_per_year'").fetchone()
        return int(row[0]) if row else DEFAULT_VACATION_DAYS

    def vacation_of(self, member: str, now: float) -> tuple[float | None, int, int]:
        """Until when `member` is away (None: not now nor later), the days begun
        this calendar year (UTC), and the year's cap."""
        taken = self._taken(member, now)
        until = taken[1] if taken[1] is not None and taken[1] > now else None
        return until, taken[0], self.vacation_cap()

    def _taken(self, member: str, now: float) -> tuple[int, float | None]:
        year_start = calendar.timegm((time.gmtime(now).tm_year, 1, 1, 0, 0, 0))
        seconds, last_end = self._db.execute(
            'SELECT coalesce(sum("end" - start), 0), max("end") FROM vacations WHERE member = ? AND start >= ?', (member, year_start)
        ).fetchone()
        return round(seconds / DAY), last_end

    def take_vacation(self, member: str, days: int, now: float) -> Interval:
        """`days` away from now (or from the end of the vacation under way),
        within the year's cap (days begun this calendar year, UTC). ValueError
        in one line, nothing stored, if not. Check and insert in one transaction."""
        if not 1 <= days <= 366:
            raise ValueError(f"--days must be between 1 and 366, not {days}")
        with self._db.write():
            cap = self.vacation_cap()
            used, last_end = self._taken(member, now)
            if used + days > cap:
                raise ValueError(f"{member} has {max(0, cap - used)} of {cap} vacation days left this year, not {days}")
            start = max(now, last_end or now)
            self._db.execute('INSERT INTO vacations (member, start, "end") VALUES (?, ?, ?)', (member, start, start + days * DAY))
            return (start, start + days * DAY)

    # --- games -----------------------------------------------------------------------

    def clocked_games(self) -> list[ClockedGame]:
        """Every game in play whose clock has started."""
        rows = self._db.execute(
            "SELECT g.id, g.ishida_player, g.tokugawa_player, g.clock, g.on_time_out,"
            " c.ishida_left, c.tokugawa_left, c.running, c.since, c.stood_in"
            " FROM games g JOIN game_clocks c ON c.game = g.id WHERE g.status = 'playing'"
        ).fetchall()
        games = []
        for id, ishida, tokugawa, name, on_time_out, left_i, left_t, running, since, stood_in in rows:
            preset = preset_named(name)
            if preset is None:
                continue
            sides = frozenset(Side(value) for value in running.split(",") if value)
            clocks = Clocks(preset, (left_i, left_t), sides, since)
            games.append(ClockedGame(id, (ishida, tokugawa), on_time_out or "lose", clocks, Side(stood_in) if stood_in else None))
        return games

    def clocked_game(self, game_id: str) -> ClockedGame | None:
        return next((game for game in self.clocked_games() if game.id == game_id), None)

    def stand_in(self, game_id: str, side: Side, level: str) -> bool:
        """The computer finishes `side`'s seat from now on, at `level` (stored
        before it plays). A game against the computer keeps its computer's level
        for both seats: the store holds one level a game. False (nothing
        written): several hosts, and this one no longer owns the game."""
        with self._db.write():  # the lease checked under the write lock a takeover takes too
            if self.fence is not None and not self.fence.holds(self._db, game_id):
                return False
            self._db.execute("UPDATE game_clocks SET stood_in = ? WHERE game = ?", (side.value, game_id))
            self._db.execute("INSERT OR IGNORE INTO computer_levels (game, level) VALUES (?, ?)", (game_id, level))
        return True
