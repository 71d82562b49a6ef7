"""SVG snapshots of the main screens at 80x24 and 160x50 (pytest-textual-snapshot).

Regenerate after a deliberate change with `pytest tests/tui/test_snapshots.py --snapshot-update`
and look at the report before committing.
"""

from __future__ import annotations

import pytest

from rules.infra.record import save_record
from sekigahara_tui.app import SekigaharaApp
from tui.driving import take_seat, type_command
from tui.positions import (battle_with_a_challenge_open, finished_game, ishida_moves_from_osaka, opening_bid,
                          record_from_position)

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((160, 50), id="160x50")]


def app_at(tmp_path, record) -> SekigaharaApp:
    path = tmp_path / "position.json"
    save_record(record, path)
    return SekigaharaApp(save_dir=tmp_path / "data", load=path)


@pytest.mark.parametrize("size", SIZES)
def test_main_menu(snap_compare, tmp_path, size):
    assert snap_compare(SekigaharaApp(save_dir=tmp_path), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_hand_over(snap_compare, tmp_path, size):
    assert snap_compare(app_at(tmp_path, opening_bid()), terminal_size=size)


@pytest.mark.parametrize("size", SIZES)
def test_game_screen_during_a_stack_move(snap_compare, tmp_path, size):
    record = ishida_moves_from_osaka()

    async def run_before(pilot) -> None:
        await type_command(pilot, "move osaka")
        await type_command(pilot, "select ukita-2-1")
        screen = await take_seat(pilot)
        screen.query_one("#choices").focus()

    assert snap_compare(app_at(tmp_path, record), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_battle_view_with_a_loyalty_challenge_open(snap_compare, tmp_path, size):
    record = battle_with_a_challenge_open()

    async def run_before(pilot) -> None:
        await take_seat(pilot)

    assert snap_compare(app_at(tmp_path, record), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_decision_help(snap_compare, tmp_path, size):
    async def run_before(pilot) -> None:
        await take_seat(pilot)
        await pilot.press("question_mark")

    assert snap_compare(app_at(tmp_path, opening_bid()), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_game_over(snap_compare, tmp_path, size):
    assert snap_compare(app_at(tmp_path, finished_game()), terminal_size=size)


def test_public_information_at_80x24(snap_compare, tmp_path):
    record = record_from_position("tokugawa_moves_in_week_2", "tokugawa: movement minimal")

    async def run_before(pilot) -> None:
        from textual.widgets import TabbedContent

        screen = await take_seat(pilot)
        screen.query_one(TabbedContent).active = "public-tab"
        await pilot.press("ctrl+t")  # at 80x24 the tabs take the screen on ctrl+t (issue 27, item 10)
        await pilot.pause()

    assert snap_compare(app_at(tmp_path, record), terminal_size=(80, 24), run_before=run_before)


def test_battle_summary_at_80x24(snap_compare, tmp_path):
    from tui.test_battle_summary import play_until_a_summary
    from sekigahara_tui.screens.info import BattleSummaryScreen

    async def run_before(pilot) -> None:
        app = pilot.app
        for _ in range(60):  # the first summary, to the seat that sees it first
            if isinstance(app.screen, BattleSummaryScreen):
                return
            await play_until_a_summary(pilot, app, limit=1)
        raise AssertionError("no battle summary")

    assert snap_compare(app_at(tmp_path, battle_with_a_challenge_open()), terminal_size=(80, 24), run_before=run_before)


def test_overview_during_a_stack_move_at_80x24(snap_compare, tmp_path):
    """ctrl+o: the whole board at once, each location a short mark with its counts."""
    record = ishida_moves_from_osaka()

    async def run_before(pilot) -> None:
        await type_command(pilot, "move osaka")
        await type_command(pilot, "select ukita-2-1")
        screen = await take_seat(pilot)
        await pilot.press("ctrl+o")
        screen.query_one("#choices").focus()

    assert snap_compare(app_at(tmp_path, record), terminal_size=(80, 24), run_before=run_before)
