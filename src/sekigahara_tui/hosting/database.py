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
  lock taken first (WRITE_LOCK), so every check-then-write of the modules
  keeps its meaning across connections and processes. (Several hosts will
  narrow it to a game; the append's version check is one statement anyway.)
- the schema's version: PRAGMA user_version, or the table schema_version;
- errors: both drivers' become `Error` / `IntegrityError`, one line.

Why psycopg 3 and not asyncpg: the stores are synchronous DB-API code, called
from the event loop for short reads and from threads (the group commit's
writer, the clocks' heartbeat); psycopg is DB-API, thread-safe, and its pool
(psycopg_pool) hands each store a connection of its own. asyncpg would mean
an async twin of every store module.
"""

from __future__ import annotations

import math
import os
import re
import sqlite3
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Sequence, Union
from urllib.parse import urlsplit, urlunsplit

Location = Union[Path, str]  # a SQLite file, or a postgresql:// URL
STORE_FILE = "club.sqlite"  # DATA_DIR's SQLite store
LOCATION_FILE = "store.url"  # DATA_DIR's record of a PostgreSQL store (serve --store)
WRITE_LOCK = 0x5EC1_6A4A  # the advisory lock a PostgreSQL write transaction takes first
POOL_SIZE = 32  # connections a process may hold to one server (a club holds about 8)


class Error(Exception):
    """The database refused or failed; one line."""


class IntegrityError(Error):
    """A constraint refused the change (a row taken, a key missing)."""


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
        return _PostgreSQL(str(location), read_only, timeout)
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


class Database:
    """One connection. `execute` takes SQLite's SQL (`?` placeholders)."""

    dialect = ""
    location: Location

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> Result:
        raise NotImplementedError

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        raise NotImplementedError

    def insert_id(self, sql: str, parameters: Sequence[Any]) -> int:
        """Run an INSERT into a table whose key `id` the database numbers; the new id."""
        raise NotImplementedError

    def chunks(self, sql: str, size: int) -> Iterator[list[tuple]]:
        """A SELECT's rows, `size` at a time, never all in memory (SQLite: its
        cursor steps; PostgreSQL: a server-side cursor, within a transaction)."""
        raise NotImplementedError

    def script(self, sql: str) -> None:
        """Run DDL statements (`;`-separated), each CREATE or ALTER in the dialect's types."""
        raise NotImplementedError

    @contextmanager
    def write(self) -> Iterator[Database]:
        """A write transaction holding the write lock from its start: committed
        at the end of the block, rolled back if it raises."""
        raise NotImplementedError
        yield self

    @contextmanager
    def read(self) -> Iterator[Database]:
        """A read transaction: one consistent view of the database."""
        raise NotImplementedError
        yield self

    def schema_version(self) -> int:
        raise NotImplementedError

    def set_schema_version(self, version: int) -> None:
        """Within a write transaction."""
        raise NotImplementedError

    def data_version(self) -> int | None:
        """A number that moves when another connection commits (SQLite); None: unknown, read again."""
        return None

    def tables(self) -> dict[str, list[tuple[str, str, bool]]]:
        """Each table's columns: (name, type, not null), in order."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError


def _one_line(error: BaseException) -> str:
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
    def write(self) -> Iterator[Database]:
        with self._transaction("BEGIN IMMEDIATE"):
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
    return (IntegrityError if isinstance(error, sqlite3.IntegrityError) else Error)(_one_line(error))


# --- PostgreSQL -----------------------------------------------------------------------

_pools: dict[str, tuple[Any, int]] = {}  # URL -> (its pool, connections out): one pool a server, per process
_pools_lock = threading.Lock()
_sql_cache: dict[str, str] = {}
_primary_keys: dict[str, tuple[str, ...]] = {}
_TYPES = ((re.compile(r"\bINTEGER PRIMARY KEY AUTOINCREMENT\b", re.I), "BIGSERIAL PRIMARY KEY"),
          (re.compile(r"\bINTEGER\b", re.I), "BIGINT"), (re.compile(r"\bREAL\b", re.I), "DOUBLE PRECISION"))
_INSERT = re.compile(r"^\s*INSERT OR (IGNORE|REPLACE) INTO (\w+) \(([^)]*)\)", re.I)
_RETRIED = re.compile(r"\s*(BEGIN|SELECT|SET|RESET|ROLLBACK)\b", re.I)  # statements that commit nothing on their own


def postgresql_ddl(statement: str) -> str:
    """A CREATE or ALTER statement in PostgreSQL's types (other statements as they are)."""
    if not re.match(r"\s*(CREATE|ALTER)\b", statement, re.I):
        return statement
    for pattern, replacement in _TYPES:
        statement = pattern.sub(replacement, statement)
    return statement


def _take(url: str, timeout: float):
    import psycopg
    from psycopg_pool import ConnectionPool

    with _pools_lock:
        pool, out = _pools.get(url, (None, 0))
        if pool is None:
            try:  # a plain connection first: its failure says why (the pool's only says it timed out)
                psycopg.connect(url, connect_timeout=max(1, int(timeout))).close()
            except psycopg.Error as error:
                raise Error(_one_line(error)) from None
            # check: a connection taken from the pool is tried first (the server may have restarted since)
            pool = ConnectionPool(url, min_size=1, max_size=POOL_SIZE, open=True, reset=_reset, name="sekigahara",
                                  check=ConnectionPool.check_connection, reconnect_timeout=math.inf,
                                  kwargs={"autocommit": True, "options": f"-c lock_timeout={int(timeout * 1000)}"})
        _pools[url] = (pool, out + 1)
    try:
        return pool, pool.getconn(timeout=timeout)
    except Exception as error:  # noqa: BLE001 - PoolTimeout, or the server gone
        _give_back(url, pool, None)
        raise Error(f"no connection to the database: {_one_line(error)}") from None


def _reset(connection) -> None:
    connection.execute("RESET ALL")  # a read-only user's setting goes with it


def _give_back(url: str, pool, connection) -> None:
    with _pools_lock:
        _, out = _pools[url]
        if connection is not None:
            pool.putconn(connection)
        if out > 1:
            _pools[url] = (pool, out - 1)
            return
        del _pools[url]
    pool.close()  # the last connection of this process given back: no thread left behind


class _PostgreSQL(Database):
    dialect = "postgresql"

    def __init__(self, url: str, read_only: bool, timeout: float) -> None:
        import psycopg

        self.location = url
        self._errors = psycopg.Error, psycopg.errors.IntegrityError
        self._pool, self._db = _take(url, timeout)
        self._timeout, self._read_only = timeout, read_only
        self._in_transaction = False
        if read_only:
            self.execute("SET default_transaction_read_only = on")

    def _sql(self, sql: str) -> str:
        translated = _sql_cache.get(sql)
        if translated is None:
            translated = sql.replace("%", "%%").replace("?", "%s")
            found = _INSERT.match(translated)
            if found is not None:
                verb, table, columns = found.groups()
                translated = f"INSERT INTO {table} ({columns})" + translated[found.end():]
                if verb.upper() == "IGNORE":
                    translated += " ON CONFLICT DO NOTHING"
                else:
                    keys = self._primary_key(table)
                    updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in (c.strip() for c in columns.split(",")) if c not in keys)
                    translated += f" ON CONFLICT ({', '.join(keys)}) DO " + (f"UPDATE SET {updates}" if updates else "NOTHING")
            _sql_cache[sql] = translated
        return translated

    def _primary_key(self, table: str) -> tuple[str, ...]:
        if table not in _primary_keys:
            rows = self._run(
                "SELECT a.attname FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY(i.indkey)"
                " WHERE i.indrelid = %s::regclass AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)", (table,)).rows
            _primary_keys[table] = tuple(row[0] for row in rows)
        return _primary_keys[table]

    def _run(self, sql: str, parameters: Sequence[Any] = ()) -> Result:
        try:
            return self._once(sql, parameters)
        except Error:
            if not self._lost():
                raise
            # The server went away (restarted, the connection cut): a new
            # connection for the next statement. This one is run again only
            # if nothing it belonged to can have committed: outside a
            # transaction, the start of one, or a read.
            self._reconnect()
            if self._in_transaction or not _RETRIED.match(sql):
                raise
            return self._once(sql, parameters)

    def _once(self, sql: str, parameters: Sequence[Any]) -> Result:
        try:
            cursor = self._db.execute(sql, parameters)
            return Result(cursor.fetchall() if cursor.description else [], cursor.rowcount)
        except self._errors[0] as error:
            raise (IntegrityError if isinstance(error, self._errors[1]) else Error)(_one_line(error)) from None

    def _lost(self) -> bool:
        return self._db is not None and (self._db.closed or self._db.broken)

    def _reconnect(self) -> None:
        """The broken connection back to the pool (which drops it) and a new one;
        Error (one line) while the server is still away: the next statement tries again."""
        broken, self._db = self._db, None
        try:
            self._pool.putconn(broken)
        except Exception:  # noqa: BLE001 - a connection the pool no longer wants
            pass
        try:
            self._db = self._pool.getconn(timeout=self._timeout)
        except Exception as error:  # noqa: BLE001 - PoolTimeout: the server still away
            self._db = broken  # still lost: the next statement reconnects again
            raise Error(f"no connection to the database: {_one_line(error)}") from None
        if self._read_only:
            self._once("SET default_transaction_read_only = on", ())

    def chunks(self, sql: str, size: int) -> Iterator[list[tuple]]:
        if not self._in_transaction:
            raise Error("a server-side cursor needs a transaction (read() or write())")
        try:
            with self._db.cursor(name="sekigahara_chunks") as cursor:
                cursor.execute(self._sql(sql), ())
                while rows := cursor.fetchmany(size):
                    yield rows
        except self._errors[0] as error:
            raise Error(_one_line(error)) from None

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> Result:
        return self._run(self._sql(sql), tuple(parameters))

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        try:
            with self._db.cursor() as cursor:
                cursor.executemany(self._sql(sql), rows)
        except self._errors[0] as error:
            raise (IntegrityError if isinstance(error, self._errors[1]) else Error)(_one_line(error)) from None

    def insert_id(self, sql: str, parameters: Sequence[Any]) -> int:
        return self.execute(sql + " RETURNING id", parameters).rows[0][0]

    def script(self, sql: str) -> None:
        bare = re.sub(r"--[^\n]*", "", sql)  # a comment may hold a ';' (the DDL's strings hold no '--')
        statements = [statement.strip() for statement in bare.split(";") if statement.strip()]
        if self._in_transaction:
            for statement in statements:
                self._run(postgresql_ddl(statement))
            return
        with self.write():  # two openers at once: IF NOT EXISTS alone races in PostgreSQL's catalogue
            self.script(sql)

    @contextmanager
    def write(self) -> Iterator[Database]:
        with self._transaction("BEGIN"):
            self._run("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
            yield self

    @contextmanager
    def read(self) -> Iterator[Database]:
        with self._transaction("BEGIN ISOLATION LEVEL REPEATABLE READ"):
            yield self

    @contextmanager
    def _transaction(self, begin: str) -> Iterator[None]:
        self._run(begin)
        self._in_transaction = True
        try:
            yield
        except BaseException:
            self._in_transaction = False
            self._rollback()
            raise
        self._in_transaction = False
        try:
            self._run("COMMIT")
        except Error:
            self._rollback()
            raise

    def _rollback(self) -> None:
        try:
            self._run("ROLLBACK")
        except Error:
            pass  # the connection is gone: the server rolled it back

    def schema_version(self) -> int:
        if self._run("SELECT to_regclass('schema_version')").rows[0][0] is None:
            return 0  # a new database (the first step's set_schema_version makes the table)
        rows = self._run("SELECT version FROM schema_version").rows
        return rows[0][0] if rows else 0

    def set_schema_version(self, version: int) -> None:
        self._run("CREATE TABLE IF NOT EXISTS schema_version (version BIGINT NOT NULL)")
        self._run("DELETE FROM schema_version")
        self._run("INSERT INTO schema_version (version) VALUES (%s)", (version,))

    def tables(self) -> dict[str, list[tuple[str, str, bool]]]:
        rows = self._run(
            "SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name != 'schema_version' ORDER BY table_name, ordinal_position").rows
        found: dict[str, list[tuple[str, str, bool]]] = {}
        for table, column, kind, nullable in rows:
            found.setdefault(table, []).append((column, kind.upper(), nullable == "NO"))
        return found

    def close(self) -> None:
        if self._db is not None:
            connection, self._db = self._db, None
            _give_back(self.location, self._pool, connection)
