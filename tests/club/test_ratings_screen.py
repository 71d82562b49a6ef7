"""The ratings in the app at 80x24 (issue 26): the lobby shows each player's
rating beside the name and the member's own; `t` opens the club's table
(rank, rating, games, win rate as each side, the computer's level among the
members) with the member's history plotted; Enter on a line shows that
player's; a rated game is made from the `n` form and from `c`."""

from __future__ import annotations

from textual.widgets import Sparkline

from test_ratings import resign, resigned_game
from tui.driving import until
from tui.screen_text import screen_text
from rules.surface import Side
from sekigahara_tui.app import SekigaharaApp
from sekigahara_tui.screens.club_game_dialog import ClubGameDialog
from sekigahara_tui.screens.lobby import ClubGameScreen, LobbyScreen
from sekigahara_tui.screens.ratings import RatingsScreen
from sekigahara_tui.screens.versus_dialog import VersusDialog


async def resign_to_the_computer(club) -> str:
    """Alice (Ishida) against the computer at level 2, rated; she resigns at once."""
    alice = club.lobby_client("alice")
    made = await alice.new_game(Side.ISHIDA, "computer", "planner", rated=True)
    await resign(alice, made)
    return made.game


async def test_the_ratings_screen_lists_the_club_and_plots_a_history_at_80x24(club, tmp_path):
    # alice loses to bob (1500 - 15 = 1485), then to the computer at level 2:
    # E = 1 / (1 + 10 ** (15 / 400)) = 0.478, 30 * -0.478 = -14.35 -> 1471; the level 1514.
    first = await resigned_game(club, rated=True)
    await resign_to_the_computer(club)
    app = SekigaharaApp(save_dir=tmp_path, club=club.lobby_client("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        lobby = app.screen
        assert isinstance(lobby, LobbyScreen)
        beside = ("alice 1471", "bob 1515", "computer 1514")  # each player's rating beside the name
        await until(pilot, lambda: lobby.lobby is not None and all(words in screen_text(app) for words in beside), "the ratings in the lobby")
        text = screen_text(app)
        assert "signed in as alice" in text and "Your rating: 1471. e: the club's ratings · t: tournaments" in text
        assert "rated · ishida resigned" in text

        await pilot.press("e")
        await until(pilot, lambda: isinstance(app.screen, RatingsScreen) and "computer:planner  1514" in screen_text(app), "the ratings")
        screen = app.screen
        text = screen_text(app)
        rows = [line.split() for line in text.splitlines()]
        assert any(row[:6] == ["1", "bob", "1515", "1", "-", "1/1"] for row in rows if len(row) >= 6), text
        assert any(row[:4] == ["2", "computer:planner", "1514", "1"] for row in rows if len(row) >= 4), text
        assert any(row[:7] == ["3", "alice", "1471", "2", "0/2", "0%", "-"] for row in rows if len(row) >= 7), text
        assert "alice: 1500 -> 1471 over 2 rated games" in text
        assert first in text  # the history names the game (a public one)
        assert screen.query_one(Sparkline).data == [1500, 1485, 1471]

        await pilot.press("up", "up", "enter")  # bob's line: his history
        await until(pilot, lambda: "bob: 1500 -> 1515 over 1 rated game" in screen_text(app), "bob's history")
        assert screen.query_one(Sparkline).data == [1500, 1515]

        await pilot.press("escape")
        await until(pilot, lambda: app.screen is lobby, "the lobby again")

        await pilot.press("n")  # the form: Tab to the ratings question, Rated, Enter
        await until(pilot, lambda: isinstance(app.screen, ClubGameDialog), "the form")
        assert "Ratings:" in screen_text(app) and "Private: its players only" in screen_text(app)  # still fits
        await pilot.press("tab", "tab", "tab", "tab", "tab", "down", "enter")  # past the clock, to the ratings
        await until(pilot, lambda: isinstance(app.screen, ClubGameScreen), "the rated game made")
        assert club.store.terms()[app.screen.table.entry.game].rated is True
        await pilot.press("ctrl+l")
        await until(pilot, lambda: app.screen is lobby, "the lobby again")

        await pilot.press("c")  # against the computer: side, then Tab to Rated, Enter
        await until(pilot, lambda: isinstance(app.screen, VersusDialog), "the side and level dialog")
        await pilot.press("enter", "tab", "down", "enter")
        await until(pilot, lambda: isinstance(app.screen, ClubGameScreen), "the rated game against the computer")
        game = app.screen.table.entry.game
        assert club.store.terms()[game].rated is True and club.store.computer_level(game) == "heuristic"
