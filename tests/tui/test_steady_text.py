"""Issue 27, item 11: the message line asks for a layout only when the rows
its text takes change (widgets/steady_text.py). Whatever the order of short
and long messages, each is on screen whole, in exactly the rows it needs
(but the echo of a command given: widgets/message_line.py)."""

from __future__ import annotations

from textual.widgets import Static

from sekigahara_tui.widgets.prompt import PromptPanel
from sekigahara_tui.widgets.steady_text import rows_for
from tui.driving import take_seat
from tui.positions import record_from_position
from tui.screen_text import region_text

# News, not the echo of a command given ("Done: ..."), which keeps the fewest rows (test_steady_layout.py).
ONE_ROW = "Took back: pass"
TWO_ROWS = "Took back: No movement: exchange cards (7.1)"
THREE_ROWS = "Took back: Limited: 3 stack moves (a muster may replace one of them) (7.1)"


async def test_each_message_takes_the_rows_it_needs_in_any_order(make_app):
    async with make_app(record_from_position("battle_at_gifu")).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        prompt = screen.query_one(PromptPanel)
        message = prompt.query_one("#message", Static)
        seen = []
        for text in (ONE_ROW, THREE_ROWS, TWO_ROWS, TWO_ROWS + " ", ONE_ROW, THREE_ROWS, ONE_ROW):
            prompt.say(text)
            await pilot.pause()
            await pilot.pause()
            assert " ".join(region_text(pilot.app, "#message").split()) == " ".join(text.split())
            seen.append(message.content_region.height)
        low = int(message.styles.min_height.value)  # 1 at 80x24 (.-short), 2 on a taller screen
        assert seen == [max(low, 1), 3, max(low, 2), max(low, 2), max(low, 1), 3, max(low, 1)]


async def test_rows_for_counts_wrapped_rows_within_the_lines_bounds(make_app):
    async with make_app(record_from_position("battle_at_gifu")).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        message = screen.query_one(PromptPanel).query_one("#message", Static)
        width = message.content_region.width
        assert rows_for(message, "x" * width) == 1
        assert rows_for(message, "x" * (width + 1)) == 2
        assert rows_for(message, "x" * (10 * width)) == 3  # the stylesheet's max-height
        assert rows_for(Static(), "anything") is None  # never laid out: unknown, so a layout is asked for
