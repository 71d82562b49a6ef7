"""The lobby screen (`sekigahara club`): the app opens on the lobby, names the
member, starts a game against the computer, and plays a move in it."""

from __future__ import annotations

from sekigahara_tui.screens.info import BattleSummaryScreen

from tui.driving import until
from rules.surface import DecisionKind
from sekigahara_tui.app import SekigaharaApp
from sekigahara_tui.screens.lobby import ClubGameScreen, LobbyScreen
from sekigahara_tui.screens.versus_dialog import VersusDialog
from rules.surface import Side
from tui.screen_text import screen_text


async def test_the_lobby_starts_a_game_against_the_computer_and_a_move_is_played(club, tmp_path):
    app = SekigaharaApp(save_dir=tmp_path, club=club.lobby_client("alice"))
    async with app.run_test(size=(120, 40)) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        await until(pilot, lambda: lobby.lobby is not None, "the lobby")
        assert "signed in as alice" in screen_text(app)

        await pilot.press("c")  # a game against the computer: which side, which level
        await until(pilot, lambda: isinstance(app.screen, VersusDialog), "the side and level dialog")
        await pilot.press("enter")  # I play Ishida
        await pilot.press("down", "enter")  # level 2, below the highlighted level 1
        await until(pilot, lambda: isinstance(app.screen, ClubGameScreen), "the game screen")
        screen = app.screen
        await until(pilot, lambda: screen.view is not None, "the first state")
        seat = screen.current
        assert seat.view.decision.kind is DecisionKind.BID
        # The computer sits in the club server: its seat is never reported empty.
        await until(pilot, lambda: seat.opponent_present is not None, "the opponent's presence")
        assert seat.opponent_present is True
        assert "is not connected" not in screen_text(app)
        await pilot.press("enter")  # bid the first card offered
        await until(pilot, lambda: seat.waiting_for_answer is None and seat.view.decision.kind is not DecisionKind.BID, "the bids revealed")
        assert seat.client.version >= 2  # our bid and the computer's, both stored
        game_id = screen.table.entry.game
        assert seat.side is Side.ISHIDA and club.store.computer_level(game_id) == "planner"
        info, actions = club.store.load_game(game_id)
        assert len(actions) >= 2 and {a.side for a in actions} == {seat.side, seat.side.other}

        async def to_the_lobby() -> bool:
            # A summary of the computer's Movement Phase may come up at any time: Esc closes it.
            if isinstance(app.screen, BattleSummaryScreen):
                await pilot.press("escape")
            elif app.screen is not lobby:
                await pilot.press("ctrl+l")  # back to the lobby: the game is listed as mine
            await pilot.pause(0.05)
            return app.screen is lobby and lobby.lobby is not None and bool(lobby.lobby.mine)

        for _ in range(200):
            if await to_the_lobby():
                break
        await until(pilot, lambda: app.screen is lobby and lobby.lobby is not None and lobby.lobby.mine, "the lobby again")
        assert [line.game for line in lobby.lobby.mine] == [game_id]
        assert game_id in screen_text(app)


async def test_the_lobby_screen_shows_a_new_open_game_without_being_asked(club, tmp_path):
    """No polling and no r: the club pushes the lobby when bob makes a game."""
    app = SekigaharaApp(save_dir=tmp_path, club=club.lobby_client("alice"))
    async with app.run_test(size=(120, 40)) as pilot:
        lobby = app.screen
        await until(pilot, lambda: lobby.lobby is not None, "the lobby")
        assert lobby.lobby.open == ()
        bob = club.lobby_client("bob")
        made = await bob.new_game(None, "open")
        await until(pilot, lambda: [line.game for line in lobby.lobby.open] == [made.game], "bob's game pushed")
        await until(pilot, lambda: made.game in screen_text(app), "bob's game shown")
        assert "1 open" in screen_text(app)
        await bob.close()


async def test_the_lobby_screen_follows_the_club_again_after_a_restart(data_dir, tmp_path):
    """The club goes away: the screen says so, asks again after a pause, and is
    pushed the new club's changes (the local door: sessions die with a club)."""
    from club_helpers import start_club
    from sekigahara_tui.club.client import ClubClient

    club = await start_club(data_dir)
    running = [club]
    app = SekigaharaApp(save_dir=tmp_path, club=ClubClient(club.socket, member="alice"))
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            lobby = app.screen
            await until(pilot, lambda: lobby.lobby is not None, "the lobby")
            await running.pop().stop()
            await until(pilot, lambda: "Lost the club" in screen_text(app), "the loss said")
            club = await start_club(data_dir)
            running.append(club)
            made = await club.lobby_client("bob").new_game(None, "open")
            await until(pilot, lambda: [line.game for line in lobby.lobby.open] == [made.game], "the lobby of the new club")
            await until(pilot, lambda: "Lost the club" not in screen_text(app), "the message cleared")
            bob = club.lobby_client("bob")
            again = await bob.new_game(None, "open")  # pushed on the new connection
            await until(pilot, lambda: again.game in [line.game for line in lobby.lobby.open], "a push from the new club")
            await bob.close()
    finally:
        for club in running:
            await club.stop()
