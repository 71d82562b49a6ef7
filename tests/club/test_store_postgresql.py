"""The club's store on a real PostgreSQL (issue 28, "The store"): one schema
definition for both databases (no drift), `sekigahara club migrate` copying
a SQLite club with every kind of row and checking it row by row, and a real
`sekigahara serve --store postgresql://...` process whose bot game over TCP
survives a restart. The server is tests/pg_server.py's (conftest.py)."""

from __future__ import annotations

import subprocess
import sys
import time
from collections import Counter


from club_helpers import fake_key, play_over_tcp, reap, start_serve, stop_serve
from helpers import needs_program
from pg_server import INITDB, WHAT
from rules.infra.record import replay
from rules.sides import Side
from sekigahara_tui.hosting import database, front_credentials, members
from sekigahara_tui.hosting.chat_store import ChatStore
from sekigahara_tui.hosting.clock_store import ClockStore
from sekigahara_tui.hosting.database import connect
from sekigahara_tui.hosting.notice_settings import MemberNotices, NoticeSettings
from sekigahara_tui.hosting.store import Action, CancelOffer, GameEnd, GameTerms, Store, record_of
from sekigahara_tui.hosting.store_copy import check_tables, copy_tables
from sekigahara_tui.hosting.tournament_pairing import Pairing
from sekigahara_tui.hosting.tournament_store import TournamentStore
from sekigahara_tui.hosting.web_tokens import check_web_token, issue_web_token

pytestmark = needs_program(INITDB, WHAT)
TIMEOUT = 60.0
# How a column's SQLite type is written in PostgreSQL (database.py).
PG_TYPES = {"INTEGER": "BIGINT", "REAL": "DOUBLE PRECISION", "TEXT": "TEXT"}


def every_table(location, data_dir) -> None:
    """Open every store module on `location`, so each makes its tables."""
    Store.open(location).close()
    for db in (connect(location),):
        members.make_member_tables(db)
        db.close()
    NoticeSettings(data_dir).close()


def test_the_two_schemas_have_the_same_tables_and_columns(postgres, tmp_path):
    """One definition, two dialects: the same tables, columns in the same
    order, the same types (as PostgreSQL writes them) and NOT NULLs."""
    pg_dir = tmp_path / "pg"
    pg_dir.mkdir()
    url = postgres.new_database()
    database.record_location(pg_dir, url)
    every_table(tmp_path / database.STORE_FILE, tmp_path)
    every_table(url, pg_dir)
    sqlite, pg = connect(tmp_path / database.STORE_FILE), connect(url)
    try:
        ours, theirs = sqlite.tables(), pg.tables()
    finally:
        sqlite.close()
        pg.close()
    assert "games" in ours and "members" in ours and "notice_settings" in ours and "chat_messages" in ours
    assert sorted(ours) == sorted(theirs)
    for table, columns in ours.items():
        assert [(name, PG_TYPES[kind], not_null) for name, kind, not_null in columns] == theirs[table], table


def a_club_with_every_kind_of_row(data_dir, secrets: dict | None = None) -> dict[str, int]:
    """A SQLite club made through the stores' own calls: members (one muted)
    with their keys, a web token and a front's credential (put in `secrets`),
    games (seated, rated, invited, against the computer, with a clock), actions,
    results and ratings, a cancel offer, clocks, beats and a down time, a
    vacation and the cap, a tournament with its round, chat lines (one deleted),
    notice settings. Returns the rows of each table."""
    data_dir = members.prepare_data_dir(data_dir)
    for name in ("alice", "bob", "carol"):
        members.add(data_dir, name, fake_key())
    members.set_muted(data_dir, "carol", True)
    told = {"alice": issue_web_token(data_dir, "alice"), "eu1": front_credentials.issue(data_dir, "eu1")}
    if secrets is not None:
        secrets.update(told)
    location = data_dir / database.STORE_FILE
    store = Store.open(location)
    store.create_game("g1", 2**62 + 1, "v1", players={Side.ISHIDA: "alice", Side.TOKUGAWA: "bob"}, clock="daily",
                      terms=GameTerms(rated=True))
    for version, action in enumerate([Action("command", Side.ISHIDA, "ishida: bid 1", "c1", 10.5),
                                      Action("undo", Side.ISHIDA, None, "c2", 11.25),
                                      Action("command", Side.ISHIDA, "ishida: bid 2 'quoted' %s ?", None, 12.0)]):
        store.append("g1", action, version)
    store.end_outside_rules("g1", "alice resigned", GameEnd("resigned", Side.TOKUGAWA, Side.ISHIDA, 13.0, "alice"))
    store.create_game("g2", 7, "v1", players={Side.ISHIDA: "carol"}, terms=GameTerms(invited="bob", private=True, rematch_of="g1"))
    store.create_game("g3", 8, "v1", players={Side.ISHIDA: "alice", Side.TOKUGAWA: members.COMPUTER}, computer_level="planner")
    store.set_cancel_offer("g3", CancelOffer(Side.ISHIDA, "alice", 14.0))
    store.close()
    clocks = ClockStore(location)
    clocks.beat(100.0)
    clocks.note_start(200.0)  # a down time
    clocks.set_vacation_cap(20)
    clocks.take_vacation("bob", 3, time.time())
    clocks.close()
    tournaments = TournamentStore(location)
    tournaments.create("spring", "round-robin", None, "daily", "alice")
    tournaments.sign_up("spring", "alice", None)
    tournaments.sign_up("spring", None, "heuristic")
    tournaments.add_round("spring", 1, [Pairing("alice", "computer#1")], ["t1"], start=True)
    tournaments.close()
    chat = ChatStore(location)
    chat.add(None, "alice", None, "hello, club", 20.0)
    line = chat.add("g1", "bob", Side.TOKUGAWA, "good game", 21.0)
    chat.delete(line.number, 22.0)
    chat.close()
    settings = NoticeSettings(data_dir)
    settings.set("alice", MemberNotices(webhook="https://example.org/hook", kinds=frozenset({"your-move"})))
    settings.close()
    db = connect(location)
    try:
        return {table: db.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0] for table in db.tables()}
    finally:
        db.close()


def migrate(source, target) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sekigahara_tui", "club", "migrate", "--from", str(source), "--to", target],
                          capture_output=True, text=True, timeout=TIMEOUT, stdin=subprocess.DEVNULL)


def test_migrate_copies_every_kind_of_row_checks_each_and_the_club_reads_the_same(postgres, tmp_path):
    told: dict = {}
    counts = a_club_with_every_kind_of_row(tmp_path / "club", told)
    empty = [table for table, count in counts.items() if count == 0]
    assert empty == [], f"the club to migrate has no row in {empty}"
    url = postgres.new_database()
    done = migrate(tmp_path / "club", url)
    assert done.returncode == 0, done.stderr
    for table, count in counts.items():  # the counts printed, each table the same
        assert f"{table}: {count} rows, {count} in the target, same" in done.stdout
    assert (tmp_path / "club" / database.LOCATION_FILE).read_text().strip() == url  # DIR uses it from now on
    sqlite, pg = connect(tmp_path / "club" / database.STORE_FILE), connect(url)
    try:  # checked again here, row by row
        assert all(check.difference is None for check in check_tables(sqlite, pg, sorted(counts)))
    finally:
        sqlite.close()
        pg.close()
    # The club reads the same through its stores: members, games, ratings, chat going on after the copied lines.
    assert [(m.name, m.keys) for m in members.list_members(tmp_path / "club")] == [("alice", 1), ("bob", 1), ("carol", 1)]
    # who may come in moved too (member_store.py): the web token and the front's credential work from the database
    assert check_web_token(tmp_path / "club", "alice", told["alice"])
    assert front_credentials.front_of(tmp_path / "club", told["eu1"]) == "eu1"
    from_sqlite, from_pg = Store.open(tmp_path / "club" / database.STORE_FILE, read_only=True), Store.open(url, read_only=True)
    try:
        assert from_pg.summaries() == from_sqlite.summaries()
        assert from_pg.load_game("g1") == from_sqlite.load_game("g1")
        assert from_pg.ratings() == from_sqlite.ratings() != []
    finally:
        from_sqlite.close()
        from_pg.close()
    chat = ChatStore(url)
    try:
        assert chat.add(None, "bob", None, "after the move", 30.0).number == 3
    finally:
        chat.close()


def test_migrate_refuses_a_target_that_is_not_empty_in_one_line_and_writes_nothing(postgres, tmp_path):
    a_club_with_every_kind_of_row(tmp_path / "club")
    url = postgres.new_database()
    store = Store.open(url)
    store.create_game("theirs", 1, "v1")
    store.close()
    done = migrate(tmp_path / "club", url)
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "not empty: its table games holds 1 rows" in done.stderr
    store = Store.open(url, read_only=True)
    try:
        assert store.game_ids() == ["theirs"]
    finally:
        store.close()
    assert not (tmp_path / "club" / database.LOCATION_FILE).exists()
    assert migrate(tmp_path / "club", "sqlite:///elsewhere").returncode == 2


def test_a_copy_that_differs_is_found_row_by_row(postgres, tmp_path):
    """The check compares values, not counts: one changed time is found."""
    a_club_with_every_kind_of_row(tmp_path / "club")
    sqlite, pg = connect(tmp_path / "club" / database.STORE_FILE), connect(postgres.new_database())
    try:
        every_table(pg.location, tmp_path)  # tmp_path: no store.url, the notice table made on the SQLite file again
        members.make_member_tables(pg)
        from sekigahara_tui.hosting.notice_settings import SCHEMA

        pg.script(SCHEMA)
        tables = sorted(sqlite.tables())
        copy_tables(sqlite, pg, tables)
        pg.execute("UPDATE actions SET at = at + 0.001 WHERE seq = 2")
        checks = {check.table: check for check in check_tables(sqlite, pg, tables)}
    finally:
        sqlite.close()
        pg.close()
    assert checks["actions"].difference is not None and "row 2" in checks["actions"].difference
    assert all(check.difference is None for table, check in checks.items() if table != "actions")


def test_copy_and_check_go_in_chunks_smaller_than_a_table(postgres, tmp_path):
    """A table of 40 chat lines copied and checked 3 rows at a time: every row
    arrives (counted apart from the chunks), and a difference in the last
    chunk, or a row missing there, is still found."""
    a_club_with_every_kind_of_row(tmp_path / "club")
    chat = ChatStore(tmp_path / "club" / database.STORE_FILE)
    for n in range(40):
        chat.add(None, "alice", None, f"line {n} % ? 'quoted'", 100.0 + n)
    chat.close()
    sqlite, pg = connect(tmp_path / "club" / database.STORE_FILE), connect(postgres.new_database())
    try:
        every_table(pg.location, tmp_path)
        members.make_member_tables(pg)
        from sekigahara_tui.hosting.notice_settings import SCHEMA

        pg.script(SCHEMA)
        tables = sorted(sqlite.tables())
        copy_tables(sqlite, pg, tables, chunk=3)
        counts = {t: (sqlite.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0], pg.execute(f'SELECT count(*) FROM "{t}"').fetchone()[0])
                  for t in tables}
        assert counts["chat_messages"] == (42, 42) and all(a == b for a, b in counts.values()), counts
        assert all(check.difference is None for check in check_tables(sqlite, pg, tables, chunk=3))
        pg.execute("UPDATE chat_messages SET text = 'changed' WHERE id = 41")
        changed = {check.table: check for check in check_tables(sqlite, pg, tables, chunk=3)}["chat_messages"]
        assert changed.difference is not None and changed.difference.startswith("row 41:"), changed
        pg.execute("DELETE FROM chat_messages WHERE id = 42")
        short = {check.table: check for check in check_tables(sqlite, pg, tables, chunk=3)}["chat_messages"]
        assert (short.source_rows, short.target_rows) == (42, 41) and short.difference is not None
    finally:
        sqlite.close()
        pg.close()


# --- a real serve process on PostgreSQL ------------------------------------------


async def test_serve_on_postgresql_plays_a_bot_game_over_tcp_and_a_restart_keeps_it(postgres, tmp_path):
    url = postgres.new_database()
    data_dir = members.prepare_data_dir(tmp_path / "club")
    server = start_serve(data_dir, "--listen", "127.0.0.1:0", "--store", url)  # DIR records the URL: the member commands find the club
    processes = [server]
    acked: set = set()
    try:
        for name in ("alice", "bob"):
            members.add(data_dir, name, fake_key())
        assert not (data_dir / database.STORE_FILE).exists()  # nothing of the club in SQLite
        game = await play_over_tcp(data_dir, None, acked, 30)
        stop_serve(server)
        acked_before = set(acked)
        server = start_serve(data_dir, "--listen", "127.0.0.1:0")  # DIR's store.url: PostgreSQL again, without --store
        processes.append(server)
        await play_over_tcp(data_dir, game, acked, 20)
        stop_serve(server)
    finally:
        for process in processes:
            reap(process)
    store = Store.open(url, read_only=True)
    try:
        info, actions = store.load_game(game)
        replay(record_of(info, actions))  # the record replays
        stored = Counter((game, a.side, a.client_id) for a in actions if a.client_id is not None)
        assert acked_before < acked <= set(stored), "an acknowledged command was lost"
        assert max(stored.values()) == 1  # none doubled
        assert len(actions) >= 50 or info.status == "over"
    finally:
        store.close()
