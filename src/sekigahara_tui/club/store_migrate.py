"""`sekigahara club migrate --from DIR --to postgresql://...` (issue 28): a
SQLite club's every table into an empty PostgreSQL database
(hosting/store_copy.py), then checked row by row. The counts are printed;
the exit status is 1 on any difference, and a target that is not empty is
refused in one line with nothing written.

The club must be stopped (its lock is held throughout). After a clean check
DIR records the database (DIR/store.url, as `serve --store` does): `serve
--data DIR` and the member, chat and ratings commands on DIR use it from then
on. DIR/club.sqlite is left as it was, a copy to go back to.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from sekigahara_tui.hosting import database
from sekigahara_tui.hosting.database import STORE_FILE, connect, is_postgresql, record_location, shown
from sekigahara_tui.hosting.store_copy import check_tables, copy_tables, empty_problem


def run_migrate(args: argparse.Namespace) -> int:
    from sekigahara_tui.cli import fail
    from sekigahara_tui.net.locations import HostLock, LocationError

    program = "sekigahara club migrate"
    data_dir: Path = args.source
    if not is_postgresql(args.target):
        return fail(program, f"--to takes a postgresql:// URL, not {args.target[:60]!r}", 2)
    if not (data_dir / STORE_FILE).is_file():
        return fail(program, f"no SQLite club in {shown(data_dir)} (no {STORE_FILE})", 1)
    if (data_dir / database.LOCATION_FILE).is_file():
        return fail(program, f"{shown(data_dir)}'s club is kept in PostgreSQL already ({database.LOCATION_FILE})", 1)
    lock = HostLock(data_dir)
    try:
        lock.acquire()
    except (LocationError, OSError):
        return fail(program, f"a club server is running for {shown(data_dir)}: stop it first", 1)
    try:
        return _migrate(program, data_dir, args.target)
    finally:
        lock.release()


def _migrate(program: str, data_dir: Path, url: str) -> int:
    from sekigahara_tui.cli import fail
    from sekigahara_tui.hosting.members import MemberError, make_member_tables, open_members
    from sekigahara_tui.hosting.notice_settings import SCHEMA as NOTICE_SCHEMA
    from sekigahara_tui.hosting.store import Store, StoreError

    source = target = None
    try:
        open_members(data_dir).close()  # both brought up to today's schema
        for location in (data_dir / STORE_FILE, url):
            Store.open(location).close()
        source, target = connect(data_dir / STORE_FILE), connect(url)
        for db in (source, target):
            make_member_tables(db)
            db.script(NOTICE_SCHEMA)
        tables = sorted(source.tables())
        problem = empty_problem(target, tables)
        if problem is not None:
            return fail(program, problem, 1)
        copy_tables(source, target, tables)
        checks = check_tables(source, target, tables)
    except (database.Error, StoreError, MemberError) as error:
        return fail(program, f"nothing migrated: {error}", 1)
    finally:
        for db in (source, target):
            if db is not None:
                db.close()
    for check in checks:
        print(check.line())
    rows = sum(check.source_rows for check in checks)
    if any(check.difference is not None for check in checks):
        return fail(program, f"the copy in {shown(url)} differs from {shown(data_dir / STORE_FILE)} (above)", 1)
    try:
        record_location(data_dir, url)
    except database.Error as error:
        return fail(program, f"copied and checked, but {error}", 1)
    print(f"{rows} rows in {len(checks)} tables copied and checked; {shown(data_dir)} now keeps its club in {shown(url)}")
    return 0
