"""A whole seeded game played to its end through the app (issue 5)."""

from __future__ import annotations

from tui.driving import submit_command_line
from rules.record import load_record
from rules.selfplay import random_game
from sekigahara_tui.screens.info import GameOverScreen
from tui.screen_text import screen_text

# Seed 78's random game is the shortest of the first hundred or so (250
# commands) and ends by instant victory, so it covers battles, sieges and the end.
SEED = 78


async def test_a_whole_seeded_game_plays_to_its_end_through_the_command_line(make_app):
    scripted = random_game(SEED)
    app = make_app(seed=SEED)
    async with app.run_test(size=(80, 24)) as pilot:
        for line in scripted.record.commands:
            side, text = line.split(": ", 1)
            screen = await submit_command_line(pilot, side, text)
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        shown = screen_text(app)
        assert "Ishida wins." in shown
        assert "Tokugawa Ieyasu was eliminated (2.1)" in shown
        assert screen.host.record == scripted.record
    assert load_record(app.autosave_path) == scripted.record
