"""Several club hosts over one PostgreSQL (issue 28): which host owns a game.

Each `serve` process on a PostgreSQL club is a host with a random id, made
at its start. A game is played by one host at a time, its owner: the one
holding its lease, a row of `game_leases` (game, host, epoch, expires_at).
Why a lease and not a session advisory lock: the lease's epoch makes fencing
one statement (the store's append inserts a row only WHERE EXISTS the lease
row with this host and this epoch: store.py), and a host that was stopped
(SIGSTOP, a long pause) and comes back can tell it lost a game; a session
lock dies with its connection, but nothing in a commit could check it.

- A host takes a game (`acquire`) when a seat or spectator connects to it
  through that host, or when the game's lease expired (takeover): a lease
  nobody holds is inserted at epoch 1; an expired one is taken with epoch + 1;
  one alive and another host's is refused (the caller says where that host
  listens: `owner_address`, from `club_hosts`).
- The owner renews every lease it holds every RENEW_EVERY seconds for LEASE
  seconds (the database's clock, one for all hosts). A host whose renewals
  keep failing lets its games go itself (`lapse`) once its leases could run
  out before the next try, so before another host may take them: a timer or
  a notice, which no fence stops, is then one host's only. A renewal that finds a
  game's lease no longer its own (taken after it expired) reports the game
  lost: the host drops it (club_server.py).
- The same look finds leases left to expire by a dead host (kill -9) and
  reports them (`on_expired`): the host takes those games eagerly, so a game
  with a running clock or a computer seat goes on too. Bound: a killed
  host's games are taken within LEASE + RENEW_EVERY seconds (6.5 s).
- On eviction and at a clean stop a host deletes its leases (`release`): the
  next connection takes them at once.

These are the hosts' tables, not the club's data: made here, on PostgreSQL
only, neither migrated nor copied by `club migrate`. A SQLite club has one
host and no Ownership (the store's append keeps its fast path).
"""

from __future__ import annotations

import secrets
import threading
import time
from typing import Callable

from sekigahara_tui.hosting.database import Database, Error, Location, connect

LEASE = 5.0  # seconds a lease lasts unrenewed
RENEW_EVERY = 1.5  # seconds between renewals: three may fail before a lease runs out

TABLES = """
CREATE TABLE IF NOT EXISTS club_hosts (
    host TEXT PRIMARY KEY,
    address TEXT,                     -- where it listens for TCP connections (HOST:PORT), NULL: nowhere
    heartbeat DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS game_leases (
    game TEXT PRIMARY KEY,
    host TEXT NOT NULL,
    epoch BIGINT NOT NULL,
    expires_at DOUBLE PRECISION NOT NULL
);
CREATE TABLE IF NOT EXISTS club_secret (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    secret TEXT NOT NULL
)
"""
NOW = "extract(epoch from clock_timestamp())"  # the database's clock: one for every host
NOT_OWNER = "this host no longer owns the game"  # the fenced append's refusal begins so (store.py)
# The lease row a fenced write needs, in the write's own statement (store.py): game, host, epoch.
OWNED = "EXISTS (SELECT 1 FROM game_leases WHERE game = ? AND host = ? AND epoch = ?)"


class Ownership:
    """This host's leases on one PostgreSQL club. `epochs` (game -> epoch) are
    the games it owns; the store's writer reads it to fence its appends."""

    def __init__(self, location: Location, address: str | None = None, *, lease: float = LEASE,
                 renew_every: float = RENEW_EVERY) -> None:
        self.host = secrets.token_hex(8)
        self.address = address
        self.lease = lease
        self.renew_every = renew_every
        self.epochs: dict[str, int] = {}
        self.on_lost: Callable[[list[str]], None] = lambda games: None  # called from the renewing thread
        self.on_expired: Callable[[list[str]], None] = lambda games: None  # likewise
        self.also_renew: list[Callable[[], None]] = []  # other leases of this host, renewed on the same beat (tournament_leases.py)
        self._db = connect(location)
        self._lock = threading.Lock()  # one statement at a time on the connection (loop and renewer)
        self._db.script(TABLES)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._beat()

    # --- this host ---------------------------------------------------------------

    def start(self) -> None:
        """Renew this host's leases and heartbeat from now on, in a thread."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._renewing, name="leases", daemon=True)
            self._thread.start()

    def listening(self, address: str) -> None:
        """Where this host listens (HOST:PORT): a host that does not own a game sends its clients here."""
        self.address = address
        self._beat()

    def stop(self) -> None:
        """A clean stop: every lease given up, this host gone from club_hosts."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        try:
            with self._lock, self._db.write():
                self._db.execute("DELETE FROM game_leases WHERE host = ?", (self.host,))
                self._db.execute("DELETE FROM club_hosts WHERE host = ?", (self.host,))
        except Error:
            pass  # the database is gone: the leases expire by themselves
        self.epochs.clear()
        self._db.close()

    def _beat(self) -> None:
        with self._lock, self._db.write():
            self._db.execute(f"INSERT OR REPLACE INTO club_hosts (host, address, heartbeat) VALUES (?, ?, {NOW})",
                             (self.host, self.address))

    # --- games -------------------------------------------------------------------

    def acquire(self, game_id: str) -> bool:
        """Own the game: a lease nobody holds, one this host holds, or one
        expired (taken with the next epoch). False: another host's lease is alive."""
        with self._lock, self._db.write():
            epoch = take_lease(self._db, "game_leases", "game", game_id, self.host, self.lease)
        if epoch is None:
            return False
        self.epochs[game_id] = epoch
        return True

    def owns(self, game_id: str) -> bool:
        return game_id in self.epochs

    def holds(self, db: Database, game_id: str) -> bool:
        """Whether the game's lease is still this host's at its epoch, read on
        `db` (within the caller's write transaction: a takeover waits for it)."""
        return db.execute("SELECT 1 WHERE " + OWNED, (game_id, self.host, self.epochs.get(game_id, 0))).fetchone() is not None

    def owner_address(self, game_id: str) -> str | None:
        """Where the game's owner listens, if another host holds a live lease on it."""
        with self._lock:
            row = self._db.execute(
                f"SELECT h.address FROM game_leases l JOIN club_hosts h ON h.host = l.host"
                f" WHERE l.game = ? AND l.host != ? AND l.expires_at >= {NOW}", (game_id, self.host)).fetchone()
        return row[0] if row else None

    def release(self, game_id: str) -> None:
        """Give the game up (evicted, dropped): the next connection anywhere takes it."""
        epoch = self.epochs.pop(game_id, None)
        if epoch is None:
            return
        try:
            with self._lock, self._db.write():
                self._db.execute("DELETE FROM game_leases WHERE game = ? AND host = ? AND epoch = ?", (game_id, self.host, epoch))
        except Error:
            pass  # it expires by itself

    def renew(self) -> None:
        """One renewal: this host's leases extended and its heartbeat; the
        games it thought it owned and does not (lost) and the leases expired
        (a dead host's) reported."""
        with self._lock, self._db.write():
            held = {game: epoch for game, epoch in self._db.execute(
                f"UPDATE game_leases SET expires_at = {NOW} + ? WHERE host = ? RETURNING game, epoch", (self.lease, self.host))}
            self._db.execute(f"UPDATE club_hosts SET heartbeat = {NOW}, address = ? WHERE host = ?", (self.address, self.host))
            # a game gone from the store (withdrawn) leaves no lease to take
            self._db.execute(f"DELETE FROM game_leases WHERE expires_at < {NOW} AND game NOT IN (SELECT id FROM games)")
            expired = [row[0] for row in self._db.execute(f"SELECT game FROM game_leases WHERE expires_at < {NOW}")]
        lost = [game for game, epoch in list(self.epochs.items()) if held.get(game) != epoch]
        for game in lost:
            self.epochs.pop(game, None)
        if lost:
            self.on_lost(lost)
        if expired:
            self.on_expired(expired)

    def _renewing(self) -> None:
        renewed = time.monotonic()  # every lease lasts at least LEASE past a renewal begun then (the database's clock runs as ours)
        while not self._stop.wait(self.renew_every):
            began = time.monotonic()
            try:
                self.renew()
                renewed = began
            except Error:
                # The database away for a moment: the next renewal tries again. But if the leases may run
                # out before it, this host lets its games go itself, before another host can take them:
                # what is no write (a clock-low notice, a timer) is then done by one host only.
                if began + self.renew_every - renewed >= self.lease and self.epochs:
                    self.lapse()
            for renew in self.also_renew:
                try:
                    renew()
                except Error:
                    pass  # its writes are fenced (tournament_leases.py): nothing to let go

    def lapse(self) -> None:
        """This host's leases may have run out unrenewed: every game it held reported lost."""
        lost = list(self.epochs)
        for game in lost:
            self.epochs.pop(game, None)
        self.on_lost(lost)


def take_lease(db: Database, table: str, key: str, name: str, host: str, lease: float) -> int | None:
    """Within the caller's write transaction: `host` takes the lease row of
    `name` in `table` (games' or tournaments') if nobody holds it (epoch 1),
    it is the host's own (its epoch) or it expired (epoch + 1); its epoch.
    None: another host's lease is alive."""
    row = db.execute(f"SELECT host, epoch, expires_at < {NOW} FROM {table} WHERE {key} = ?", (name,)).fetchone()
    if row is None:
        db.execute(f"INSERT INTO {table} ({key}, host, epoch, expires_at) VALUES (?, ?, 1, {NOW} + ?)", (name, host, lease))
        return 1
    if row[0] != host and not row[2]:
        return None
    epoch = row[1] if row[0] == host else row[1] + 1
    db.execute(f"UPDATE {table} SET host = ?, epoch = ?, expires_at = {NOW} + ? WHERE {key} = ?", (host, epoch, lease, name))
    return epoch


def shared_secret(db: Database, secret_file: bytes | None) -> bytes:
    """The club's token secret, kept in the database so that every host
    derives the same seat tokens: the first host's (its DATA_DIR/club.secret,
    so tokens given out before the club moved stay good), or a new one."""
    with db.write():
        db.execute(TABLES.split(";")[-1])
        db.execute("INSERT OR IGNORE INTO club_secret (id, secret) VALUES (1, ?)",
                   ((secret_file or secrets.token_bytes(32)).hex(),))
        return bytes.fromhex(db.execute("SELECT secret FROM club_secret WHERE id = 1").fetchone()[0])
