"""The club's game clocks over the wire (issue 24; hosting/game_clocks.py):
a real short clock (a preset of a couple of seconds, registered for these
tests) runs out in a real club on a real socket: the side out of time loses
(timed-out, both seats get game_over), or the computer stands in and
finishes the game from that seat's view (finished-by-stand-in). Both seats
are told both clocks. Nothing here sleeps: it waits for the club to act."""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path

import pytest

import sekigahara_tui
from club_helpers import TIMEOUT, fake_key, start_club, wait_until
from test_kill import reap, start_serve, stop_serve, until
from rules.notation import format_command
from rules.sides import Side
from sekigahara_tui.hosting import clocks as clock_presets
from sekigahara_tui.hosting import members
from sekigahara_tui.hosting.audit import AuditLog
from sekigahara_tui.club.client import ClubClient
from sekigahara_tui.hosting.clocks import PRESETS, ClockPreset
from sekigahara_tui.hosting.store import Store

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA
SHORT = ClockPreset("test-short", 2.0, 1.0, 3.0, correspondence=False)


@pytest.fixture(autouse=True)
def short_preset(monkeypatch):
    monkeypatch.setitem(clock_presets.PRESETS, SHORT.name, SHORT)


async def test_a_side_out_of_time_loses_and_both_seats_hear_the_end(data_dir):
    club = await start_club(data_dir)
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    made = await alice.new_game(ISHIDA, "open", clock=SHORT.name, on_time_out="lose")
    joined = await bob.join(made.game)
    seats = [alice.seat_client(made), bob.seat_client(joined)]
    tasks = [asyncio.create_task(seat.run()) for seat in seats]
    for seat in seats:
        await seat.wait_for(lambda c: c.view is not None and c.clocks is not None, TIMEOUT)
        assert seat.clocks.preset == SHORT.name and seat.clocks.running == (ISHIDA, TOKUGAWA)  # both bid (6.3)
        assert all(0 < left <= SHORT.initial_s for left in seat.clocks.left)
    # Nobody bids: both clocks run out together; Ishida's is taken first (the side order).
    for seat in seats:
        await seat.wait_for(lambda c: c.over, TIMEOUT)
        assert seat.result == "ishida ran out of time: tokugawa wins"
    info, actions = club.store.load_game(made.game)
    assert info.status == "over" and actions == []
    assert (info.end.kind, info.end.winner, info.end.seat, info.end.by) == ("timed-out", TOKUGAWA, ISHIDA, None)
    assert club.server.clocks.clocks == {}  # nothing left to time
    for seat in seats:
        await seat.close()
    await asyncio.gather(*tasks)
    await alice.close()
    await bob.close()
    await club.stop()


async def test_the_computer_stands_in_for_a_seat_out_of_time_and_finishes_the_game(data_dir):
    club = await start_club(data_dir, computer_seed=7, audit=AuditLog(members.prepare_data_dir(data_dir)))
    alice = club.lobby_client("alice")
    made = await alice.new_game(ISHIDA, "computer", clock=SHORT.name, on_time_out="stand-in:heuristic")
    seat = alice.seat_client(made)
    task = asyncio.create_task(seat.run())
    await seat.wait_for(lambda c: c.clocks is not None, TIMEOUT)
    # Alice never decides: her clock runs out, the computer takes her seat (the
    # computer's own seat never runs out) and plays both to the end.
    await seat.wait_for(lambda c: c.clocks is not None and c.clocks.stood_in is ISHIDA, TIMEOUT)
    assert club.store.load_game(made.game)[0].status == "playing"
    await seat.wait_for(lambda c: c.over, 2 * TIMEOUT)
    info, actions = club.store.load_game(made.game)
    assert info.status == "over"
    assert (info.end.kind, info.end.seat) == ("finished-by-stand-in", ISHIDA)
    assert any(action.side is ISHIDA for action in actions)  # Ishida's seat was played, by the computer
    assert "ran out of time: the computer finishes the seat" in "\n".join(club.server.audit.lines())
    await seat.close()
    await task
    await alice.close()
    await club.stop()


async def test_a_game_without_a_clock_has_none(data_dir):
    club = await start_club(data_dir)
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    made = await alice.new_game(ISHIDA, "open")
    await bob.join(made.game)
    seat = alice.seat_client(made)
    task = asyncio.create_task(seat.run())
    await seat.wait_for(lambda c: c.view is not None, TIMEOUT)
    await wait_until(lambda: made.game in club.server.games.loaded, "the game loaded")
    assert seat.clocks is None and made.game not in club.server.clocks.clocks
    await seat.close()
    await task
    await alice.close()
    await bob.close()
    await club.stop()


def clock_rows(data_dir):
    store = Store.open(data_dir / members.STORE_FILE, read_only=True)
    try:
        db = store._db  # the test reads the tables it checks
        downs = db.execute("SELECT start, end FROM down_times ORDER BY start").fetchall()
        beat = db.execute("SELECT at FROM server_beats").fetchone()
        return downs, beat[0] if beat else None
    finally:
        store.close()


async def told_clocks(seat) -> tuple[float, float, tuple[float, float]]:
    """(asked at, told by, left): the seat's clocks, fresh from the club."""
    before = time.time()
    seat.clocks = None
    task = asyncio.create_task(seat.run())
    await seat.wait_for(lambda c: c.clocks is not None, TIMEOUT)
    after = time.time()
    left = seat.clocks.left
    await seat.close()
    await task
    return before, after, left


async def test_after_kill_9_the_clocks_are_exact_and_the_down_time_is_not_charged(data_dir, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(Path(sekigahara_tui.__file__).parents[1]))
    members.add(members.prepare_data_dir(data_dir), "alice", fake_key())
    members.add(data_dir, "bob", fake_key())
    server = start_serve(data_dir)
    sock = data_dir / "club.sock"
    try:
        alice, bob = ClubClient(sock, member="alice"), ClubClient(sock, member="bob")
        made = await alice.new_game(ISHIDA, "open", clock="live")
        joined = await bob.join(made.game)
        seat = alice.seat_client(made)
        task = asyncio.create_task(seat.run())
        await seat.wait_for(lambda c: c.view is not None and c.clocks is not None, TIMEOUT)
        seat.submit(format_command(seat.view.legal[0], with_side=False))  # Ishida bids: Tokugawa's clock alone runs
        await seat.wait_for(lambda c: c.version == 1 and c.clocks.running == (TOKUGAWA,), TIMEOUT)
        await seat.close()
        await task
        before_1, after_1, left_1 = await told_clocks(bob.seat_client(joined))
        # a heartbeat after this, then kill -9; the club stays down a while
        await until(lambda: (clock_rows(data_dir)[1] or 0) > after_1, "a heartbeat")
        killed = time.time()
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=10)
        await until(lambda: time.time() > killed + 3, "three seconds of down time")
        restarted = time.time()
        server = start_serve(data_dir)
        before_2, after_2, left_2 = await told_clocks(bob.seat_client(joined))
        (down,) = clock_rows(data_dir)[0]
        # the down time runs from the last heartbeat (at most a beat and a write before the kill) to the restart
        assert killed - 1.5 <= down[0] <= killed and restarted <= down[1] <= before_2
        # Tokugawa was charged the time up, not the time down; Ishida nothing
        up_low, up_high = (before_2 - after_1) - (down[1] - down[0]), (after_2 - before_1) - (down[1] - down[0])
        assert left_2[0] == left_1[0] < PRESETS["live"].initial_s  # charged while it bid, no more
        assert up_low - 0.01 <= left_1[1] - left_2[1] <= up_high + 0.01, (left_1, left_2, up_low, up_high)
        await alice.close()
        await bob.close()
        stop_serve(server)
    finally:
        reap(server)
