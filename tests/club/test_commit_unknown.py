"""A PostgreSQL COMMIT whose connection is lost as it commits: nobody can say
whether the server committed, so the database layer says so (CommitUnknown,
database.py), which the store turns into "BEHIND: it may have been stored"
(store.py) and the host into a reread of the game (test_store_ahead.py).
A real server; the backend is ended from a second connection."""

from __future__ import annotations

import pytest

from helpers import needs_program
from pg_server import INITDB, WHAT
from sekigahara_tui.hosting.database import CommitUnknown, connect

pytestmark = needs_program(INITDB, WHAT)


def test_a_commit_on_a_lost_connection_is_commit_unknown(postgres):
    url = postgres.new_database()
    db, killer = connect(url), connect(url)
    try:
        with pytest.raises(CommitUnknown, match="lost as it committed"):
            with db.write():
                pid = db.execute("SELECT pg_backend_pid()").fetchall()[0][0]
                killer.execute("SELECT pg_terminate_backend(?)", (pid,))
    finally:
        killer.close()
        db.close()
