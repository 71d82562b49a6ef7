"""Issue 27, item 7: in hot seat, a move with no choice, when everyone can see
it has none, is given without a hand-over; one whose forcing would tell a
secret is not. From tests/tui/position_files/battle_at_gifu.toml: Tokugawa
attacks Gifu and deploys all three of his blocks."""

from __future__ import annotations

import pytest

from sekigahara_tui.screens.forced import publicly_forced
from sekigahara_tui.screens.game import GameScreen
from sekigahara_tui.screens.info import HandOverScreen
from tui.driving import take_seat, type_command
from tui.positions import record_from_position

# Up to Ishida's last deployment: Tokugawa has deployed all his blocks at Gifu.
TO_ISHIDAS_LAST_PASS = (
    "tokugawa: combat gifu",
    "tokugawa: lead fukushima-leader",
    "ishida: deploy mori-swords-1 mori-2-1",
    "tokugawa: allow",
    "tokugawa: deploy fukushima-plain-1 fukushima-2-1",
    "ishida: allow",
    "ishida: deploy ukita-plain-1 ukita-2-1",
    "tokugawa: allow",
    "tokugawa: deploy fukushima-swords-1 fukushima-cav-1",
    "ishida: allow",
)


@pytest.mark.parametrize("ask", [False, True])
async def test_a_pass_with_every_block_deployed_is_given_without_a_hand_over(make_app, ask):
    app = make_app(record_from_position("battle_at_gifu", *TO_ISHIDAS_LAST_PASS), ask_forced=ask)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        assert screen.seat.value == "ishida"
        # Ishida's own pass is forced by his hand (ukita-3-1 is left, no card for it): he is asked.
        assert [c.__class__.__name__ for c in screen.view.legal] == ["DeclareDone"]
        assert publicly_forced(screen.view) is None
        await type_command(pilot, "pass")
        await pilot.pause()
        commands = screen.table.host.record.commands
        if ask:  # the option: a hand-over as before
            assert commands[-1] == "ishida: pass"
            assert isinstance(pilot.app.screen, HandOverScreen)
        else:  # Tokugawa has nothing left to deploy, as Ishida can see: passed for him
            assert commands[-2:] == ("ishida: pass", "tokugawa: pass")
            assert isinstance(pilot.app.screen, GameScreen) and screen.seat.value == "ishida"
            said = screen.seat_memory.feedback[screen.seat][0]
            assert said.startswith("Tokugawa: ") and said.endswith("the only choice (no hand-over).")
