"""A whole seeded game played to its end through the app (issue 5)."""

from __future__ import annotations

from tui.driving import submit_command_line
from rules.infra.record import load_record
from sekigahara_tui.screens.game import GameScreen
from sekigahara_tui.screens.info import GameOverScreen
from tui.positions import hot_seat_game
from tui.screen_text import screen_text

# Seed 22's random hot-seat game is the shortest of the first 200 (91
# commands, into week 2) and ends by instant victory: it covers a reinforcement
# step, a battle, a siege and the end.
SEED = 22


async def test_a_whole_seeded_game_plays_to_its_end_through_the_command_line(make_app):
    scripted = hot_seat_game(SEED)
    app = make_app(seed=SEED)
    async with app.run_test(size=(80, 24)) as pilot:
        given_for_them = 0
        for n, line in enumerate(scripted.commands):
            games = [s for s in pilot.app.screen_stack if isinstance(s, GameScreen)]
            if games and len(games[-1].table.host.record.commands) > n:
                record = games[-1].table.host.record
                assert record.commands[n] == line  # a move with no choice, given without a hand-over (forced.py)
                given_for_them += 1
                continue
            side, text = line.split(": ", 1)
            screen = await submit_command_line(pilot, side, text)
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        shown = screen_text(app)
        assert "Tokugawa wins." in shown
        assert "Ishida Mitsunari was eliminated (2.1)" in shown
        assert screen.table.host.record == scripted
        assert given_for_them >= 1  # seed 22 has a pass with every block deployed
    assert load_record(app.autosave_path) == scripted
