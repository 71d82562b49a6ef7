"""Several club hosts over one PostgreSQL (issue 28): which host acts for a
running tournament (pairs its next round, writes its boards, makes their
games, mends them after a crash: tournaments.py).

The same mechanism as a game's (ownership.py): a lease row, here of
`tournament_leases` (tournament, host, epoch, expires_at), taken with epoch 1
when free or epoch + 1 once expired, renewed on the host's one renewal beat
(Ownership.also_renew: every RENEW_EVERY seconds for LEASE seconds, the
database's clock). Why a lease and not the game's owner-and-version fence on
the tournament's rows: a tournament has no version to check (its rounds are
written seldom, by whoever sees a round over), and a dead host's tournament
must be taken over with nobody connected, which an expiry found by the other
hosts' renewals gives, as it does for games.

- Fencing: a round's boards and a tournament's start are written only WHERE
  EXISTS this host's lease row at its epoch (ACTING), in the write's own
  statement (tournament_store.py): a host that lost the lease writes nothing
  (NotActing, one audit line: tournaments.py).
- Takeover: a renewal that finds a lease expired reports it (`on_renewed`);
  the host takes it and looks at the tournament at once. Bound: a killed
  host's tournament is acted for again within LEASE + RENEW_EVERY (6.5 s).
- A round over on another host (its games are that host's) is seen by the
  acting host's look on each renewal beat: within RENEW_EVERY (1.5 s).
- A clean stop hands the leases over (expired now: taken at the next beat);
  a tournament over gives its lease up for good (the row deleted).

A SQLite club has one host and none of this (the store's writes unfenced).
"""

from __future__ import annotations

import threading
from typing import Callable

from sekigahara_tui.hosting.database import Database, Error, Location, connect
from sekigahara_tui.hosting.ownership import LEASE, NOW, take_lease

TABLE = """CREATE TABLE IF NOT EXISTS tournament_leases (
    tournament TEXT PRIMARY KEY,
    host TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    expires_at DOUBLE PRECISION NOT NULL
)"""
# The lease row a fenced tournament write needs, in the write's own statement: tournament, host, epoch.
ACTING = "EXISTS (SELECT 1 FROM tournament_leases WHERE tournament = ? AND host = ? AND epoch = ?)"


class TournamentLeases:
    """This host's tournament leases (`epochs`: tournament -> epoch, the ones it acts for)."""

    def __init__(self, location: Location, host: str, *, lease: float = LEASE) -> None:
        self.host = host  # the host's id (Ownership.host): one host, one id for games and tournaments
        self.lease = lease
        self.epochs: dict[str, int] = {}
        # held, lost, expired: called from the renewing thread (host_leases.py hands them to the loop)
        self.on_renewed: Callable[[list[str], list[str], list[str]], None] = lambda held, lost, expired: None
        self._db = connect(location)
        self._lock = threading.Lock()  # one statement at a time on the connection (loop and renewer)
        self._db.script(TABLE)

    def acquire(self, name: str) -> bool:
        """Act for the tournament: a lease nobody holds, this host's, or one
        expired (taken with the next epoch). False: another host's is alive."""
        with self._lock, self._db.write():
            epoch = take_lease(self._db, "tournament_leases", "tournament", name, self.host, self.lease)
        if epoch is None:
            self.epochs.pop(name, None)
            return False
        self.epochs[name] = epoch
        return True

    def fence(self, name: str) -> tuple[str, tuple]:
        """The condition (" AND " ACTING) and its parameters a fenced write adds."""
        return " AND " + ACTING, (name, self.host, self.epochs.get(name, 0))

    def holds(self, db: Database, name: str) -> bool:
        """Whether the lease is still this host's at its epoch, read on `db` (within the caller's write)."""
        return db.execute("SELECT 1 WHERE " + ACTING, (name, self.host, self.epochs.get(name, 0))).fetchone() is not None

    def lost(self, name: str) -> None:
        """A fenced write refused: this host no longer acts for it."""
        self.epochs.pop(name, None)

    def finish(self, name: str) -> None:
        """The tournament is over: its lease given up for good."""
        epoch = self.epochs.pop(name, None)
        if epoch is not None:
            with self._lock, self._db.write():
                self._db.execute("DELETE FROM tournament_leases WHERE tournament = ? AND host = ? AND epoch = ?", (name, self.host, epoch))

    def renew(self) -> None:
        """One renewal (on the host's beat): this host's leases extended; held,
        lost (taken by another after they expired) and expired ones reported."""
        with self._lock, self._db.write():
            held = dict(self._db.execute(
                f"UPDATE tournament_leases SET expires_at = {NOW} + ? WHERE host = ? RETURNING tournament, epoch", (self.lease, self.host)))
            expired = [row[0] for row in self._db.execute(f"SELECT tournament FROM tournament_leases WHERE expires_at < {NOW}")]
        lost = [name for name, epoch in list(self.epochs.items()) if held.get(name) != epoch]
        for name in lost:
            self.epochs.pop(name, None)
        self.on_renewed([name for name in held if name in self.epochs], lost, expired)

    def stop(self) -> None:
        """A clean stop: the leases handed over (expired now, taken at another host's next beat)."""
        try:
            with self._lock, self._db.write():
                self._db.execute(f"UPDATE tournament_leases SET expires_at = {NOW} - 1 WHERE host = ?", (self.host,))
        except Error:
            pass  # the database is gone: they expire by themselves
        self.epochs.clear()
        self._db.close()
