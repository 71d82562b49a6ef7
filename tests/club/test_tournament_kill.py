"""A tournament survives kill -9 (issue 26): a real `sekigahara serve`,
the tournament made, joined and started with the real CLI, the server
killed while round 1 is played; restarted, it resumes and runs to the end:
every round made once, paired from the rounds before, no game lost or made
twice. And a round whose boards were stored but whose games were not made
(a crash between the two) is made at the next start."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

from club_helpers import fake_key, start_club
from test_kill import reap, start_serve, stop_serve, until
from sekigahara_tui.hosting import members
from sekigahara_tui.hosting.members import COMPUTER
from sekigahara_tui.hosting.store import Store
from sekigahara_tui.hosting.tournament_pairing import Pairing, standings, swiss_round
from sekigahara_tui.hosting.tournament_store import TournamentStore
from sekigahara_tui.hosting.tournaments import status_of


def cli(data_dir, *words: str, status: int = 0) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "sekigahara_tui", "tournament", *words, "--data", str(data_dir), "--member", "alice"],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == status, done.stderr
    if status:  # refused: one line, nothing on stdout
        assert done.stdout == "" and len(done.stderr.splitlines()) == 1
        return done.stderr
    return done.stdout


def tournament(data_dir, name):
    store = TournamentStore(data_dir / members.STORE_FILE)
    try:
        return store.tournament(name)
    finally:
        store.close()


def actions_stored(data_dir) -> int:
    db = sqlite3.connect(f"{(data_dir / members.STORE_FILE).resolve().as_uri()}?mode=ro", uri=True)
    try:
        return db.execute("SELECT count(*) FROM actions").fetchone()[0]
    finally:
        db.close()


async def test_kill_9_in_round_one_then_the_swiss_resumes_to_its_end(data_dir, monkeypatch):
    # the processes run this checkout's code (the installed `sekigahara_tui` may be another's)
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).resolve().parents[2] / "src"))
    members.prepare_data_dir(data_dir)
    members.add(data_dir, "alice", fake_key())
    server = start_serve(data_dir)
    processes = [server]
    try:
        assert "sign-up" in cli(data_dir, "new", "Kill Cup", "--format", "swiss", "--rounds", "2", "--clock", "live")
        for _ in range(4):
            cli(data_dir, "join", "Kill Cup", "--computer", "random")
        assert "sign-up" in cli(data_dir, "new", "Too Long", "--format", "swiss", "--rounds", "3", "--clock", "live")
        for _ in range(4):
            cli(data_dir, "join", "Too Long", "--computer", "random")
        assert "a Swiss of 4 has at most 2 rounds" in cli(data_dir, "start", "Too Long", status=1)
        shown = cli(data_dir, "start", "Kill Cup")
        assert "round 1 board 1: computer#1 (Ishida) v computer#2 (Tokugawa)" in shown
        assert "has started already" in cli(data_dir, "start", "Kill Cup", status=1)
        await until(lambda: actions_stored(data_dir) >= 200, "round 1 under way")
        server.kill()  # SIGKILL
        server.wait(timeout=10)
        t = tournament(data_dir, "Kill Cup")
        assert t.last_round() == 1 and status_of(t) == "playing"
        server = start_serve(data_dir)
        processes.append(server)
        await until(lambda: status_of(tournament(data_dir, "Kill Cup")) == "over", "the tournament's end", timeout=600)
        shown = cli(data_dir, "show", "Kill Cup")
        stop_serve(server)
    finally:
        for process in processes:
            reap(process)
    t = tournament(data_dir, "Kill Cup")
    played = [b.played for b in t.boards]
    assert [(b.round, b.board) for b in t.boards] == [(1, 1), (1, 2), (2, 1), (2, 2)]
    assert [(p.ishida, p.tokugawa) for p in played[2:]] == [(e.ishida, e.tokugawa) for e in swiss_round(list(t.entrants), played[:2])]
    store = Store.open(data_dir / members.STORE_FILE, read_only=True)
    try:
        assert sorted(store.game_ids()) == sorted(b.game for b in t.boards)  # each made once, none lost
        for b in t.boards:
            info, _ = store.load_game(b.game)
            assert info.status == "over" and info.end is not None
    finally:
        store.close()
    for rank, s in enumerate(standings(list(t.entrants), played, "swiss"), start=1):
        assert f"{rank:>4}  {s.entrant:<20}  {s.points:>6g}" in shown
    db = sqlite3.connect(data_dir / members.STORE_FILE)
    assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    db.close()


async def test_a_round_stored_but_not_made_is_made_at_the_next_start(data_dir):
    club = await start_club(data_dir)
    await club.stop()  # the store made and migrated
    store = TournamentStore(data_dir / members.STORE_FILE)
    store.create("Cup", "round-robin", None, "none", "alice")
    for _ in range(2):
        store.sign_up("Cup", None, "random")
    # as if killed right after the start's transaction: boards stored, no game made
    assert store.add_rounds("Cup", [[Pairing("computer#1", "computer#2")], [Pairing("computer#2", "computer#1")]], [["g-one"], ["g-two"]])
    store.close()
    assert [b.status for b in tournament(data_dir, "Cup").boards] == ["unmade", "unmade"]
    club = await start_club(data_dir, names=())
    try:
        t = tournament(data_dir, "Cup")
        assert [(b.game, b.status) for b in t.boards] == [("g-one", "playing"), ("g-two", "playing")]
        assert set(club.server.catalog.get("g-one").players.values()) == {COMPUTER}
        await until(lambda: status_of(tournament(data_dir, "Cup")) == "over", "both games played", timeout=300)
    finally:
        await club.stop()
    assert sorted(Store.open(data_dir / members.STORE_FILE, read_only=True).game_ids()) == ["g-one", "g-two"]
