"""The club's game clocks over the wire (issue 24; hosting/game_clocks.py):
a real short clock (a preset of a couple of seconds, registered for these
tests) runs out in a real club on a real socket: the side out of time loses
(timed-out, both seats get game_over), or the computer stands in and
finishes the game from that seat's view (finished-by-stand-in). Both seats
are told both clocks. Nothing here sleeps: it waits for the club to act."""

from __future__ import annotations

import asyncio

import pytest

from club_helpers import TIMEOUT, start_club, wait_until
from rules.sides import Side
from sekigahara_tui.hosting import clocks as clock_presets
from sekigahara_tui.hosting import members
from sekigahara_tui.hosting.audit import AuditLog
from sekigahara_tui.hosting.clocks import ClockPreset

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
    await seat.wait_for(lambda c: c.over, 600)
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
