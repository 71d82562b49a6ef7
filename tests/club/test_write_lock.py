"""Issue 28, "the one write lock": on PostgreSQL the hosts' appends to their
own games hold WRITE_LOCK shared, so they go on side by side, while any other
write (a lease taken, a game made, a member changed) holds it alone, so it
never interleaves with an append (database.py). Real connections to the
tests' PostgreSQL; every wait is for a condition seen in pg_locks, with a
deadline that only fails."""

from __future__ import annotations

import threading
import time

from helpers import needs_program
from pg_server import INITDB, WHAT
from sekigahara_tui.hosting.database import connect
from sekigahara_tui.hosting.postgresql import WRITE_LOCK

pytestmark = needs_program(INITDB, WHAT)
DEADLINE = 30.0


def waiting_for_the_lock(url: str) -> int:
    """How many transactions wait for WRITE_LOCK (pg_locks: not granted)."""
    db = connect(url)
    try:
        rows = db.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = ? AND NOT granted",
                          (WRITE_LOCK,)).fetchall()
        return rows[0][0]
    finally:
        db.close()


def in_a_thread(url: str, appends: bool) -> tuple[threading.Thread, threading.Event]:
    """A write transaction on a connection of its own; `done` is set once it committed."""
    done = threading.Event()

    def write() -> None:
        db = connect(url)
        try:
            with db.write(appends=appends):
                db.execute("SELECT 1")
            done.set()
        finally:
            db.close()

    thread = threading.Thread(target=write, daemon=True)
    thread.start()
    return thread, done


def until(condition, what: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while not condition():
        assert time.monotonic() < deadline, f"never {what}"
        time.sleep(0.01)


def test_appends_go_side_by_side_and_any_other_write_waits_for_them(postgres):
    url = postgres.new_database()
    holder = connect(url)
    try:
        with holder.write(appends=True):  # an append under way, its transaction open
            _, other_append = in_a_thread(url, appends=True)
            assert other_append.wait(DEADLINE), "a second append waited for the first"
            _, other_write = in_a_thread(url, appends=False)
            until(lambda: waiting_for_the_lock(url) == 1, "saw the other write wait for the lock")
            assert not other_write.is_set()
        assert other_write.wait(DEADLINE)  # once the append committed
        with holder.write():  # a write of another kind, open: an append waits for it
            _, append = in_a_thread(url, appends=True)
            until(lambda: waiting_for_the_lock(url) == 1, "saw the append wait for the lock")
            assert not append.is_set()
        assert append.wait(DEADLINE)
    finally:
        holder.close()
