"""Keys that always work (issue 13): `:`, ctrl+e, `?`, ctrl+z and ctrl+s from every
focus, the map's letters that always search, refused keys that say why, and a
Footer that fits 80 columns."""

from __future__ import annotations

import pytest

from rules.sides import Side
from sekigahara_tui.screens.dialogs import SaveDialog
from sekigahara_tui.screens.game import GameScreen
from sekigahara_tui.screens.info import DecisionHelpScreen, HandOverScreen
from sekigahara_tui.widgets.map_panel import MapPanel
from sekigahara_tui.widgets.prompt import PromptPanel
from tui.driving import press_at_once, take_seat, type_command, until
from tui.positions import ishida_moves_from_osaka, opening_bid
from tui.screen_text import screen_text

FOCUSES = ["#map", "#choices", "#command-line"]


@pytest.fixture
def movement_app(make_app, tmp_path):
    """Ishida, first player, in his Movement Phase with Full movement, his army at Osaka
    (tests/tui/position_files/ishida_moves_from_osaka.toml)."""
    record = ishida_moves_from_osaka()
    return make_app(record=record), len(record.commands)


async def focused_on(pilot, selector: str) -> GameScreen:
    screen = await take_seat(pilot)
    screen.query_one(selector).focus()
    await pilot.pause()
    return screen


def message(screen: GameScreen) -> str:
    return str(screen.query_one("#message").render())


@pytest.mark.parametrize("focus", FOCUSES)
async def test_colon_goes_to_the_command_line_from_everywhere_and_types_nothing(movement_app, focus):
    app, _ = movement_app
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await focused_on(pilot, focus)
        await pilot.press("colon")
        line = screen.query_one(PromptPanel).command_line
        assert app.focused is line
        assert line.value == ""
        await pilot.press("colon")  # again, on the command line: still no colon
        assert line.value == ""


async def test_colon_after_a_side_name_types_it_for_full_notation(movement_app):
    app, _ = movement_app
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await focused_on(pilot, "#command-line")
        await pilot.press(*"ishida", "colon")
        assert screen.query_one(PromptPanel).command_line.value == "ishida:"


@pytest.mark.parametrize("focus", FOCUSES)
async def test_ctrl_e_ends_the_stack_move_from_everywhere(movement_app, focus):
    app, given = movement_app
    async with app.run_test(size=(80, 24)) as pilot:
        await type_command(pilot, "move osaka")
        screen = await focused_on(pilot, focus)
        await pilot.press("ctrl+e")
        assert screen.table.host.record.commands[given:] == ("ishida: move osaka", "ishida: done")
        assert message(screen) == "Done: end this stack move"


@pytest.mark.parametrize("focus", FOCUSES)
async def test_question_mark_opens_the_decision_help_from_everywhere(movement_app, focus):
    app, _ = movement_app
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await focused_on(pilot, focus)
        await pilot.press("question_mark")
        assert isinstance(app.screen, DecisionHelpScreen)
        assert screen.query_one(PromptPanel).command_line.value == ""


@pytest.mark.parametrize("focus", FOCUSES)
async def test_ctrl_z_takes_back_from_everywhere(movement_app, focus):
    app, given = movement_app
    async with app.run_test(size=(80, 24)) as pilot:
        await type_command(pilot, "move osaka")
        screen = await focused_on(pilot, focus)
        await pilot.press("ctrl+z")
        assert len(screen.table.host.record.commands) == given
        assert message(screen) == "Took back: Move a stack from Osaka (R58)"


@pytest.mark.parametrize("focus", FOCUSES)
async def test_ctrl_s_opens_the_save_dialog_from_everywhere(movement_app, focus):
    app, _ = movement_app
    async with app.run_test(size=(80, 24)) as pilot:
        await focused_on(pilot, focus)
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, SaveDialog)


@pytest.mark.parametrize("focus", FOCUSES)
async def test_the_keys_work_after_a_hand_over_which_focuses_the_choices(make_app, focus):
    app = make_app(opening_bid())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await focused_on(pilot, focus)  # Ishida leaves the focus here...
        await type_command(pilot, "bid mori-plain-9")
        assert isinstance(app.screen, HandOverScreen) and app.screen.side is Side.TOKUGAWA
        await pilot.press("enter")
        assert screen.seat is Side.TOKUGAWA
        assert app.focused is screen.query_one(PromptPanel).choices  # ...Tokugawa starts at the choices
        await pilot.press("ctrl+z")
        assert message(screen) == "Cannot undo: the last decision was ishida's (R58)"
        await pilot.press("question_mark")
        assert isinstance(app.screen, DecisionHelpScreen)
        await pilot.press("escape")
        await pilot.press("colon")
        assert app.focused is screen.query_one(PromptPanel).command_line


async def test_a_refused_ctrl_e_says_why(make_app):
    app = make_app(opening_bid())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await focused_on(pilot, "#choices")
        await pilot.press("ctrl+e")  # a bid: nothing to end
        assert screen.table.host.record.commands == ()
        assert message(screen) == "ctrl+e: nothing to end, finish or allow now"


@pytest.mark.parametrize("letter", ["h", "j", "k", "l"])
async def test_letters_on_the_map_always_search_and_never_move(movement_app, letter):
    from rules.components import default_components
    from sekigahara_tui.map_layout import neighbour_in_direction

    app, _ = movement_app
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await focused_on(pilot, "#map")
        map_panel = screen.query_one(MapPanel)
        map_panel.move_cursor("osaka")
        await pilot.press(letter)
        assert map_panel.search == letter
        names = sorted((default_components().location(loc).name.lower(), loc) for loc in map_panel.layout_data.locations)
        expected = next((loc for name, loc in names if name.startswith(letter)), "osaka")
        assert map_panel.cursor == expected
        await pilot.press("escape")
        assert map_panel.search is None
        east = neighbour_in_direction(map_panel.layout_data, expected, "right", "short")
        assert east is not None and east != expected  # so that the arrow has somewhere to go
        await pilot.press("right")  # the arrows move
        assert map_panel.cursor == east


@pytest.mark.parametrize("focus", FOCUSES)
async def test_the_footer_fits_80_columns(movement_app, focus):
    app, _ = movement_app
    async with app.run_test(size=(80, 24)) as pilot:
        await type_command(pilot, "move osaka")
        screen = await focused_on(pilot, focus)
        # The Footer rebuilds itself after a focus change: read it once it is back.
        await until(pilot, lambda: screen_text(app).splitlines()[-1].rstrip().endswith("^p palette"), "the Footer")
        footer = screen_text(app).splitlines()[-1]
        shown = [b.binding for b in screen.active_bindings.values() if b.binding.show]
        assert len(shown) >= 5
        for binding in shown:
            assert f"{app.get_key_display(binding)} {binding.description}" in footer, (binding.description, footer)
        assert footer.rstrip().endswith("^p palette")


async def test_the_footer_fits_80_columns_with_every_key_that_can_show_at_once(movement_app):
    """The crowded case: the map focused during a hot-seat battle, where the board
    toggle (ctrl+b) and auto-allow (ctrl+y) join the keys that always show."""
    app, _ = movement_app
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await focused_on(pilot, "#map")
        # Every conditional key on, but ctrl+a: it shows in a stack move (7.3), never
        # in the Combat Phase, where the board toggle and auto-allow show.
        screen.check_action = lambda action, parameters: action != "select_all"
        screen.refresh_bindings()
        await pilot.pause()
        footer = screen_text(app).splitlines()[-1]
        shown = [b.binding for b in screen.active_bindings.values() if b.binding.show]
        assert {"toggle_board", "auto_allow", "start_search"} <= {b.action for b in shown}
        for binding in shown:
            assert f"{app.get_key_display(binding)} {binding.description}" in footer, (binding.description, footer)
        assert footer.rstrip().endswith("^p palette")


async def test_feedback_stays_until_the_next_action(movement_app):
    app, _ = movement_app
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await type_command(pilot, "move osaka")
        assert message(screen) == "Done: Move a stack from Osaka"
        screen.query_one(PromptPanel).choices.focus()
        await pilot.press("down", "down", "up")  # moving through the choices keeps it
        assert message(screen) == "Done: Move a stack from Osaka"
        screen.query_one(MapPanel).focus()
        await pilot.press("right")
        assert message(screen) == "Done: Move a stack from Osaka"
        await type_command(pilot, "step nowhere")
        assert message(screen).startswith("Illegal: ")
        await pilot.press("ctrl+z")
        assert message(screen) == "Took back: Move a stack from Osaka (R58)"


async def test_R55_one_seats_feedback_is_never_shown_to_the_other(make_app):
    app = make_app(opening_bid())
    async with app.run_test(size=(80, 24)) as pilot:
        await type_command(pilot, "bid mori-plain-9")
        screen = await take_seat(pilot)
        assert screen.seat is Side.TOKUGAWA
        assert message(screen) == ""
        assert "mori-plain-9" not in screen_text(app)


async def test_R55_hot_seat_screen_state_belongs_to_its_seat(make_app):
    from textual.widgets import TabbedContent

    app = make_app(opening_bid())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        map_panel = screen.query_one(MapPanel)
        map_panel.move_cursor("himeji")
        screen.query_one(TabbedContent).active = "log-tab"
        prompt = screen.query_one(PromptPanel)
        prompt.command_line.value = "bid mori"  # Ishida starts typing, then picks from the list
        await pilot.pause()
        ishida_bid = prompt.notation_of(0)
        from tui.driving import choose

        await choose(pilot, ishida_bid)
        screen = await take_seat(pilot)
        assert screen.seat is Side.TOKUGAWA
        assert map_panel.cursor == "kyoto" and prompt.command_line.value == ""
        assert screen.query_one(TabbedContent).active == "hand-tab"
        map_panel.move_cursor("edo")
        await choose(pilot, prompt.notation_of(0))
        while screen.seat is not Side.ISHIDA:
            await choose(pilot, prompt.notation_of(0))
        screen = await take_seat(pilot)
        assert map_panel.cursor == "himeji" and prompt.command_line.value == "bid mori"
        assert screen.query_one(TabbedContent).active == "log-tab"


async def test_the_help_says_the_keys_and_its_text_is_not_cut_into_half_lines(movement_app):
    app, _ = movement_app
    async with app.run_test(size=(80, 24)) as pilot:
        await take_seat(pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, DecisionHelpScreen)
        text = screen_text(app)
        assert "Keys: Tab goes round" in text
        # The rules' text is hard-wrapped at 80 columns; re-wrapped in the dialog it
        # left "the source of" / "at most" half-lines. Reflowed, "at most" follows on.
        inside = [line.split("█")[1].strip() for line in text.splitlines() if line.count("█") >= 2]
        assert any(line.startswith("Begin a stack move") for line in inside), inside
        # A half-line: short, mid-sentence, and the sentence goes on below it.
        half_lines = [
            line for line, below in zip(inside, inside[1:])
            if len(line) < 40 and line[-1:] not in ".:;!?)" and below[:1].islower()
        ]
        assert not half_lines, half_lines


@pytest.mark.parametrize("focus", FOCUSES)
async def test_keys_typed_at_once_after_colon_all_reach_the_command_line(movement_app, focus):
    """Over SSH a quick ":end" arrives as one burst: the colon must take focus at
    once, or the letters behind it go to the widget that had it and are lost."""
    from textual import events

    app, _ = movement_app
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await focused_on(pilot, focus)
        line = screen.query_one(PromptPanel).command_line
        line.value = ""
        for key, character in [("colon", ":"), ("e", "e"), ("n", "n"), ("d", "d")]:
            app.post_message(events.Key(key, character))  # queued together, as a burst arrives
        await pilot.pause()
        assert line.has_focus and line.value == "end"


async def test_the_command_line_gives_the_line_as_it_stood_at_its_enter(make_app):
    """Keys typed right behind the Enter (a quick typist, or a burst over SSH)
    belong to the next line, not to the one the Enter gives: an Enter left to
    the app's bindings acted only after they had gone into the line."""
    app = make_app(opening_bid())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        screen.query_one(PromptPanel).command_line.focus()
        await press_at_once(pilot, *"bid mori-plain-9", "enter", *"abc")
        assert screen.table.host.record.commands == ("ishida: bid mori-plain-9",)


async def test_ctrl_b_shows_the_whole_combat_phase_and_says_why_outside_a_battle(make_app):
    """Issue 27, item 11: ^b Board stays in the key bar from the Combat Phase's
    first command to its last (a key coming and going rebuilt the bar and laid
    the screen out); between battles it says so and the board stays."""
    from textual.widgets import ContentSwitcher

    from tui.positions import record_from_position

    async with make_app(record_from_position("battle_at_gifu")).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        assert screen.view.combat is not None and screen.view.combat.battle is None
        assert screen.check_action("toggle_board", ())
        await pilot.press("ctrl+b")
        await pilot.pause()
        assert message(screen) == "ctrl+b: no battle now (the board shows)"
        assert screen.query_one("#board", ContentSwitcher).current == "map-view"
