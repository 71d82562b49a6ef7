"""The lobby's `n` form asks the clock and, with one, what happens on time
out (issue 24), at 80x24 with keys only: the game is made with them; with
no clock the time-out question is skipped."""

from __future__ import annotations

from sekigahara_tui.app import SekigaharaApp
from sekigahara_tui.screens.club_game_dialog import ClubGameDialog
from sekigahara_tui.screens.lobby import ClubGameScreen
from tui.driving import until
from tui.screen_text import screen_text


async def new_game_with_keys(app, pilot, *keys: str):
    await until(pilot, lambda: getattr(app.screen, "lobby", None) is not None and not isinstance(app.screen, ClubGameScreen), "the lobby")
    await pilot.press("n")
    await until(pilot, lambda: isinstance(app.screen, ClubGameDialog), "the form")
    text = screen_text(app)
    await pilot.press(*keys)
    await until(pilot, lambda: isinstance(app.screen, ClubGameScreen), "the game made")
    entry = app.screen.table.entry
    await pilot.press("ctrl+l")
    return text, entry


async def test_n_asks_the_clock_and_the_time_out_rule_at_80x24(club, tmp_path):
    app = SekigaharaApp(save_dir=tmp_path, club=club.lobby_client("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        # opponent, name, side, who may watch, clock: daily (two down from none), out of time: level 2
        text, entry = await new_game_with_keys(app, pilot, "tab", "tab", "tab", "tab", "down", "down", "tab",
                                               "down", "down", "down", "enter")
        for words in ("Clock:", "No clock", "live  45m + 30s, at most 1h", "daily 1d + 4h, at most 3d", "slow",
                      "Out of time:", "The side out of time loses", "The computer finishes, level 2"):
            assert words in text, words
        assert all(len(row) <= 80 for row in text.split("\n")) and len(text.split("\n")) <= 24
        assert club.store.clock_terms(entry.game) == ("daily", "stand-in:planner")

        # live, loses: the time-out question as it stands
        _, entry = await new_game_with_keys(app, pilot, "tab", "tab", "tab", "tab", "down", "enter")
        assert club.store.clock_terms(entry.game) == ("live", "lose")

        # no clock: Tab from the clock skips the time-out question (it would not apply): to the ratings, then back to the opponent
        await until(pilot, lambda: not isinstance(app.screen, ClubGameScreen), "the lobby")
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, ClubGameDialog), "the form")
        await pilot.press("tab", "tab", "tab", "tab", "tab")
        assert app.focused is not None and app.focused.id == "rated"
        await pilot.press("tab")
        assert app.focused is not None and app.focused.id == "opponent"
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, ClubGameScreen), "the game made")
        assert club.store.clock_terms(app.screen.table.entry.game) == ("none", "lose")


async def test_the_form_has_its_own_key_bar_at_80x24(club, tmp_path):
    """The form's keys in the bar at the bottom, none of the lobby's underneath
    (which the form does not take); Enter from the bar's key makes the game."""
    app = SekigaharaApp(save_dir=tmp_path, club=club.lobby_client("alice"))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: getattr(app.screen, "lobby", None) is not None, "the lobby")
        assert "n New game" in screen_text(app).split("\n")[-1]
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, ClubGameDialog), "the form")
        await until(pilot, lambda: "Make it" in screen_text(app).split("\n")[-1], "the form's key bar")
        text = screen_text(app)
        bar = text.split("\n")[-1]
        for words in ("Make it", "tab Next question", "esc Cancel"):
            assert words in bar, bar
        for words in ("New game", "Computer", "Watch", "Refresh"):
            assert words not in bar, bar
        assert len(text.split("\n")) <= 24 and "Private: its players only" in text  # the form still whole above it
        await pilot.press("tab", "enter")  # to the side; Enter makes the game as the form stands
        await until(pilot, lambda: isinstance(app.screen, ClubGameScreen), "the game made")
