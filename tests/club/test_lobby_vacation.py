"""Vacation from the lobby (issue 24; get_vacation, take_vacation): in a real
club on a fake time source, bob declares days away while his correspondence
clock runs; alice's seat is told at once (her clock line reads "on vacation
until ..."), and so is her lobby (its line of the game: "vac"); bob's clock is not charged for the days away, and a request
beyond the administrator's yearly allowance is refused in one line, one
audit line, nothing stored."""

from __future__ import annotations

import asyncio

import pytest

from club_helpers import TIMEOUT, start_club, wait_until
from rules.surface import Side
from sekigahara_tui.app import SekigaharaApp
from sekigahara_tui.club.client import ClubRefused
from sekigahara_tui.hosting import members
from sekigahara_tui.hosting.audit import AuditLog
from sekigahara_tui.hosting.clock_store import DAY
from sekigahara_tui.hosting.clocks import HOUR
from sekigahara_tui.screens.clock_text import clock_text
from sekigahara_tui.screens.lobby import LobbyScreen
from sekigahara_tui.screens.lobby_line import status_cell
from sekigahara_tui.screens.notice_settings import NoticeSettingsScreen
from test_game_clock_keeper import FakeTime
from tui.driving import until
from tui.screen_text import screen_text

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA


@pytest.fixture
async def timed_club(data_dir):
    audit = AuditLog(members.prepare_data_dir(data_dir))
    fake = FakeTime()
    club = await start_club(data_dir, audit=audit, clock_now=fake)
    club.server.clocks.store.set_vacation_cap(5)  # as serve --vacation-days-per-year 5 does
    yield club, audit, fake
    await club.stop()
    audit.close()


async def test_a_vacation_taken_in_the_lobby_stops_the_clock_and_the_opponent_sees_it_at_once(timed_club):
    club, audit, fake = timed_club
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    made = await alice.new_game(ISHIDA, "open", clock="daily", on_time_out="lose")
    await bob.join(made.game)
    keeper = club.server.clocks
    start = fake.now = keeper.clocks[made.game].since
    seat = alice.seat_client(made)
    running = asyncio.create_task(seat.run())
    await seat.wait_for(lambda c: c.clocks is not None and c.view is not None, TIMEOUT)
    assert TOKUGAWA in seat.clocks.running and seat.clocks.vacation_until == (None, None)  # both bid (6.3)
    assert (await bob.vacation()).until is None

    shown: list = []  # alice's lobby, pushed
    alice.on_lobby = shown.append
    await alice.lobby()
    fake.now = start + HOUR
    answer = await bob.vacation(2)
    assert answer.until == pytest.approx(start + HOUR + 2 * DAY) and (answer.days_taken, answer.days_allowed) == (2, 5)
    await seat.wait_for(lambda c: c.clocks.vacation_until[1] is not None, TIMEOUT)  # told at once, nothing played
    assert seat.clocks.vacation_until == (None, pytest.approx(answer.until))
    assert "Tokugawa" in clock_text(seat.clocks, 0.0, 0.0) and "on vacation until" in clock_text(seat.clocks, 0.0, 0.0)
    # alice's lobby line of the game says it too, pushed unasked ("vac" by bob's clock)
    await wait_until(lambda: shown and shown[-1].mine[0].clocks.vacation_until[1] is not None, "alice's lobby pushed")
    assert shown[-1].mine[0].clocks.vacation_until[1] == pytest.approx(answer.until)
    assert " vac" in status_cell(shown[-1].mine[0], ISHIDA, fake.now, told_at=0.0).split("/")[1]
    left_then = keeper.line(club.server.games.find(made.game)).left
    fake.now = start + 13 * HOUR  # half a day into bob's vacation: his clock stood still, alice's ran
    left_now = keeper.line(club.server.games.find(made.game)).left
    assert left_now[1] == pytest.approx(left_then[1]) and left_now[0] == pytest.approx(left_then[0] - 12 * HOUR)
    assert any(" vacation " in line and "member=bob" in line and "2 days" in line for line in audit.lines())

    refusals_before = [line for line in audit.lines() if " refused " in line]
    with pytest.raises(ClubRefused) as refused:
        await bob.vacation(4)  # 2 + 4 > 5
    assert str(refused.value) == "bob has 3 of 5 vacation days left this year, not 4"
    refusals = [line for line in audit.lines() if " refused " in line]
    assert len(refusals) == len(refusals_before) + 1 and "member=bob" in refusals[-1] and "3 of 5" in refusals[-1]
    assert (await bob.vacation()).days_taken == 2  # nothing stored
    assert len(club.server.clocks.store.vacations("bob")) == 1
    await seat.close()
    await running
    await alice.close()
    await bob.close()


async def test_the_settings_screen_takes_days_away_at_80x24(timed_club, tmp_path):
    club, audit, _fake = timed_club
    app = SekigaharaApp(save_dir=tmp_path, club=club.lobby_client("carol"))
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = app.screen
        await until(pilot, lambda: isinstance(lobby, LobbyScreen) and lobby.lobby is not None, "the lobby")
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, NoticeSettingsScreen), "the settings screen")
        screen = app.screen
        await until(pilot, lambda: screen.vacation is not None, "the vacation read")
        assert "Not away; 5 of 5 days left this year" in screen_text(app)
        screen.query_one("#vacation-days").focus()
        await pilot.press("9", "enter")  # more than the allowance
        await until(pilot, lambda: "No vacation taken" in screen_text(app), "the refusal")
        assert "No vacation taken: carol has 5 of 5 vacation days left this year, not 9" in screen_text(app)
        assert club.server.clocks.store.vacations("carol") == []
        assert sum(" refused " in line and "member=carol" in line for line in audit.lines()) == 1
        screen.query_one("#vacation-days").value = ""
        await pilot.press("2", "ctrl+o")
        await until(pilot, lambda: "On vacation for 2 more days" in screen_text(app), "taken")
        text = screen_text(app)
        assert "Away until " in text and "; 3 of 5 days left\n" in text  # on one line
        assert len(club.server.clocks.store.vacations("carol")) == 1
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is lobby, "back in the lobby")


async def test_a_vacation_is_written_off_the_loop_and_answered_once_on_disk(timed_club):
    """While another writer holds the store, bob's vacation waits for it in a
    worker thread: the club's loop answers alice meanwhile. Bob's answer comes
    once the row is committed: a connection of a process of its own sees it."""
    import sqlite3
    import subprocess
    import sys

    club, _audit, _fake = timed_club
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    path = club.store.path
    blocker = sqlite3.connect(path, isolation_level=None)
    try:
        blocker.execute("BEGIN IMMEDIATE")  # another writer: the vacation's transaction must wait for it
        taking = asyncio.create_task(bob.vacation(2))
        await wait_until(lambda: club.server.lobby.pending_writes, "bob's vacation waiting for the store")
        assert (await alice.vacation()).until is None  # the loop is not held by the waiting write
        assert not taking.done()
        blocker.execute("ROLLBACK")
        answer = await asyncio.wait_for(taking, TIMEOUT)
        assert answer.until is not None and answer.days_taken == 2
        counted = subprocess.run(
            [sys.executable, "-c", "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("
             "\"SELECT count(*) FROM vacations WHERE member = 'bob'\").fetchone()[0])", str(path)],
            capture_output=True, text=True, check=True)
        assert counted.stdout.strip() == "1"
    finally:
        blocker.close()
        await alice.close()
        await bob.close()
