"""One autosave a game (issue 27, item 13): a new game, hot seat or against the
computer, never overwrites another game's autosave; Load lists them, newest first."""

from __future__ import annotations

import os

from rules.infra.record import load_record
from rules.surface import Side
from sekigahara_tui.app import AUTOSAVES, KEPT_AUTOSAVES
from sekigahara_tui.screens.dialogs import LoadDialog
from tui.driving import choice_notations, choose, take_seat


async def test_a_game_against_the_computer_leaves_the_hot_seat_games_autosave_alone(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.start(11)
        await pilot.pause()
        screen = await take_seat(pilot)
        await choose(pilot, choice_notations(screen)[0])  # Ishida's bid
        hot_seat, hot_seat_record = app.autosave_path, screen.table.host.record
        screen.table.host.flush_autosave()  # written by a thread: on disk once flushed
        assert hot_seat.name.endswith("-hot-seat.json") and load_record(hot_seat) == hot_seat_record
        app.pop_screen()
        app.versus(12, Side.TOKUGAWA, "heuristic", pace=0)
        await pilot.pause()
        versus = app.autosave_path
        assert versus != hot_seat and versus.name.endswith("-tokugawa-vs-heuristic.json")
        assert load_record(hot_seat) == hot_seat_record  # untouched
        assert load_record(versus).seed == 12
        assert app.saves()[:2] == [versus, hot_seat]  # what Load offers, newest first
        app.pop_screen()
        app.action_load_game()
        await pilot.pause()
        assert isinstance(app.screen, LoadDialog)


async def test_an_autosave_loaded_goes_on_in_the_same_file(make_app, tmp_path):
    first = make_app()
    async with first.run_test(size=(80, 24)) as pilot:
        first.start(11)
        await pilot.pause()
        screen = await take_seat(pilot)
        await choose(pilot, choice_notations(screen)[0])
        autosave = first.autosave_path
    again = make_app(load=autosave)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = await take_seat(pilot)
        await choose(pilot, choice_notations(screen)[0])  # Tokugawa's bid
        assert again.autosave_path == autosave
        assert len(load_record(autosave).commands) == 2
    assert [p.name for p in (tmp_path / "data" / AUTOSAVES).iterdir()] == [autosave.name]


async def test_only_the_newest_autosaves_are_kept(make_app, tmp_path):
    folder = tmp_path / "data" / AUTOSAVES
    folder.mkdir(parents=True)
    for n in range(KEPT_AUTOSAVES + 5):
        old = folder / f"2026-01-01-0000{n:02}-hot-seat.json"
        old.write_text("{}")
        os.utime(old, (1_000_000 + n, 1_000_000 + n))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.start(11)
        await pilot.pause()
        kept = sorted(p.name for p in folder.iterdir())
    assert len(kept) == KEPT_AUTOSAVES and app.autosave_path.name in kept
    assert "2026-01-01-000000-hot-seat.json" not in kept and f"2026-01-01-0000{KEPT_AUTOSAVES + 4}-hot-seat.json" in kept
