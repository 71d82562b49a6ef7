"""A lobby line of my game says both clocks, when the last move was, and
whether the opponent is signed in anywhere in the club (issue 24): over a
real club on a Unix socket, pushed when the opponent comes and goes; on the
lobby screen at 80x24 within the table's width; and what a line drops when
the room is short (screens/lobby_line.py)."""

from __future__ import annotations

import asyncio
import time

from attrs import evolve

from club_helpers import wait_until
from rules.surface import Side
from sekigahara_tui.app import SekigaharaApp
from sekigahara_tui.club.protocol import ClockLine, GameLine
from sekigahara_tui.screens.clock_text import short_clocks
from sekigahara_tui.screens.lobby_line import status_cell
from textual.widgets import DataTable
from tui.driving import until
from tui.screen_text import screen_text

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA
HOUR = 3600.0


async def test_my_lines_carry_the_clocks_and_the_opponent_online_pushed_as_they_come_and_go(club):
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    made = await alice.new_game(ISHIDA, "open", clock="daily")
    await bob.join(made.game)
    pushed = []
    alice.on_lobby = pushed.append
    line = (await alice.lobby()).mine[0]
    assert line.clocks is not None and line.clocks.preset == "daily" and set(line.clocks.running) == {ISHIDA, TOKUGAWA}
    assert 23 * HOUR < line.clocks.left[0] <= 24 * HOUR
    assert line.online == (ISHIDA, TOKUGAWA)  # bob's lobby connection is open (and alice's own)
    await bob.close()  # bob signs out: alice's lobby is pushed, bob offline
    await wait_until(lambda: pushed and pushed[-1].mine[0].online == (ISHIDA,), "bob offline pushed")
    # bob in the game only (a seat's connection, no lobby): online again
    bob = club.lobby_client("bob")
    seat = bob.seat_client(await bob.enter(made.game))
    await bob.close()
    task = asyncio.create_task(seat.run())
    await wait_until(lambda: pushed[-1].mine[0].online == (ISHIDA, TOKUGAWA), "bob seated, pushed online")
    await seat.close()
    await task
    await wait_until(lambda: pushed[-1].mine[0].online == (ISHIDA,), "bob's seat closed, pushed offline")
    # a game without a clock says none; another member's lobby never gets my games' presence
    plain = await alice.new_game(ISHIDA, "computer")
    assert next(line for line in (await alice.lobby()).mine if line.game == plain.game).clocks is None
    carol = club.lobby_client("carol")
    assert all(line.clocks is None and line.online == () for line in (await carol.lobby()).watchable)
    for client in (alice, carol):
        await client.close()


async def test_the_lobby_screen_shows_clocks_and_presence_within_80_columns(club, tmp_path):
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    made = await alice.new_game(ISHIDA, "open", clock="daily")
    await bob.join(made.game)
    await bob.lobby()
    app = SekigaharaApp(save_dir=tmp_path, club=club.lobby_client("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: getattr(app.screen, "lobby", None) is not None and app.screen.lobby.mine, "the lobby")
        await pilot.pause()
        row = next(r for r in screen_text(app).split("\n") if made.game in r)
        assert "your move" in row and "23h" in row and "⏵" in row and "●" in row, row
        table = app.screen.query_one("#games", DataTable)
        assert table.virtual_size.width <= table.size.width  # nothing hidden past the right edge
    await alice.close()
    await bob.close()


def test_a_line_says_less_as_the_room_shrinks_whose_move_last():
    clocks = ClockLine("daily", (2 * 86400 + 4 * HOUR + 30, 23 * HOUR + 600), (ISHIDA,))  # 30 s to spare while it runs
    line = GameLine("g1", "alice", "bob", (ISHIDA,), "playing", None, 3, 1000.0, where="week 2, turn 1, movement",
                    clocks=clocks, online=(TOKUGAWA,), private=True)
    now, told = 1000.0 + 3 * HOUR, time.monotonic()
    full = status_cell(line, ISHIDA, now, told_at=told)
    assert full == "your move · 2d 4h⏵/23h 10m · 3h ago · online · week 2, turn 1, movement · private"
    said = [status_cell(line, ISHIDA, now, told, room) for room in (90, 80, 70, 50, 40, 30, 20, 12, 5)]
    assert said == [
        full,
        "your move · 2d 4h⏵/23h 10m · 3h ago · online · w2 t1 movement · private",
        "your move · 2d 4h⏵/23h 10m · 3h ago · online · private",
        "your move · 2d 4h⏵/23h 10m · 3h ago · online",
        "your move · 2d⏵/23h · 3h ago · online",
        "your move · 2d⏵/23h · ●",
        "your move · 2d⏵/23h",
        "your move",
        "your…",
    ]
    assert status_cell(evolve(line, online=()), ISHIDA, now, told, 30).endswith("○")
    assert "online" not in status_cell(evolve(line, tokugawa="computer"), ISHIDA, now, told)


def test_the_short_clocks_count_down_from_when_the_lobby_came():
    clocks = ClockLine("live", (600.0, 1200.0), (TOKUGAWA,), (None, 5.0), stood_in=None)
    assert short_clocks(clocks, told_at=100.0, now=100.0) == "10m/20m⏵ vac"
    assert short_clocks(clocks, told_at=100.0, now=160.0) == "10m/19m⏵ vac"
    assert short_clocks(evolve(clocks, stood_in=TOKUGAWA), 100.0, 100.0, units=1) == "10m/20m⏵ vac cpu"
