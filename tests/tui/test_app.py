"""The app driven through Textual's Pilot, as a player would (issue 5)."""

from __future__ import annotations

from textual.widgets import TabbedContent

from rules.describe import describe
from rules.engine import apply
from rules.notation import parse_command
from rules.infra.record import replay
from rules.sides import Side
from sekigahara_tui.screens.dialogs import NewGameDialog
from sekigahara_tui.screens.game import GameScreen
from sekigahara_tui.screens.info import HandOverScreen
from sekigahara_tui.screens.menu import MenuScreen
from sekigahara_tui.widgets.log import LogPanel
from sekigahara_tui.widgets.map_panel import MapPanel
from sekigahara_tui.widgets.prompt import PromptPanel
from tui.driving import choice_notations, choose, take_seat
from tui.positions import battle_with_a_challenge_open, ishida_moves_from_osaka, opening_bid
from tui.screen_text import screen_text


async def log_text(pilot, screen: GameScreen) -> str:
    """Show the Log tab, as a player would, and read it (wrapped lines joined again)."""
    screen.query_one(TabbedContent).active = "log-tab"
    await pilot.pause()
    return " ".join(strip.text.strip() for strip in screen.query_one(LogPanel).lines)


def app_at(make_app, tmp_path, record):
    return make_app(record=record)


async def test_the_menu_starts_a_hot_seat_game_with_the_chosen_seed(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        assert isinstance(app.screen, MenuScreen)
        await pilot.press("n")
        assert isinstance(app.screen, NewGameDialog)
        await pilot.press("4", "2", "enter")
        assert isinstance(app.screen, HandOverScreen)
        assert app.screen.side is Side.ISHIDA
        screen = await take_seat(pilot)
        assert screen.table.host.record.seed == 42
        assert screen.seat is Side.ISHIDA
        assert "You: bid a card for first player" in screen_text(app)


async def test_6_3_both_sides_bid_through_the_choices_list_and_the_bids_are_revealed(make_app):
    record = opening_bid()
    app = make_app(record)
    async with app.run_test(size=(80, 24)) as pilot:
        await take_seat(pilot)
        await choose(pilot, "bid mori-plain-9")
        assert isinstance(app.screen, HandOverScreen) and app.screen.side is Side.TOKUGAWA
        screen = await take_seat(pilot)
        await choose(pilot, "bid date-swords-3")
        bid = apply(replay(record), parse_command("ishida: bid mori-plain-9"))[0]
        expected, events = apply(bid, parse_command("tokugawa: bid date-swords-3"))
        assert screen.table.host.state == expected
        screen = await take_seat(pilot)
        revealed = [describe(e, screen.seat) for e in events if screen.seat in e.visible_to()]
        assert any(line.startswith("Bids revealed") for line in revealed)
        log = await log_text(pilot, screen)
        assert all(line in log for line in revealed)


async def test_7_3_a_stack_moves_by_map_cursor_choices_and_ctrl_e(make_app, tmp_path):
    record = ishida_moves_from_osaka()
    app = app_at(make_app, tmp_path, record)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        map_panel = screen.query_one(MapPanel)
        map_panel.focus()
        await pilot.press("o", "s", "a")  # type-ahead jumps to Osaka
        assert map_panel.cursor == "osaka"
        await pilot.press("enter")  # several choices there: the list is filtered to them
        prompt = screen.query_one(PromptPanel)
        assert prompt.filter_location == "osaka"
        await choose(pilot, "move osaka")
        await choose(pilot, "select ukita-2-1")
        map_panel.focus()
        await pilot.press("right")  # east, along the highway, to Kyoto
        assert map_panel.cursor == "kyoto"
        await pilot.press("enter")  # the one choice there: step kyoto
        await pilot.press("ctrl+e")  # done
        view = screen.table.host.view(Side.ISHIDA)
        assert ("ukita-2-1", "kyoto") in view.own_blocks
        assert screen.table.host.record.commands[len(record.commands):] == (
            "ishida: move osaka", "ishida: select ukita-2-1", "ishida: step kyoto", "ishida: done",
        )


async def test_7_2_muster_from_the_choices_list(make_app, tmp_path):
    record = ishida_moves_from_osaka()
    app = app_at(make_app, tmp_path, record)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        assert ("mori-2-1", "osaka") not in screen.table.host.view(Side.ISHIDA).own_blocks
        await choose(pilot, "muster osaka mori-2-1")
        assert ("mori-2-1", "osaka") in screen.table.host.view(Side.ISHIDA).own_blocks
        assert screen.table.host.record.commands[-1] == "ishida: muster osaka mori-2-1"
        texts = choice_notations(screen)
        assert texts and not any(text.startswith("muster") for text in texts)  # one muster a turn (7.2)


async def test_8_6_a_loyalty_challenge_through_the_battle_view(make_app, tmp_path):
    record = battle_with_a_challenge_open()
    before = replay(record)
    app = app_at(make_app, tmp_path, record)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        assert screen.seat is Side.ISHIDA
        shown = screen_text(app)
        assert "Battle at Gifu" in shown
        assert "initiative" in shown
        await choose(pilot, "challenge ishida-loyalty-2")
        after, events = apply(before, parse_command("ishida: challenge ishida-loyalty-2"))
        assert screen.table.host.state == after
        screen = await take_seat(pilot)
        log = await log_text(pilot, screen)
        for event in events:
            if screen.seat in event.visible_to():
                assert describe(event, screen.seat) in log


async def test_the_palette_offers_no_screenshot_or_maximize_only_the_game_s_and_quit(make_app):
    """Issue 27, 15: Textual's Screenshot and Maximize do not belong in the game's palette."""
    from tui.driving import take_seat

    app = make_app(opening_bid())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        screen.query_one("#choices").focus()  # a focused widget is what Maximize would offer
        await pilot.pause()
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert "Quit" in titles
        assert not {"Screenshot", "Maximize", "Minimize"} & set(titles), titles


async def test_below_80x24_the_screen_says_the_terminal_is_too_small_and_the_game_comes_back(make_app):
    """Issue 27, fault 6: at 60x20 the choices shrank to a line with no word why."""
    from sekigahara_tui.screens.too_small import TooSmallScreen
    from tui.driving import take_seat
    from tui.screen_text import screen_text

    app = make_app(opening_bid())
    async with app.run_test(size=(80, 24)) as pilot:
        game = await take_seat(pilot)
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        assert "This terminal is 60x20: Sekigahara needs at least 80x24." in " ".join(screen_text(app).split())
        await pilot.resize_terminal(79, 30)
        await pilot.pause()
        assert "is 79x30" in " ".join(screen_text(app).split())
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert app.screen is game and len([s for s in app.screen_stack if isinstance(s, TooSmallScreen)]) == 0


async def test_a_game_started_in_a_small_terminal_says_so_at_once(make_app):
    from sekigahara_tui.screens.too_small import TooSmallScreen

    app = make_app(opening_bid())
    async with app.run_test(size=(70, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
