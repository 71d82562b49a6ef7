"""The log wraps to the panel's width and never loses a character (issue 13)."""

from __future__ import annotations

import random

import pytest
from textual.widgets import TabbedContent

from sekigahara_tui.widgets.log import LogPanel
from tui.driving import take_seat
from tui.positions import opening_bid


def a_line(length: int, seed: int) -> str:
    """A line of `length` characters: words of 1-12 letters, a few very long ones, punctuation."""
    chooser = random.Random(seed)
    words = []
    while sum(len(w) + 1 for w in words) < length:
        size = chooser.choice([1, 3, 5, 8, 12, 40]) if chooser.random() < 0.9 else 90
        words.append("".join(chooser.choice("abcdefghijklmnopqrstuvwxyz,.:;()-0123456789") for _ in range(size)))
    return " ".join(words)[:length]


def shown(log: LogPanel) -> list[str]:
    return [strip.text for strip in log.lines]


def assert_whole(original: str, rows: list[str], width: int) -> None:
    assert all(len(row.rstrip()) <= width for row in rows), (width, rows)
    assert "".join(original.split()) == "".join("".join(rows).split())


LENGTHS = [0, 1, 29, 30, 31, 32, 33, 60, 77, 78, 79, 80, 120, 157, 300, 1000]


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
async def test_a_log_line_of_any_length_wraps_to_the_panel_without_losing_a_character(make_app, size):
    app = make_app(opening_bid())
    async with app.run_test(size=size) as pilot:
        screen = await take_seat(pilot)
        screen.query_one(TabbedContent).active = "log-tab"
        await pilot.pause()
        log = screen.query_one(LogPanel)
        width = log.scrollable_content_region.width
        assert 20 <= width < size[0] // 2
        for seed, length in enumerate(LENGTHS):
            line = a_line(length, seed)
            log.clear()
            log.add_line(line)
            assert_whole(line, shown(log), width)
            assert len(shown(log)) >= -(-length // width)


async def test_lines_are_wrapped_again_when_the_panel_changes_width(make_app):
    app = make_app(opening_bid())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        screen.query_one(TabbedContent).active = "log-tab"
        await pilot.pause()
        log = screen.query_one(LogPanel)
        lines = [a_line(length, seed) for seed, length in enumerate(LENGTHS)]
        log.clear()
        for line in lines:
            log.add_line(line)
        narrow = shown(log)
        await pilot.resize_terminal(160, 50)
        await pilot.pause()
        wide = log.scrollable_content_region.width
        assert wide > 40
        assert len(shown(log)) < len(narrow)
        assert_whole(" ".join(lines), shown(log), wide)


async def test_the_log_written_before_the_tab_is_shown_is_wrapped_to_the_panel(make_app):
    """A hidden log defers its lines; shown later, they wrap to the panel, not 78 columns."""
    app = make_app(opening_bid())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        from tui.driving import choose

        await choose(pilot, "bid mori-plain-9")
        screen = await take_seat(pilot)
        await choose(pilot, "bid date-swords-3")
        screen = await take_seat(pilot)
        screen.query_one(TabbedContent).active = "log-tab"
        await pilot.pause()
        log = screen.query_one(LogPanel)
        width = log.scrollable_content_region.width
        assert log.lines and all(len(strip.text.rstrip()) <= width for strip in log.lines)
        assert "".join("".join(log._texts).split()) == "".join("".join(shown(log)).split())


async def test_lines_added_while_the_log_was_shown_then_hidden_wrap_to_the_panel_when_it_shows_again(make_app):
    """Issue 27, fault 1: in hot seat Tokugawa's Log tab was shown, then Ishida's
    screen (Hand tab) hid it; every line added meanwhile was wrapped at one
    column, one character a row, for the rest of the session."""
    app = make_app(opening_bid())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        tabs = screen.query_one(TabbedContent)
        tabs.active = "log-tab"
        await pilot.pause()
        log = screen.query_one(LogPanel)
        width = log.scrollable_content_region.width
        log.clear()
        log.add_line(a_line(60, 1))
        tabs.active = "hand-tab"
        await pilot.pause()
        assert log.scrollable_content_region.width == 0  # hidden: what the old code wrapped at
        hidden = [a_line(length, seed) for seed, length in enumerate([33, 77, 120], start=2)]
        for line in hidden:
            log.add_line(line)
        tabs.active = "log-tab"
        await pilot.pause()
        assert log.scrollable_content_region.width == width
        assert_whole(" ".join([a_line(60, 1), *hidden]), shown(log), width)
        assert len(shown(log)) <= sum(-(-len(line) // width) + 1 for line in [a_line(60, 1), *hidden])
