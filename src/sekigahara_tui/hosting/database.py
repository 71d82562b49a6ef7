"""The club's database, whichever it is: a SQLite file (the embedded
default: DATA_DIR/club.sqlite) or a PostgreSQL server (`serve --store
postgresql://...`, issue 28). Every store module (store.py, members.py,
clock_store.py, chat_store.py, ...) talks to it through `connect` and
`Database`, and the few differences between the two dialects are handled
here, in one place:

- placeholders: the modules write `?` (SQLite's); PostgreSQL gets `%s`;
- `INSERT OR IGNORE` / `INSERT OR REPLACE` become `ON CONFLICT DO NOTHING` /
  `ON CONFLICT (primary key) DO UPDATE`;
- column types in DDL: INTEGER is BIGINT (a seed is 63 bits), REAL is DOUBLE
  PRECISION (PostgreSQL's REAL is 4 bytes: a time would lose its seconds),
  `INTEGER PRIMARY KEY AUTOINCREMENT` is BIGSERIAL;
- a write transaction (`write()`): SQLite's BEGIN IMMEDIATE takes the one
  write lock up front, so a check and the change it allows never interleave
  with another writer; PostgreSQL's twin is a transaction-scoped advisory
  lock taken first (WRITE_LOCK, postgresql.py), so every check-then-write of the modules
  keeps its meaning across connections and processes. The one exception:
  the actions' appends (`write(appends=True)`) hold it shared, so the hosts'
  appends to their own games go on side by side. An append needs no more:
  it checks its game's owner in its own statement and its row is the
  game's primary key, and a lease changes only under the whole lock.
- the schema's version: PRAGMA user_version, or the table schema_version;
- errors: both drivers' become `Error` / `IntegrityError`, one line.

Why psycopg 3 and not asyncpg: the stores are synchronous DB-API code, called
from the event loop for short reads and from threads (the group commit's
writer, the clocks' heartbeat); psycopg is DB-API, thread-safe, and its pool
(psycopg_pool) hands each store a connection of its own. asyncpg would mean
an async twin of every store module.
"""

from __future__ import annotations

import os
import sqlite3
from abc import ABC, abstractmethod
from contextlib import contextmanager
from pathlib import Path
from typing import Any, ContextManager, Iterator, Sequence, Union
from urllib.parse import urlsplit, urlunsplit

Location = Union[Path, str]  # a SQLite file, or a postgresql:// URL
STORE_FILE = "club.sqlite"  # DATA_DIR's SQLite store
LOCATION_FILE = "store.url"  # DATA_DIR's record of a PostgreSQL store (serve --store)


class Error(Exception):
    """The database refused or failed; one line."""


class IntegrityError(Error):
    """A constraint refused the change (a row taken, a key missing)."""


class CommitUnknown(Error):
    """The connection was lost as the transaction committed: the database may
    have committed it or not, and only reading it again can tell."""


def is_postgresql(location: Location) -> bool:
    return isinstance(location, str) and location.startswith(("postgresql://", "postgres://"))


def shown(location: Location) -> str:
    """The location for a message or a log: a URL without its password."""
    if not is_postgresql(location):
        from rules.infra.untrusted import printable_path

        return printable_path(Path(location))
    parts = urlsplit(str(location))
    if parts.password is None:
        return str(location)
    host = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{host}"))


def club_location(data_dir: Path) -> Location:
    """Where DATA_DIR's club keeps its tables: the PostgreSQL URL recorded in
    DATA_DIR/store.url by `serve --store`, else DATA_DIR/club.sqlite."""
    recorded = Path(data_dir) / LOCATION_FILE
    try:
        url = recorded.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return Path(data_dir) / STORE_FILE
    except OSError as error:
        raise Error(f"cannot read {shown(recorded)}: {error.strerror}") from None
    if not is_postgresql(url):
        raise Error(f"{shown(recorded)} does not hold a postgresql:// URL")
    return url


def record_location(data_dir: Path, url: str) -> None:
    """`serve --store URL`: DATA_DIR's club keeps its tables at URL from now on
    (DATA_DIR/store.url, 0600: the URL may hold a password), so the member,
    chat and ratings commands on DATA_DIR find them too. Error (one line,
    nothing written) for no postgresql:// URL, or a DATA_DIR bound to another."""
    if not is_postgresql(url):
        raise Error(f"--store takes a postgresql:// URL, not {url[:60]!r} (a club's SQLite store is DATA_DIR/club.sqlite)")
    recorded = club_location(data_dir)
    if recorded == url:
        return
    if is_postgresql(recorded):
        raise Error(f"{shown(Path(data_dir))} keeps its club at {shown(recorded)}, not {shown(url)} (see {LOCATION_FILE})")
    from sekigahara_tui.net.locations import write_private

    try:
        write_private(Path(data_dir) / LOCATION_FILE, url + "\n")
    except OSError as error:
        raise Error(f"cannot write {shown(Path(data_dir) / LOCATION_FILE)}: {error.strerror}") from None


def club_exists(data_dir: Path) -> bool:
    """Whether DATA_DIR holds a club's store (a SQLite file, or a recorded URL)."""
    return (Path(data_dir) / STORE_FILE).is_file() or (Path(data_dir) / LOCATION_FILE).is_file()


def connect(location: Location, *, read_only: bool = False, foreign_keys: bool = False, wal: bool = False,
            private: bool = False, timeout: float = 5.0) -> Database:
    """A connection to the database at `location`, in autocommit mode (a
    transaction is `write()` or `read()`). SQLite: `private` makes the file
    0600 at once (it holds every game's seed), `wal` sets WAL mode, every
    writer synchronous=FULL (a committed command survives a power cut),
    `timeout` is the busy timeout, `foreign_keys` turns SQLite's checks on
    (PostgreSQL's are always on). Error (one line) if it cannot be opened."""
    if is_postgresql(location):
        from sekigahara_tui.hosting.postgresql import PostgreSQL

        return PostgreSQL(str(location), read_only, timeout)
    return _SQLite(Path(location), read_only, foreign_keys, wal, private, timeout)


class Result:
    """A statement's rows (all fetched), its row count and (SQLite) last row id."""

    __slots__ = ("rows", "rowcount", "lastrowid")

    def __init__(self, rows: list[tuple], rowcount: int, lastrowid: int | None = None) -> None:
        self.rows, self.rowcount, self.lastrowid = rows, rowcount, lastrowid

    def fetchone(self) -> tuple | None:
        return self.rows[0] if self.rows else None

    def fetchall(self) -> list[tuple]:
        return self.rows

    def __iter__(self) -> Iterator[tuple]:
        return iter(self.rows)


class Database(ABC):
    """One connection (SQLite's below, PostgreSQL's in postgresql.py). `execute` takes SQLite's SQL (`?` placeholders)."""

    dialect = ""
    location: Location

    @abstractmethod
    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> Result:
        """Run one statement."""

    @abstractmethod
    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement for each row."""

    @abstractmethod
    def insert_id(self, sql: str, parameters: Sequence[Any]) -> int:
        """Run an INSERT into a table whose key `id` the database numbers; the new id."""

    @abstractmethod
    def chunks(self, sql: str, size: int) -> Iterator[list[tuple]]:
        """A SELECT's rows, `size` at a time, never all in memory (SQLite: its
        cursor steps; PostgreSQL: a server-side cursor, within a transaction)."""

    @abstractmethod
    def script(self, sql: str) -> None:
        """Run DDL statements (`;`-separated), each CREATE or ALTER in the dialect's types."""

    @abstractmethod
    def write(self, appends: bool = False) -> ContextManager[Database]:
        """A write transaction holding the write lock from its start: committed
        at the end of the block, rolled back if it raises. `appends`: it only
        adds rows to games of their owner, each checked in its own statement
        (store.append_many), so on PostgreSQL it may run beside other such
        writes, never beside any other write."""

    @abstractmethod
    def read(self) -> ContextManager[Database]:
        """A read transaction: one consistent view of the database."""

    @abstractmethod
    def schema_version(self) -> int:
        """The number of the last migration applied."""

    @abstractmethod
    def set_schema_version(self, version: int) -> None:
        """Within a write transaction."""

    def data_version(self) -> int | None:
        """A number that moves when another connection commits (SQLite); None: unknown, read again."""
        return None

    @abstractmethod
    def tables(self) -> dict[str, list[tuple[str, str, bool]]]:
        """Each table's columns: (name, type, not null), in order."""

    @abstractmethod
    def close(self) -> None:
        """Give the connection back (or close it)."""


def one_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


# --- SQLite ---------------------------------------------------------------------------


class _SQLite(Database):
    dialect = "sqlite"

    def __init__(self, path: Path, read_only: bool, foreign_keys: bool, wal: bool, private: bool, timeout: float) -> None:
        self.location = path
        try:
            if read_only:
                self._db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None,
                                           timeout=timeout, check_same_thread=False)
                self._db.execute("PRAGMA query_only = ON")
            else:
                self._db = sqlite3.connect(path, isolation_level=None, timeout=timeout, check_same_thread=False)
                if private:
                    os.chmod(path, 0o600)  # before its WAL files are made: they take its mode
                if wal:
                    self._db.execute("PRAGMA journal_mode = WAL")
                self._db.execute("PRAGMA synchronous = FULL")
            if foreign_keys:
                self._db.execute("PRAGMA foreign_keys = ON")  # no row of a game the store does not hold (off by default)
        except OSError as error:
            raise Error(f"cannot make {shown(path)} private: {error.strerror}") from None
        except sqlite3.Error as error:
            raise _error(error) from None

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> Result:
        try:
            cursor = self._db.execute(sql, parameters)
            return Result(cursor.fetchall(), cursor.rowcount, cursor.lastrowid)
        except sqlite3.Error as error:
            raise _error(error) from None

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        try:
            self._db.executemany(sql, rows)
        except sqlite3.Error as error:
            raise _error(error) from None

    def chunks(self, sql: str, size: int) -> Iterator[list[tuple]]:
        try:
            cursor = self._db.execute(sql)
            while rows := cursor.fetchmany(size):
                yield rows
        except sqlite3.Error as error:
            raise _error(error) from None

    def insert_id(self, sql: str, parameters: Sequence[Any]) -> int:
        found = self.execute(sql, parameters).lastrowid
        assert found is not None
        return found

    def script(self, sql: str) -> None:
        try:
            self._db.executescript(sql)
        except sqlite3.Error as error:
            raise _error(error) from None

    @contextmanager
    def write(self, appends: bool = False) -> Iterator[Database]:
        with self._transaction("BEGIN IMMEDIATE"):  # one writer at a time, whatever it writes
            yield self

    @contextmanager
    def read(self) -> Iterator[Database]:
        with self._transaction("BEGIN"):
            yield self

    @contextmanager
    def _transaction(self, begin: str) -> Iterator[None]:
        self.execute(begin)
        try:
            yield
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise
        try:
            self._db.execute("COMMIT")
        except sqlite3.Error as error:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise _error(error) from None

    def schema_version(self) -> int:
        return self.execute("PRAGMA user_version").rows[0][0]

    def set_schema_version(self, version: int) -> None:
        self.execute(f"PRAGMA user_version = {int(version)}")

    def data_version(self) -> int | None:
        return self.execute("PRAGMA data_version").rows[0][0]

    def tables(self) -> dict[str, list[tuple[str, str, bool]]]:
        names = [row[0] for row in self.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
        return {name: [(c[1], c[2].upper(), bool(c[3] or c[5])) for c in self.execute(f'PRAGMA table_info("{name}")')]
                for name in names}

    def close(self) -> None:
        self._db.close()


def _error(error: sqlite3.Error) -> Error:
    return (IntegrityError if isinstance(error, sqlite3.IntegrityError) else Error)(one_line(error))


def postgresql_ddl(statement: str) -> str:
    """A CREATE or ALTER statement in PostgreSQL's types (other statements as they are)."""
    from sekigahara_tui.hosting.postgresql import ddl

    return ddl(statement)
