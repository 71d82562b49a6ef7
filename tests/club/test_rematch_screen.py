"""The game over screen's rematch key at 80x24, against a real club (issue
24): ctrl+n offers the same opponent a new game with sides swapped, an invitation
they find in their lobby; a hot-seat game over screen has no such key."""

from __future__ import annotations

import asyncio

from tui.driving import until
from sekigahara_tui.app import SekigaharaApp
from sekigahara_tui.screens.info import GameOverScreen
from sekigahara_tui.screens.lobby import ClubGameScreen
from tui.screen_text import screen_text


async def test_ctrl_n_on_the_game_over_screen_offers_the_swapped_rematch(club, tmp_path):
    app = SekigaharaApp(save_dir=tmp_path, club=club.lobby_client("alice"))
    bob = club.lobby_client("bob")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: getattr(app.screen, "lobby", None) is not None, "the lobby")
        await pilot.press("n", "enter")
        await until(pilot, lambda: isinstance(app.screen, ClubGameScreen), "the game screen")
        game_screen = app.screen
        game, mine = game_screen.table.entry.game, game_screen.table.entry.seat
        seat = bob.seat_client(await bob.join(game))
        task = asyncio.create_task(seat.run())
        await until(pilot, lambda: game_screen.current.view is not None and seat.view is not None, "both seated")
        await club.server.results.end_outside_rules(club.server.games.find(game), "resigned", mine.other, "bob")
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen), "the game over screen")
        assert app.screen.check_action("rematch", ()) is True
        await pilot.press("ctrl+n")
        await until(pilot, lambda: "Rematch offered" in screen_text(app), "the rematch said")
        offered = [line for line in (await bob.lobby()).invitations]
        assert len(offered) == 1 and offered[0].invited == "bob"
        assert offered[0].player(mine.other) == "alice" and offered[0].player(mine) is None  # sides swapped
        assert club.store.terms()[offered[0].game].rematch_of == game
        await seat.close()
        await task
    await bob.close()


async def test_n_asks_opponent_side_and_who_may_watch_at_80x24(club, tmp_path):
    """The form fits 80x24; a member by name, Tokugawa, private: an invitation
    to bob that carol is not shown."""
    from sekigahara_tui.screens.club_game_dialog import ClubGameDialog

    app = SekigaharaApp(save_dir=tmp_path, club=club.lobby_client("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: getattr(app.screen, "lobby", None) is not None, "the lobby")
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, ClubGameDialog), "the form")
        text = screen_text(app)
        for words in ("Opponent:", "Open to any member", "A member, by name", "The computer", "Your side:", "Tokugawa",
                      "Who may watch:", "Private: its players only"):
            assert words in text, words
        await pilot.press("enter")  # the form as it stands: open, either side, public
        await until(pilot, lambda: isinstance(app.screen, ClubGameScreen), "the open game made")
        open_game = app.screen.table.entry.game
        await pilot.press("ctrl+l")
        await until(pilot, lambda: getattr(app.screen, "lobby", None) is not None and not isinstance(app.screen, ClubGameScreen), "the lobby")
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, ClubGameDialog), "the form again")
        await pilot.press("down")  # a member by name: the name box takes the keys
        await pilot.press(*"bob")
        await pilot.press("tab", "down", "down", "tab", "down")  # Tokugawa; private
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ClubGameScreen), "the invitation made")
        entry = app.screen.table.entry
        assert entry.seat.value == "tokugawa" and entry.game != open_game
        terms = club.store.terms()[entry.game]
        assert terms.invited == "bob" and terms.private is True
