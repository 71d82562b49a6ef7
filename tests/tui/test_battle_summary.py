"""After each battle or siege both players see what happened (issue 13)."""

from __future__ import annotations

from rules.record import save_record
from sekigahara_tui.screens.game import GameScreen
from sekigahara_tui.screens.info import BattleSummaryScreen, HandOverScreen
from sekigahara_tui.widgets.prompt import PromptPanel
from tui.positions import battle_with_a_challenge_open
from tui.screen_text import screen_text


async def play_until_a_summary(pilot, app, limit: int = 60) -> list[tuple[str, str]]:
    """Give the first choice, seat by seat, until a battle summary shows; return
    (seat, text) for every summary seen, dismissing each."""
    seen = []
    for _ in range(limit):
        screen = app.screen
        if isinstance(screen, HandOverScreen):
            await pilot.press("enter")
            continue
        if isinstance(screen, BattleSummaryScreen):
            game = app.screen_stack[-2]
            seen.append((game.seat.value, screen_text(app)))
            await pilot.press("enter")
            if len({side for side, _ in seen}) == 2:
                return seen
            continue
        assert isinstance(screen, GameScreen)
        if seen and not screen.view.legal:
            return seen
        prompt = screen.query_one(PromptPanel)
        prompt.choices.focus()
        prompt.choices.highlighted = 0
        await pilot.press("enter")
    return seen


async def test_both_players_see_the_battle_summary_with_the_challenge_result(make_app, tmp_path):
    path = tmp_path / "position.json"
    save_record(battle_with_a_challenge_open(), path)
    app = make_app(load=path)
    async with app.run_test(size=(80, 24)) as pilot:
        seen = await play_until_a_summary(pilot, app)
        assert {side for side, _ in seen} == {"ishida", "tokugawa"}
        for side, text in seen:
            assert "Battle at Gifu" in text
            assert "Enter continues" in text
            assert "challenge" in text.lower()  # the Loyalty Challenge and its result (8.6)
