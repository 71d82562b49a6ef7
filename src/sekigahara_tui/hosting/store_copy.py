"""A SQLite club's tables copied into PostgreSQL, then checked row by row
(`sekigahara club migrate --from DIR --to postgresql://...`, issue 28).

Every table of the source is copied (games, actions, members, clocks,
ratings, tournaments, chat, notice settings...), in an order that puts a
table after those it references, in one transaction: the target holds all
of it or nothing. A database numbering its rows (the chat's lines) goes on
after the last one copied. Then each table is read again on both sides,
sorted the same way, and compared row by row: the answer says, table by
table, the rows on each side and whether they are the same.
"""

from __future__ import annotations

from attrs import frozen

from sekigahara_tui.hosting.database import Database, Error


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


def copy_tables(source: Database, target: Database, tables: list[str]) -> None:
    """Every row of `tables` into the target, in one transaction (database.Error: none copied)."""
    source_columns, target_columns = source.tables(), target.tables()
    with target.write():
        for table in copy_order(source, tables):
            columns = [column for column, _, _ in source_columns[table]]
            missing = [c for c in columns if c not in {name for name, _, _ in target_columns.get(table, [])}]
            if missing:
                raise Error(f"the target's table {table} has no column {missing[0]} (is it of another sekigahara?)")
            names = ", ".join(f'"{c}"' for c in columns)
            rows = source.execute(f'SELECT {names} FROM "{table}"').fetchall()
            if rows:
                target.executemany(f'INSERT INTO "{table}" ({names}) VALUES ({", ".join("?" * len(columns))})', rows)
        if target.dialect == "postgresql":
            for table, column in target.execute(
                "SELECT table_name, column_name FROM information_schema.columns"
                " WHERE table_schema = current_schema() AND column_default LIKE 'nextval%'"
            ).fetchall():
                target.execute(f"SELECT setval(pg_get_serial_sequence(?, ?), coalesce(max(\"{column}\"), 0) + 1, false)"
                               f' FROM "{table}"', (table, column))


def _key(row: tuple) -> tuple:
    return tuple((value is None, value if value is not None else 0) for value in row)


def check_tables(source: Database, target: Database, tables: list[str]) -> list[TableCheck]:
    """Each table read on both sides, sorted alike, compared row by row."""
    checks, source_columns = [], source.tables()
    for table in tables:
        names = ", ".join(f'"{column}"' for column, _, _ in source_columns[table])
        ours = sorted(source.execute(f'SELECT {names} FROM "{table}"').fetchall(), key=_key)
        theirs = sorted(target.execute(f'SELECT {names} FROM "{table}"').fetchall(), key=_key)
        difference = None
        for number, (a, b) in enumerate(zip(ours, theirs), 1):
            if tuple(a) != tuple(b):
                difference = f"row {number}: {tuple(a)!r} became {tuple(b)!r}"[:300]
                break
        if difference is None and len(ours) != len(theirs):
            difference = f"{len(ours)} rows became {len(theirs)}"
        checks.append(TableCheck(table, len(ours), len(theirs), difference))
    return checks
