"""The club's clock keeper (hosting/game_clocks.py) on a fake time source,
in a real club on a real socket: the increment once a hand-over, none for an
undo, a vacation not charged, the clocks recomputed from the store after a
restart with the down time not charged, and a side out of time losing when
the keeper looks. No sleeping on real hours: the test moves the time."""

from __future__ import annotations

import asyncio
import secrets
import time
from types import SimpleNamespace

from club_helpers import TIMEOUT, start_club
from rules.notation import format_command
from rules.sides import Side
from sekigahara_tui.hosting import club_games, members
from sekigahara_tui.hosting.audit import AuditLog
from sekigahara_tui.hosting.clock_store import ClockStore
from sekigahara_tui.hosting.clocks import HOUR, PRESETS
from sekigahara_tui.hosting.club_server import ClubServer
from sekigahara_tui.hosting.store import Store
from sekigahara_tui.hosting.tokens import load_secret

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA
DAILY = PRESETS["daily"]  # 24 h + 4 h a hand-over, at most 72 h


class FakeTime:
    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


async def decide(seat) -> None:
    version = seat.version
    seat.submit(format_command(seat.view.legal[0], with_side=False))
    await seat.wait_for(lambda c: c.version == version + 1, TIMEOUT)


async def test_hand_overs_undo_vacation_restart_and_time_out(data_dir, monkeypatch):
    # The game's seed, which deals the hands: with seed 1 the first bids of each
    # side leave Tokugawa to choose the first player (with a random seed Ishida
    # won the bid one game in four, and the test's hand-overs were not these).
    monkeypatch.setattr(club_games, "secrets", SimpleNamespace(token_urlsafe=secrets.token_urlsafe, randbelow=lambda _: 1))
    fake = FakeTime()
    club = await start_club(data_dir, clock_now=fake)
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    made = await alice.new_game(ISHIDA, "open", clock="daily", on_time_out="lose")
    joined = await bob.join(made.game)
    keeper = club.server.clocks
    start = keeper.clocks[made.game].since
    fake.now = start
    assert keeper.clocks[made.game].running == {ISHIDA, TOKUGAWA}  # both bid (6.3), no increment at the start
    a, b = alice.seat_client(made), bob.seat_client(joined)
    tasks = [asyncio.create_task(seat.run()) for seat in (a, b)]
    for seat in (a, b):
        await seat.wait_for(lambda c: c.view is not None, TIMEOUT)

    fake.now = start + 2 * HOUR
    await decide(a)  # Ishida bids after 2 h: Tokugawa alone decides now
    clocks = keeper.clocks[made.game]
    assert clocks.running == {TOKUGAWA} and clocks.left_s == (DAILY.initial_s - 2 * HOUR, DAILY.initial_s - 2 * HOUR)
    fake.now = start + 5 * HOUR
    await decide(b)  # Tokugawa bids after 5 h
    assert keeper.clocks[made.game].left_s == (DAILY.initial_s - 2 * HOUR, DAILY.initial_s - 5 * HOUR)
    # the store holds the clocks of the last action, charged to its time: a restart recomputes the same
    stored = {g.id: g for g in ClockStore(data_dir / members.STORE_FILE).clocked_games()}[made.game].clocks
    assert stored.since == start + 5 * HOUR and stored.left_s == (DAILY.initial_s - 2 * HOUR, DAILY.initial_s - 5 * HOUR)
    steps = 0
    while ISHIDA not in keeper.clocks[made.game].running:  # Tokugawa's steps until it hands over
        fake.now += 1 * HOUR
        await decide(b)
        steps += 1
    # Ishida, handed the decision, gains 4 h once (not once per step of Tokugawa's turn)
    ishida_left = DAILY.initial_s - 2 * HOUR + DAILY.increment_s
    tokugawa_left = DAILY.initial_s - (5 + steps) * HOUR
    assert keeper.clocks[made.game].running == {ISHIDA} and keeper.clocks[made.game].left_s == (ishida_left, tokugawa_left)

    # an undo hands the decision back with no increment
    fake.now += 1 * HOUR
    version = b.version
    b.undo()
    await b.wait_for(lambda c: c.version == version + 1, TIMEOUT)
    assert keeper.clocks[made.game].running == {TOKUGAWA}
    assert keeper.clocks[made.game].left_s == (ishida_left - HOUR, tokugawa_left)
    fake.now += 1 * HOUR
    await decide(b)
    ishida_left += DAILY.increment_s - HOUR
    tokugawa_left -= HOUR
    assert keeper.clocks[made.game].left_s == (ishida_left, tokugawa_left)

    # Alice (Ishida) on vacation for a day from now: the day is not charged to her; Bob sees it
    ClockStore(data_dir / members.STORE_FILE).take_vacation("alice", 1, fake.now)
    fake.now += 10 * HOUR
    await keeper.check(fake.now)  # rereads the vacations
    line = keeper.line(club.server.games.find(made.game))
    assert line.vacation_until == (fake.now + 14 * HOUR, None) and line.left[0] == ishida_left
    fake.now += 20 * HOUR
    assert keeper.clocks[made.game].left(ISHIDA, fake.now, keeper.excluded(made.game)) == ishida_left - 6 * HOUR
    before = keeper.line(club.server.games.find(made.game)).left

    # restart: two hours down, charged to nobody; the same clocks, recomputed from the store
    for seat in (a, b):
        await seat.close()
    await asyncio.gather(*tasks)
    keeper.store.beat(fake.now)  # the heartbeat each second beats on real time; this one at the fake now
    await club.server.close()
    club.store.close()
    fake.now += 2 * HOUR
    store = Store.open(data_dir / members.STORE_FILE)
    server = ClubServer(store, club.data_dir, load_secret(club.data_dir), clock_now=fake, audit=AuditLog(club.data_dir))
    await server.listen_unix(club.socket)
    try:
        after = server.clocks.line(server.games.find(made.game)).left
        assert after == before
        # a side out of time loses when the keeper looks
        fake.now += 200 * HOUR
        out = await server.clocks.check(fake.now)
        assert [game for game, _ in out] == [made.game]
        info, _ = store.load_game(made.game)
        assert info.end is not None, server.audit.lines()
        assert (info.end.kind, info.end.seat) == ("timed-out", ISHIDA)
    finally:
        await alice.close()
        await bob.close()
        await server.close()
        store.close()


def test_a_heartbeat_in_flight_survives_the_club_closing_its_clock_store(tmp_path):
    """The heartbeat writes from a thread while the club's loop may close the
    clock store: on one shared connection, a close under a beat crashed the
    test process (a segmentation fault in sqlite3, clean-clone CI). A beat uses
    its own connection: beats go on, and land, after the store is closed. Run
    in a child process, so that a crash is this test's failure, not pytest's."""
    import subprocess
    import sys
    import textwrap

    path = tmp_path / "club.sqlite"
    Store.open(path).close()  # the schema, clocks' tables included
    script = textwrap.dedent(f"""
        import threading
        from sekigahara_tui.hosting.clock_store import ClockStore
        clocks = ClockStore({str(path)!r})
        errors = []
        def beats():
            for i in range(400):
                try:
                    clocks.beat(1000.0 + i)
                except Exception as error:
                    errors.append(repr(error))
                    return
        beating = threading.Thread(target=beats)
        beating.start()
        clocks.close()
        beating.join()
        assert not errors, errors
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    import sqlite3

    with sqlite3.connect(path) as db:
        assert db.execute("SELECT at FROM server_beats WHERE id = 1").fetchone() == (1399.0,)
