"""Hints on the game screen (issue 25, section 3): h asks level 2 what it
would do now. It thinks in a worker process while every key stays live, the
hint shows in a pop-up readable at 80x24 whose Enter plays it, a hot-seat
hint never reaches the other seat, a rated game has none, and what crosses
to the worker is the seat's view and its own log, nothing more (R55)."""

from __future__ import annotations

import asyncio
import pickle

import attrs

from knowledge_model import assert_justified, models_along, pickled_words
from rules.infra.record import replay_steps
from rules.notation import format_command
from rules.sides import Side
from sekigahara_tui.bots.workers import DecisionPool
from sekigahara_tui.screens import info
from sekigahara_tui.screens.hints import HintScreen
from sekigahara_tui.seat import GameTerms
from sekigahara_tui.widgets.map_panel import MapPanel
from sekigahara_tui.widgets.prompt import PromptPanel
from tui.driving import take_seat, type_command, until
from tui.positions import hot_seat_game, ishida_moves_from_osaka, opening_bid
from tui.screen_text import region_text, screen_text
from worker_gates import GatedPool

BUDGET = 0.05  # seconds level 2 thinks over a test's hint


def message(screen) -> str:
    return str(screen.query_one("#message").render())


async def test_h_thinks_in_a_worker_while_keys_work_and_its_pop_up_plays_the_hint_at_80x24(make_app, settle_clock):
    gated = GatedPool()
    app = make_app(record=ishida_moves_from_osaka())
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await take_seat(pilot)
            screen.hints.pool, screen.hints.budget_s = gated.pool, BUDGET
            commands = screen.table.host.record.commands
            await pilot.press("h")
            assert "thinking" in message(screen)
            await asyncio.to_thread(gated.entered.wait, 60)
            assert gated.entered.is_set()  # level 2 is thinking in its worker, held there
            # Keys pressed meanwhile are handled: the map zooms out, the highlight moves.
            board, choices = screen.query_one(MapPanel), screen.query_one(PromptPanel).choices
            overview, highlighted = board.overview, choices.highlighted
            await pilot.press("ctrl+o")
            await pilot.press("down")
            assert board.overview != overview and choices.highlighted != highlighted
            assert not isinstance(app.screen, HintScreen) and screen.hints.shown == 0
            gated.open()
            await until(pilot, lambda: isinstance(app.screen, HintScreen), "the hint")
            command, reason = screen.hints.last
            assert command in screen.view.legal and reason
            # Readable at 80x24: the pop-up lies within the screen, its words whole.
            await until(pilot, lambda: "Enter plays it" in region_text(app, "#hint"), "the hint drawn")
            assert app.screen.query_one("#hint").region.right <= 80
            shown = region_text(app, "#hint")
            assert "Hint: level 2 would play" in shown and "Enter plays it" in shown
            assert reason.split()[0] in shown and "Why:" in shown
            settle_clock.wait(info.SETTLE_S)
            await pilot.press("enter")
            await until(pilot, lambda: len(screen.table.host.record.commands) > len(commands), "the hint played")
            assert screen.table.host.record.commands[-1] == format_command(command)
    finally:
        gated.close()


async def test_a_hot_seat_hint_that_returns_after_the_keyboard_passed_is_never_shown(make_app):
    """R55: Ishida asks, then bids; the keyboard passes to Tokugawa before the
    hint comes back, so it is dropped, and only Ishida is told so."""
    gated = GatedPool()
    app = make_app(record=opening_bid())
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await take_seat(pilot)
            assert screen.seat is Side.ISHIDA
            screen.hints.pool, screen.hints.budget_s = gated.pool, BUDGET
            await pilot.press("h")
            await asyncio.to_thread(gated.entered.wait, 60)
            bid = next(c for c in screen.view.legal if format_command(c, with_side=False).startswith("bid"))
            await type_command(pilot, format_command(bid, with_side=False))
            await until(pilot, lambda: screen.seat is Side.TOKUGAWA, "the keyboard passing")
            gated.open()
            await until(pilot, lambda: screen.hints.task.done(), "the hint's answer")
            await take_seat(pilot)
            assert screen.hints.shown == 0 and not isinstance(app.screen, HintScreen)
            assert "Hint" not in screen_text(app)
            assert "Hint dropped" in screen.seat_memory.feedback[Side.ISHIDA][0]
    finally:
        gated.close()


async def test_a_rated_game_has_no_hints_and_says_so_in_one_line(make_app):
    app = make_app(record=ishida_moves_from_osaka())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        screen.table.terms = GameTerms(rated=True)
        await pilot.press("h")
        assert message(screen) == "h: no hints in a rated game"
        assert screen.hints.task is None  # nothing was asked of a worker


async def test_what_crosses_to_the_hint_s_worker_is_the_seat_s_view_and_its_own_log(make_app):
    record = hot_seat_game(40_013)  # a seed no small number of the game could be
    record = attrs.evolve(record, commands=record.commands[:160])  # mid-game: much is hidden
    sent: list[bytes] = []
    pool = DecisionPool(1, quiet=True, tap=lambda tag, data: sent.append(data))
    app = make_app(record=record)
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await take_seat(pilot)
            screen.hints.pool, screen.hints.budget_s = pool, BUDGET
            side, host = screen.seat, screen.table.host
            await pilot.press("h")
            await until(pilot, lambda: screen.hints.shown == 1, "the hint")
            assert len(sent) == 1
            decision = pickle.loads(sent[0])
            assert (decision.side, decision.level) == (side, "planner")
            assert decision.view == host.view(side)
            assert [e for chunk in decision.log for e in pickle.loads(chunk)] == host.events_for(side)
            steps = list(replay_steps(host.record))
            state, model = steps[-1][1], models_along(steps)[-1]
            in_view, in_log, numbers = pickled_words(sent[0])
            assert_justified(in_view, model.may_name_in_view(side, state), side, state, "in the hint's view")
            assert_justified(in_log, model.may_name_in_log(side), side, state, "in the hint's log")
            assert state.seed not in numbers and record.seed not in numbers
    finally:
        pool.close_soon()


async def test_against_the_computer_a_hint_goes_to_the_computer_s_own_worker(make_app):
    """The game against the computer already keeps one worker (versus.py): a
    hint waits its turn there rather than starting a second process."""
    gated = GatedPool()
    app = make_app()
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            app.versus(7, Side.ISHIDA, "planner", pace=0, pool=gated.pool)
            await pilot.pause()
            screen = await take_seat(pilot)
            screen.hints.budget_s = BUDGET
            await asyncio.to_thread(gated.entered.wait, 60)  # the computer's bid, held
            await pilot.press("h")
            assert "thinking" in message(screen)
            assert screen.hints._own is None  # no worker of the screen's own
            gated.open()
            await until(pilot, lambda: screen.hints.task.done(), "the hint's answer")
            assert screen.hints._own is None and "No hint" not in message(screen)
            assert len(gated.pids) >= 2 and len(set(gated.pids)) == 1  # the bid and the hint (and more), one worker
    finally:
        gated.close()
