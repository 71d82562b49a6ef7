"""Every stop of Tab shows the focus by more than colour (issue 27 play-test,
item 6): the characters drawn in a widget's region differ when it has the
focus (a heavy border, or a heavy bar at its left edge), so the focus reads on
a monochrome terminal and with NO_COLOR, which the tests set. At 80x24, on the
map (tests/tui/position_files/tokugawa_chooses_movement.toml), in a battle
(battle_at_gifu.toml) and with ctrl+t's whole-screen tabs."""

from __future__ import annotations

import pytest
from textual.widgets import TabbedContent

from tui.driving import take_seat
from tui.positions import battle_with_a_challenge_open, record_from_position
from tui.screen_text import screen_text


def drawn(app, widget) -> list[str]:
    region = widget.region
    rows = screen_text(app).split("\n")[region.y:region.bottom]
    return [row.ljust(region.right)[region.x:region.right] for row in rows]


async def every_stop_shows_its_focus(pilot, screen) -> list[str]:
    """Each widget of the focus chain drawn focused and not: they differ."""
    chain = list(screen.focus_chain)
    if screen.maximized is not None:  # as Tab goes: only what is shown (Screen._move_focus)
        shown = set(screen.maximized.walk_children(with_self=True))
        chain = [widget for widget in chain if widget in shown]
    assert len(chain) >= 2
    stops = []
    for index, widget in enumerate(chain):
        other = chain[index - 1]
        screen.set_focus(other)
        await pilot.pause()
        unfocused = drawn(pilot.app, widget)
        screen.set_focus(widget)
        await pilot.pause()
        assert drawn(pilot.app, widget) != unfocused, f"{widget!r} shows no mark when focused"
        stops.append(widget.id or type(widget).__name__)
    return stops


@pytest.fixture(autouse=True)
def no_color(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")


@pytest.mark.parametrize("tab", ["log-tab", "public-tab"])
async def test_on_the_map_every_stop_shows_its_focus(make_app, tab):
    async with make_app(record_from_position("tokugawa_chooses_movement")).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        assert pilot.app.no_color
        screen.query_one("#tabs", TabbedContent).active = tab
        await pilot.pause()
        stops = await every_stop_shows_its_focus(pilot, screen)
        assert {"map", "choices", "command-line", "ContentTabs"} <= set(stops)


async def test_in_a_battle_every_stop_shows_its_focus(make_app):
    async with make_app(battle_with_a_challenge_open()).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        screen.query_one("#tabs", TabbedContent).active = "log-tab"
        await pilot.pause()
        stops = await every_stop_shows_its_focus(pilot, screen)
        assert {"battle-view", "choices", "command-line", "ContentTabs", "log"} <= set(stops)


async def test_in_the_whole_screen_tabs_every_stop_shows_its_focus(make_app):
    async with make_app(battle_with_a_challenge_open()).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        screen.query_one("#tabs", TabbedContent).active = "public-tab"
        await pilot.press("ctrl+t")
        await pilot.pause()
        stops = await every_stop_shows_its_focus(pilot, screen)
        assert set(stops) == {"ContentTabs", "public-scroll"}
