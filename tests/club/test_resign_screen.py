"""The game screen's resign key at 80x24, against a real club (issue 24):
ctrl+r asks twice (a no at either question keeps the game going), then the
club ends the game and the game over screen says who resigned, with the
final board face up (R56)."""

from __future__ import annotations

import asyncio

from tui.driving import until
from rules.sides import Side
from sekigahara_tui.app import SekigaharaApp
from sekigahara_tui.screens.dialogs import ConfirmDialog
from sekigahara_tui.screens.info import GameOverScreen
from sekigahara_tui.screens.lobby import ClubGameScreen
from tui.screen_text import screen_text


async def test_ctrl_r_resigns_after_two_yeses(club, tmp_path):
    app = SekigaharaApp(save_dir=tmp_path, club=club.lobby_client("alice"))
    bob = club.lobby_client("bob")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: getattr(app.screen, "lobby", None) is not None, "the lobby")
        await pilot.press("n", "enter")  # the form as it stands: open, either side, public
        await until(pilot, lambda: isinstance(app.screen, ClubGameScreen), "the game screen")
        game_screen = app.screen
        game = game_screen.table.entry.game
        seat = bob.seat_client(await bob.join(game))
        task = asyncio.create_task(seat.run())
        await until(pilot, lambda: game_screen.current.view is not None and seat.view is not None, "both seated")
        me, winner = game_screen.seat.value.capitalize(), game_screen.seat.other.value.capitalize()  # `n` picks a side

        # a no at the first question, then at the second: the game goes on
        await pilot.press("ctrl+r")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog) and "Resign this game?" in screen_text(app), "the first question")
        assert f"Resign this game? {winner} wins." in screen_text(app)
        await pilot.press("n")
        await until(pilot, lambda: app.screen is game_screen, "back to the game")
        await pilot.press("ctrl+r")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog) and "Resign this game?" in screen_text(app), "the first question again")
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog) and "Really resign?" in screen_text(app), "the second")
        await pilot.press("n")
        await until(pilot, lambda: app.screen is game_screen and "You did not resign" in screen_text(app), "back to the game again")
        assert club.store.load_game(game)[0].status == "playing"

        # twice yes: the end, for both
        await pilot.press("ctrl+r")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog) and "Resign this game?" in screen_text(app), "the third time")
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, ConfirmDialog) and "Really resign?" in screen_text(app), "the second")
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen), "the game over screen")
        text = screen_text(app)
        assert f"{winner} wins." in text and f"{me} resigned." in text
        assert game_screen.current.view.result is not None
        await seat.wait_for(lambda c: c.result is not None, 60)
        assert seat.result == f"{me.lower()} resigned: {winner.lower()} wins"
        assert club.store.load_game(game)[0].end.kind == "resigned"
        await seat.close()
        await task
    await bob.close()
