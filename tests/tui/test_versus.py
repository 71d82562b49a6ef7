"""Playing against the computer from the main menu (issue 14, section 1)."""

from __future__ import annotations

import asyncio

from rules.describe import describe
from rules.notation import format_command
from rules.sides import Side
from rules.state import DecisionKind
from sekigahara_tui.bots.base import make_bot
from sekigahara_tui.hosting.host import GameHost
from sekigahara_tui.screens.game import GameScreen
from sekigahara_tui.screens.versus_dialog import VersusDialog
from sekigahara_tui.versus import VersusTable
from sekigahara_tui.widgets.log import LogPanel
from tui.driving import choice_notations, choose, take_seat


async def wait_for(pilot, condition, tries: int = 400) -> None:
    for _ in range(tries):
        if condition():
            return
        await pilot.pause(0.01)
    raise AssertionError("the condition never held")


async def test_a_game_against_the_computer_from_the_menu(make_app):
    app = make_app()
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.press("c")
        assert isinstance(app.screen, VersusDialog)
        await pilot.press("enter")  # I play Ishida (the first side)
        await pilot.press("enter")  # at the highlighted level: heuristic
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, GameScreen), type(screen).__name__
        table = screen.table
        assert isinstance(table, VersusTable)
        assert (table.human, table.bot_side, table.level) == (Side.ISHIDA, Side.TOKUGAWA, "heuristic")
        assert list(table.seats) == [Side.ISHIDA] and not table.hot_seat  # no hand-over screen
        table.pace = 0.02
        # The first decision is a simultaneous bid: the player bids by keys.
        assert screen.view.decision.kind is DecisionKind.BID
        bid = choice_notations(screen)[0]
        await choose(pilot, bid)
        # The computer's bid arrives, and the bids are revealed in the player's log.
        await wait_for(pilot, lambda: any(c.startswith("tokugawa:") for c in table.host.record.commands))
        log = screen.query_one(LogPanel)
        await wait_for(pilot, lambda: any("tokugawa" in line.lower() and "bid" in line.lower() for line in log._texts))
        seen = table.host.events_for(Side.ISHIDA)
        assert describe(seen[-1], Side.ISHIDA) in list(log._texts)


async def test_the_computer_waits_its_pace_and_ctrl_f_skips_ahead(make_app):
    app = make_app()
    async with app.run_test(size=(160, 50)) as pilot:
        app.versus(7, Side.TOKUGAWA, "heuristic", pace=30.0)  # far too slow to follow on its own
        await pilot.pause()
        screen = await take_seat(pilot)
        table = screen.table
        assert table.bot_to_act()  # Ishida bids too
        await pilot.pause(0.05)
        assert table.bot_commands == 0  # still waiting its pace
        await pilot.press("ctrl+f")
        await wait_for(pilot, lambda: table.bot_commands >= 1)
        assert not table.skipping or not screen.current.deciding()


async def test_the_computer_sees_only_its_side_s_view_and_events():
    """The table hands the bot nothing but host.view(bot side), as it stands when
    the bot is asked, and the events of host.events_for(bot side), in order."""
    host = GameHost.new(11)
    observed: list = []
    views: list = []

    class Spy:
        def __init__(self, side, seed):
            self.side = side
            self.inner = make_bot("heuristic", side, seed)

        def observe(self, events):
            observed.extend(events)
            self.inner.observe(events)

        def choose(self, view, budget_s):
            assert view == host.view(Side.TOKUGAWA)  # the player waits while the bot thinks
            views.append(view)
            return self.inner.choose(view, budget_s)

    table = VersusTable(host, Side.ISHIDA, "heuristic", pace=0, make=lambda level, side, seed: Spy(side, seed))
    player = make_bot("heuristic", Side.ISHIDA, 1)
    table.start()
    for _ in range(5000):
        if host.is_over or host.record.commands and len(views) >= 40:
            break
        if table.seat.deciding() and not table.bot_to_act():
            table.seat.submit(format_command(player.choose(table.seat.view, 1.0)))
        else:
            await asyncio.sleep(0.001)
    table.close()
    assert len(views) >= 40
    assert all(view.side is Side.TOKUGAWA for view in views)
    assert observed == host.events_for(Side.TOKUGAWA)[: len(observed)]
    assert len(observed) > 40 and all(Side.TOKUGAWA in event.visible_to() for event in observed)


async def test_a_saved_game_against_the_computer_reopens_against_the_computer(make_app):
    """The autosave names the computer's side and level (rules.infra.record), so
    continuing it brings the computer back instead of opening a hot-seat game."""
    first = make_app()
    async with first.run_test(size=(160, 50)) as pilot:
        first.versus(7, Side.TOKUGAWA, "heuristic", pace=0)
        await pilot.pause()
        screen = await take_seat(pilot)
        table = screen.table
        await choose(pilot, choice_notations(screen)[0])  # the player's bid
        await wait_for(pilot, lambda: any(c.startswith("ishida:") for c in table.host.record.commands))
        played = table.host.record.commands
        autosave = first.autosave_path
    again = make_app(load=autosave)
    async with again.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        screen = await take_seat(pilot)
        table = screen.table
        assert isinstance(table, VersusTable)
        assert (table.human, table.bot_side, table.level) == (Side.TOKUGAWA, Side.ISHIDA, "heuristic")
        assert table.host.record.commands[: len(played)] == played
        assert list(table.seats) == [Side.TOKUGAWA] and not table.hot_seat
        table.pace = 0
        if not table.seat.deciding():  # the computer decides on: the game goes on without the player
            before = table.bot_commands
            await wait_for(pilot, lambda: table.bot_commands > before or table.seat.deciding())


async def test_a_save_naming_an_unknown_computer_level_is_refused_and_nothing_opens(make_app, tmp_path):
    from rules.infra.record import new_record, save_record
    import attrs

    path = tmp_path / "strange.json"
    save_record(attrs.evolve(new_record(5), computer="ishida:grandmaster"), path)
    app = make_app(load=path)
    async with app.run_test(size=(160, 50)) as pilot:
        await pilot.pause()
        assert not isinstance(app.screen, GameScreen)
        assert not app.autosave_path.exists()  # the refused save did not become the autosave


async def test_the_choices_have_the_focus_again_each_time_the_computer_hands_back_the_decision(make_app):
    # While the computer decides, the list of choices is hidden (nothing to
    # choose); when the decision comes back, the keys must reach the list again,
    # not the map (over SSH, Down and Enter went to the map: issue 29).
    from sekigahara_tui.screens.info import BattleSummaryScreen
    from sekigahara_tui.widgets.prompt import PromptPanel

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.versus(7, Side.ISHIDA, "random", pace=0.05)
        await pilot.pause()
        screen = await take_seat(pilot)
        choices, side = screen.query_one(PromptPanel).choices, screen.query_one("#side")
        for _ in range(24):
            await wait_for(pilot, lambda: bool(screen.view.legal) and not side.has_class("-waiting"), tries=6000)
            await pilot.pause()
            # The game screen's own focus: a battle's summary may lie over it (its Enter goes on).
            assert screen.focused is choices, f"the focus is on {screen.focused!r} at {screen.view.prompt!r}"
            before = len(screen.table.host.record.commands)
            for _ in range(600):  # Enter: the summary's if one lies on top, else the highlighted choice's
                if len(screen.table.host.record.commands) > before:
                    break
                await pilot.press("enter")
                for _ in range(100):
                    if len(screen.table.host.record.commands) > before or isinstance(app.screen, BattleSummaryScreen):
                        break
                    await pilot.pause(0.01)
            assert len(screen.table.host.record.commands) > before
        # The computer decided between two of my commands (its moves hid the list),
        # read off the record's order: the computer may answer before my command is seen.
        sides = [c.split(":", 1)[0] for c in screen.table.host.record.commands]
        mine = [i for i, s in enumerate(sides) if s == "ishida"]
        assert any(s == "tokugawa" for s in sides[mine[0]:mine[-1]])


async def test_keys_the_map_and_the_log_stay_live_while_the_computer_thinks_in_its_worker(make_app):
    """Issue 25: the computer (level 2) thinks in a worker process, not in the
    app's: while the worker holds its decision (it waits for the test's gate),
    the player's keys are handled, their bid is played and shown in the log."""
    import os

    from worker_gates import GatedPool

    gated = GatedPool()
    app = make_app()
    try:
        async with app.run_test(size=(160, 50)) as pilot:
            app.versus(7, Side.TOKUGAWA, "planner", pace=0, pool=gated.pool)
            await pilot.pause()
            screen = await take_seat(pilot)
            table = screen.table
            # Both sides bid at once (6.3): the computer's bid is in its worker, which waits.
            await asyncio.to_thread(gated.entered.wait, 60)
            assert gated.entered.is_set() and os.getpid() not in list(gated.pids)
            await choose(pilot, choice_notations(screen)[0])  # keys: Home, Down..., Enter
            await wait_for(pilot, lambda: any(c.startswith("tokugawa:") for c in table.host.record.commands))
            log = screen.query_one(LogPanel)
            seen = table.host.events_for(Side.TOKUGAWA)
            await wait_for(pilot, lambda: describe(seen[-1], Side.TOKUGAWA) in list(log._texts))
            assert gated.pool.decisions == 0  # all while the computer's decision was still out
            assert not any(c.startswith("ishida:") for c in table.host.record.commands)
            gated.open()
            await wait_for(pilot, lambda: any(c.startswith("ishida:") for c in table.host.record.commands), tries=6000)
            assert gated.pool.decisions >= 1
    finally:
        gated.close()
