"""A SQLite club's tables copied into PostgreSQL, then checked row by row
(`sekigahara club migrate --from DIR --to postgresql://...`, issue 28).

Every table of the source is copied (games, actions, members, clocks,
ratings, tournaments, chat, notice settings...), in an order that puts a
table after those it references, in one transaction: the target holds all
of it or nothing. A database numbering its rows (the chat's lines) goes on
after the last one copied. Then each table is read again on both sides,
sorted the same way, and compared row by row: the answer says, table by
table, the rows on each side and whether they are the same.

Both the copy and the check go `chunk` rows at a time (database.py's
`chunks`: SQLite's cursor, PostgreSQL's server-side cursor), so a club of
any size is moved in bounded memory: the copy is still one transaction, the
check still every row. The check sorts both sides in the databases, by every
column, the same way in both (NULLs first, text by bytes: COLLATE "C").
"""

from __future__ import annotations

from itertools import zip_longest
from typing import Iterator

from attrs import frozen

from sekigahara_tui.hosting.database import Database, Error

CHUNK = 10_000  # rows read (and written) at a time


@frozen
class TableCheck:
    table: str
    source_rows: int
    target_rows: int
    difference: str | None  # the first row that differs, or None: the same

    def line(self) -> str:
        said = "same" if self.difference is None else f"DIFFERENT: {self.difference}"
        return f"{self.table}: {self.source_rows} rows, {self.target_rows} in the target, {said}"


def empty_problem(target: Database, tables: list[str]) -> str | None:
    """Why the target cannot take the club (one line), or None: it holds none of its rows."""
    for table in tables:
        count = target.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
        if count:
            return f"the target is not empty: its table {table} holds {count} rows (migrate only into a new database)"
    return None


def copy_order(source: Database, tables: list[str]) -> list[str]:
    """The tables, each after the tables it references (SQLite's foreign keys)."""
    needs = {table: {row[2] for row in source.execute(f'PRAGMA foreign_key_list("{table}")')} - {table} for table in tables}
    order: list[str] = []
    while len(order) < len(tables):
        ready = [t for t in tables if t not in order and needs[t] <= set(order)]
        if not ready:
            raise Error(f"the tables reference each other in a circle: {sorted(set(tables) - set(order))}")
        order += ready
    return order


def copy_tables(source: Database, target: Database, tables: list[str], chunk: int = CHUNK) -> None:
    """Every row of `tables` into the target, `chunk` rows at a time, in one
    transaction (database.Error: none copied)."""
    source_columns, target_columns = source.tables(), target.tables()
    with target.write():
        for table in copy_order(source, tables):
            columns = [column for column, _, _ in source_columns[table]]
            missing = [c for c in columns if c not in {name for name, _, _ in target_columns.get(table, [])}]
            if missing:
                raise Error(f"the target's table {table} has no column {missing[0]} (is it of another sekigahara?)")
            names = ", ".join(f'"{c}"' for c in columns)
            insert = f'INSERT INTO "{table}" ({names}) VALUES ({", ".join("?" * len(columns))})'
            with source.read():
                for rows in source.chunks(f'SELECT {names} FROM "{table}"', chunk):
                    target.executemany(insert, rows)
        if target.dialect == "postgresql":
            for table, column in target.execute(
                "SELECT table_name, column_name FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND column_default LIKE 'nextval%'"
            ).fetchall():
                target.execute(f"SELECT setval(pg_get_serial_sequence(?, ?), coalesce(max(\"{column}\"), 0) + 1, false)"
                               f' FROM "{table}"', (table, column))


def _sorted_rows(db: Database, table: str, columns: list[tuple[str, str, bool]], chunk: int) -> Iterator[tuple]:
    """The table's rows ordered by every column, read `chunk` at a time."""
    text = db.dialect == "postgresql"
    order = ", ".join(f'"{name}"' + (' COLLATE "C"' if text and kind == "TEXT" else "") + " NULLS FIRST"
                      for name, kind, _ in columns)
    names = ", ".join(f'"{name}"' for name, _, _ in columns)
    with db.read():
        for rows in db.chunks(f'SELECT {names} FROM "{table}" ORDER BY {order}', chunk):
            yield from (tuple(row) for row in rows)


def check_tables(source: Database, target: Database, tables: list[str], chunk: int = CHUNK) -> list[TableCheck]:
    """Each table read on both sides, sorted alike (`chunk` rows at a time), compared row by row."""
    checks, source_columns = [], source.tables()
    for table in tables:
        ours = theirs = 0
        difference = None
        for a, b in zip_longest(_sorted_rows(source, table, source_columns[table], chunk),
                                _sorted_rows(target, table, source_columns[table], chunk)):
            ours, theirs = ours + (a is not None), theirs + (b is not None)
            if difference is None and a is not None and b is not None and a != b:
                difference = f"row {ours}: {a!r} became {b!r}"[:300]
        if difference is None and ours != theirs:
            difference = f"{ours} rows became {theirs}"
        checks.append(TableCheck(table, ours, theirs, difference))
    return checks
