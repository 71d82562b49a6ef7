"""The club's database on a PostgreSQL server (database.py says what differs
from SQLite and why psycopg 3): one process's pool per server, each store's
connection taken from it, and the connection replaced when the server went
away (restarted, the connection cut): see `PostgreSQL._run`.
"""

from __future__ import annotations

import math
import re
import threading
from contextlib import contextmanager
from typing import Any, Iterator, Sequence

from sekigahara_tui.hosting.database import CommitUnknown, Database, Error, IntegrityError, Result, one_line

WRITE_LOCK = 0x5EC1_6A4A  # the advisory lock a PostgreSQL write transaction takes first
POOL_SIZE = 32  # connections a process may hold to one server (a club holds about 8)

_pools: dict[str, tuple[Any, int]] = {}  # URL -> (its pool, connections out): one pool a server, per process
_pools_lock = threading.Lock()
_sql_cache: dict[str, str] = {}
_primary_keys: dict[str, tuple[str, ...]] = {}
_TYPES = ((re.compile(r"\bINTEGER PRIMARY KEY AUTOINCREMENT\b", re.I), "BIGSERIAL PRIMARY KEY"),
          (re.compile(r"\bINTEGER\b", re.I), "BIGINT"), (re.compile(r"\bREAL\b", re.I), "DOUBLE PRECISION"))
_INSERT = re.compile(r"^\s*INSERT OR (IGNORE|REPLACE) INTO (\w+) \(([^)]*)\)", re.I)
_RETRIED = re.compile(r"\s*(BEGIN|SELECT|SET|RESET|ROLLBACK)\b", re.I)  # statements that commit nothing on their own


def ddl(statement: str) -> str:
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
                raise Error(one_line(error)) from None
            # check: a connection taken from the pool is tried first (the server may have restarted since)
            pool = ConnectionPool(url, min_size=1, max_size=POOL_SIZE, open=True, reset=_reset, name="sekigahara",
                                  check=ConnectionPool.check_connection, reconnect_timeout=math.inf,
                                  kwargs={"autocommit": True, "options": f"-c lock_timeout={int(timeout * 1000)}"})
        _pools[url] = (pool, out + 1)
    try:
        return pool, pool.getconn(timeout=timeout)
    except Exception as error:  # noqa: BLE001 - PoolTimeout, or the server gone
        _give_back(url, pool, None)
        raise Error(f"no connection to the database: {one_line(error)}") from None


def _retake(url: str, pool, timeout: float):
    """A new connection from the pool after one was lost. A plain connection
    is tried first: while the server is away it is refused at once, saying
    why, where the pool would wait its whole timeout (and the event loop's
    short reads with it)."""
    import psycopg

    try:
        psycopg.connect(url, connect_timeout=max(1, int(timeout))).close()
        return pool.getconn(timeout=timeout)
    except Exception as error:  # noqa: BLE001 - psycopg.Error, PoolTimeout
        raise Error(f"no connection to the database: {one_line(error)}") from None


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


class PostgreSQL(Database):
    dialect = "postgresql"

    def __init__(self, url: str, read_only: bool, timeout: float) -> None:
        import psycopg

        self.location = url
        self._errors = psycopg.Error, psycopg.errors.IntegrityError
        self._pool, self._db = _take(url, timeout)
        self._timeout, self._read_only = timeout, read_only
        self._in_transaction = self._closed = False
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
            if self._db is not None and not (self._db.closed or self._db.broken):
                raise
            # The server went away (restarted, the connection cut). The statement
            # is run again, on a new connection, only if nothing it belonged to
            # can have committed: outside a transaction, the start of one, a read.
            # Otherwise the error stands (the caller's transaction is lost, not
            # committed) and the next statement connects again.
            self._drop()
            if self._in_transaction or not _RETRIED.match(sql):
                raise
            return self._once(sql, parameters)

    def _once(self, sql: str, parameters: Sequence[Any]) -> Result:
        try:
            cursor = self._connection().execute(sql, parameters)
            return Result(cursor.fetchall() if cursor.description else [], cursor.rowcount)
        except self._errors[0] as error:
            raise (IntegrityError if isinstance(error, self._errors[1]) else Error)(one_line(error)) from None

    def _connection(self):
        """The connection; a new one if the last was lost (Error, one line, while the server is away)."""
        if self._db is None:
            if self._closed:
                raise Error("the database connection is closed")
            self._db = _retake(self.location, self._pool, self._timeout)
            if self._read_only:
                self._once("SET default_transaction_read_only = on", ())
        return self._db

    def _drop(self) -> None:
        """The lost connection back to the pool, which discards it."""
        lost, self._db = self._db, None
        if lost is not None:
            try:
                self._pool.putconn(lost)
            except Exception:  # noqa: BLE001 - the pool no longer wants it: it is gone anyway
                pass

    def chunks(self, sql: str, size: int) -> Iterator[list[tuple]]:
        if not self._in_transaction:
            raise Error("a server-side cursor needs a transaction (read() or write())")
        try:
            with self._connection().cursor(name="sekigahara_chunks") as cursor:
                cursor.execute(self._sql(sql), ())
                while rows := cursor.fetchmany(size):
                    yield rows
        except self._errors[0] as error:
            raise Error(one_line(error)) from None

    def execute(self, sql: str, parameters: Sequence[Any] = ()) -> Result:
        return self._run(self._sql(sql), tuple(parameters))

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        try:
            with self._connection().cursor() as cursor:
                cursor.executemany(self._sql(sql), rows)
        except self._errors[0] as error:
            raise (IntegrityError if isinstance(error, self._errors[1]) else Error)(one_line(error)) from None

    def insert_id(self, sql: str, parameters: Sequence[Any]) -> int:
        return self.execute(sql + " RETURNING id", parameters).rows[0][0]

    def script(self, sql: str) -> None:
        bare = re.sub(r"--[^\n]*", "", sql)  # a comment may hold a ';' (the DDL's strings hold no '--')
        statements = [statement.strip() for statement in bare.split(";") if statement.strip()]
        if self._in_transaction:
            for statement in statements:
                self._run(ddl(statement))
            return
        with self.write():  # two openers at once: IF NOT EXISTS alone races in PostgreSQL's catalogue
            self.script(sql)

    @contextmanager
    def write(self, appends: bool = False) -> Iterator[Database]:
        with self._transaction("BEGIN"):
            # Appends share the lock with each other (database.py says why), not with any other write.
            self._run("SELECT pg_advisory_xact_lock_shared(%s)" if appends else "SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
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
        except Error as error:
            lost = self._db is None or self._db.closed or self._db.broken
            self._rollback()
            if lost:  # the server may have committed before the connection went: nobody can say here
                raise CommitUnknown(f"the connection to the database was lost as it committed: {error}") from None
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
        if not self._closed:
            self._closed = True
            connection, self._db = self._db, None
            _give_back(self.location, self._pool, connection)
