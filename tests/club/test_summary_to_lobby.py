"""ctrl+l leaves a club game for the lobby with a summary up too (a battle's,
or the other side's Movement Phase): it closes every summary over the game
and the lobby shows. It used to do nothing while a summary was open."""

from __future__ import annotations

from rules.surface import Side
from sekigahara_tui.app import SekigaharaApp
from sekigahara_tui.screens.info import BattleSummaryScreen
from sekigahara_tui.screens.lobby import ClubGameScreen, LobbyScreen
from tui.driving import until


async def test_ctrl_l_closes_the_summaries_and_leaves_for_the_lobby(club, tmp_path):
    lobby_client = club.lobby_client("alice")
    made = await lobby_client.new_game(Side.ISHIDA, "computer")
    app = SekigaharaApp(save_dir=tmp_path, club=lobby_client)
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        await until(pilot, lambda: lobby.lobby is not None and [line.game for line in lobby.lobby.mine] == [made.game], "my game")
        await pilot.press("enter")  # resume it
        await until(pilot, lambda: isinstance(app.screen, ClubGameScreen) and app.screen.view is not None, "the game screen")
        game = app.screen
        # Two summaries, as a battle's and the computer's Movement Phase's may lie one over the other.
        app.push_screen(BattleSummaryScreen("Battle at Gifu", ["Ishida won"]))
        app.push_screen(BattleSummaryScreen("Tokugawa's Movement Phase", ["moved"]))
        await pilot.pause()
        assert app.screen_stack[-3:][0] is game
        await pilot.press("ctrl+l")
        await until(pilot, lambda: app.screen is lobby, "the lobby")
        assert not any(isinstance(screen, (BattleSummaryScreen, ClubGameScreen)) for screen in app.screen_stack)
        await until(pilot, lambda: lobby.lobby is not None and [line.game for line in lobby.lobby.mine] == [made.game], "my game listed")
    await lobby_client.close()
