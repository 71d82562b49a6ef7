"""ctrl+t at 80x24 (issue 27 play-test, item 3): while the tabs fill the screen
the keys act on them, never on a hidden widget, and when they leave it the
focus is back where it was before ctrl+t. From tests/tui/position_files/
tokugawa_chooses_movement.toml: Tokugawa chooses his movement option."""

from __future__ import annotations

from textual.widgets import TabbedContent, Tabs

from sekigahara_tui.widgets.map_panel import MapPanel
from sekigahara_tui.widgets.prompt import PromptPanel
from tui.driving import choice_notations, take_seat
from tui.positions import record_from_position

POSITION = "tokugawa_chooses_movement"


async def test_after_ctrl_t_and_esc_the_choices_have_the_focus_again_and_take_down_and_enter(make_app):
    async with make_app(record_from_position(POSITION)).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        screen.query_one("#tabs", TabbedContent).active = "log-tab"
        await pilot.pause()
        assert screen.focused is screen.query_one(PromptPanel).choices
        second = choice_notations(screen)[1]
        await pilot.press("ctrl+t")
        assert screen.maximized is not None and isinstance(screen.focused, Tabs)
        await pilot.press("escape")
        await pilot.pause()
        assert screen.maximized is None and screen.focused is screen.query_one(PromptPanel).choices
        await pilot.press("down", "enter")
        await pilot.pause()
        assert screen.table.host.record.commands == (f"tokugawa: {second}",)


async def test_in_the_whole_screen_tabs_right_switches_tabs_and_leaves_the_hidden_map_alone(make_app):
    async with make_app(record_from_position(POSITION)).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        map_panel = screen.query_one(MapPanel)
        map_panel.focus()
        await pilot.pause()
        cursor = map_panel.cursor
        await pilot.press("ctrl+t", "right")
        await pilot.pause()
        assert screen.query_one("#tabs", TabbedContent).active == "log-tab"
        assert map_panel.cursor == cursor
        await pilot.press("ctrl+t")  # ctrl+t again: back, the focus on the map where it was
        await pilot.pause()
        assert screen.maximized is None and map_panel.has_focus


async def test_colon_in_the_whole_screen_tabs_brings_the_command_line_back_first(make_app):
    async with make_app(record_from_position(POSITION)).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        prompt = screen.query_one(PromptPanel)
        await pilot.press("ctrl+t", "colon")
        await pilot.pause()
        assert screen.maximized is None and prompt.command_line.has_focus
        await pilot.press("escape")  # the empty line: back to where the focus was before ctrl+t
        await pilot.pause()
        assert prompt.choices.has_focus
