"""While a member is signed in (the app's lobby connection), a decision
passing to them in a game they are not looking at rings the terminal's bell
and says "Your move in GAME against X" in the lobby (issue 24): once a
hand-over, not once a step of the other side's turn, and not while they look
at that game. A real club on a Unix socket, the app in a Pilot at 80x24."""

from __future__ import annotations

import asyncio
import secrets
from types import SimpleNamespace

from club_helpers import TIMEOUT
from rules.notation import format_command
from rules.surface import Side
from sekigahara_tui.app import SekigaharaApp
from sekigahara_tui.hosting import club_games
from tui.driving import until
from tui.screen_text import screen_text

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA


async def decide(seat) -> None:
    version = seat.version
    seat.submit(format_command(seat.view.legal[0], with_side=False))
    await seat.wait_for(lambda c: c.version == version + 1, TIMEOUT)


async def test_a_hand_over_in_another_game_rings_once_and_is_said_in_the_lobby(club, tmp_path, monkeypatch):
    # seed 1: after both bids Tokugawa chooses the first player (as in test_game_clock_keeper.py)
    monkeypatch.setattr(club_games, "secrets", SimpleNamespace(token_urlsafe=secrets.token_urlsafe, randbelow=lambda _: 1))
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    made = await alice.new_game(ISHIDA, "open")
    joined = await bob.join(made.game)
    app = SekigaharaApp(save_dir=tmp_path, club=club.lobby_client("alice"))
    bells = []
    app.bell = lambda: bells.append(app.screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: getattr(app.screen, "lobby", None) is not None, "the lobby")
        lobby = app.screen
        a, b = alice.seat_client(made), bob.seat_client(joined)
        tasks = [asyncio.create_task(seat.run()) for seat in (a, b)]
        for seat in (a, b):
            await seat.wait_for(lambda c: c.view is not None, TIMEOUT)
        await decide(a)  # alice bids while looking at the game
        await a.close()  # and leaves it: the lobby is all she has open
        game = club.server.games.find(made.game)
        await decide(b)
        while ISHIDA not in game.host.state.decision.sides:  # Tokugawa's steps until it hands over
            assert bells == [], "a bell before the hand-over"
            await decide(b)
        await until(pilot, lambda: f"Your move in {made.game} against bob" in screen_text(app), "the line in the lobby")
        assert bells == [lobby]
        await bob.lobby()  # a round trip: nothing more was sent meanwhile
        await pilot.pause()
        assert len(bells) == 1
        # looking at the game: no bell when it comes back to her
        a = alice.seat_client(await alice.enter(made.game))
        tasks.append(asyncio.create_task(a.run()))
        await a.wait_for(lambda c: c.view is not None, TIMEOUT)
        while ISHIDA in game.host.state.decision.sides:
            await decide(a)
        while ISHIDA not in game.host.state.decision.sides:
            await decide(b)
        await bob.lobby()
        await pilot.pause()
        assert len(bells) == 1
        # once it is no longer her move there, the line goes
        while ISHIDA in game.host.state.decision.sides:
            await decide(a)
        await until(pilot, lambda: "Your move in" not in screen_text(app), "the line gone")
        for seat in (a, b):
            await seat.close()
        await asyncio.gather(*tasks)
    for client in (alice, bob):
        await client.close()
