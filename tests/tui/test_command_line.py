"""The command line at 80x24 (issue 27, faults 2 and 3): a completion never
guesses between two commands, the candidates show, the Hand tab names cards as
the line takes them, and the empty line's hint is what Enter gives.

Every test starts from tests/tui/position_files/tokugawa_chooses_movement.toml:
Tokugawa chooses his movement option holding tokugawa-plain-1,
tokugawa-loyalty-1 and fukushima-plain-1."""

from __future__ import annotations

from rules.surface import ChooseMovement
from sekigahara_tui.widgets.hand import HandPanel
from sekigahara_tui.widgets.prompt import PromptPanel, UnambiguousSuggester
from tui.driving import choice_notations, take_seat
from tui.positions import record_from_position
from tui.screen_text import region_text, screen_text

POSITION = "tokugawa_chooses_movement"


async def test_a_completion_takes_only_what_every_match_shares():
    suggester = UnambiguousSuggester(["movement limited tokugawa-plain-1", "movement limited tokugawa-loyalty-1",
                                      "movement limited fukushima-plain-1"])
    assert await suggester.get_suggestion("movement limited toku") == "movement limited tokugawa-"
    assert await suggester.get_suggestion("movement limited tokugawa-") is None  # two go on from here
    assert await suggester.get_suggestion("movement limited tokugawa-l") == "movement limited tokugawa-loyalty-1"
    assert await suggester.get_suggestion("movement limited x") is None
    assert await suggester.get_suggestion("mov") == "movement limited "


async def test_fault_3_right_completes_no_further_than_the_candidates_agree_and_shows_them(make_app):
    async with make_app(record_from_position(POSITION)).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        prompt = screen.query_one(PromptPanel)
        await pilot.press("colon", *"movement limited toku", "right")
        await pilot.pause()
        assert prompt.command_line.value == "movement limited tokugawa-"  # not the Loyalty Challenge card
        assert sorted(choice_notations(screen)) == ["movement limited tokugawa-loyalty-1", "movement limited tokugawa-plain-1"]
        assert prompt.choices.border_title == "2 matches"
        await pilot.press("l", "right")
        await pilot.pause()
        assert prompt.command_line.value == "movement limited tokugawa-loyalty-1"
        assert choice_notations(screen) == ["movement limited tokugawa-loyalty-1"]
        await pilot.press("escape")  # Esc clears the line: every choice again
        await pilot.pause()
        assert prompt.command_line.value == ""
        assert len(choice_notations(screen)) == len(screen.view.legal)


async def test_fault_3_the_hand_names_each_card_as_the_command_line_takes_it(make_app):
    async with make_app(record_from_position(POSITION)).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        await pilot.press("ctrl+t")  # at 80x24 the tabs show their first lines; ctrl+t gives them the screen
        await pilot.pause()
        shown = screen_text(pilot.app)
        for card in ("tokugawa-plain-1", "tokugawa-loyalty-1", "fukushima-plain-1"):
            assert card in shown
        assert screen.query_one(HandPanel).display
        await pilot.press("escape")
        await pilot.pause()
        assert screen.maximized is None


async def test_fault_2_enter_on_the_empty_line_gives_the_choice_its_hint_shows(make_app):
    async with make_app(record_from_position(POSITION)).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        prompt = screen.query_one(PromptPanel)
        await pilot.press("colon")
        first, second = choice_notations(screen)[:2]
        assert prompt.command_line.placeholder == f"Enter: {first}"
        await pilot.press("down")  # the arrows move through the choices from the line
        await pilot.pause()
        assert prompt.command_line.has_focus
        assert prompt.command_line.placeholder == f"Enter: {second}"
        await pilot.press("enter")
        await pilot.pause()
        assert screen.table.host.record.commands == (f"tokugawa: {second}",)
        assert not any(isinstance(c, ChooseMovement) for c in screen.view.legal)


async def test_fault_2_right_on_the_empty_line_copies_the_hint_to_edit(make_app):
    async with make_app(record_from_position(POSITION)).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        prompt = screen.query_one(PromptPanel)
        second = choice_notations(screen)[1]
        await pilot.press("colon", "down", "right")
        await pilot.pause()
        assert prompt.command_line.value == second
        assert prompt.command_line.cursor_position == len(second)
        assert screen.table.host.record.commands == ()  # copied, not given


async def test_fault_2_after_a_command_the_focus_goes_back_where_the_colon_found_it(make_app):
    from sekigahara_tui.widgets.map_panel import MapPanel

    async with make_app(record_from_position(POSITION)).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        map_panel = screen.query_one(MapPanel)
        map_panel.focus()
        await pilot.pause()
        await pilot.press("colon", *"movement pass", "enter")
        await pilot.pause()
        assert screen.table.host.record.commands == ("tokugawa: movement pass",)
        assert map_panel.has_focus  # not left on the command line
        # Esc on the empty line goes back too.
        await pilot.press("colon")
        assert screen.query_one(PromptPanel).command_line.has_focus
        await pilot.press("escape")
        await pilot.pause()
        assert map_panel.has_focus


async def test_fault_2_a_refused_line_keeps_the_focus_to_be_mended(make_app):
    async with make_app(record_from_position(POSITION)).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        prompt = screen.query_one(PromptPanel)
        await pilot.press("colon", *"movement limited toku", "enter")
        await pilot.pause()
        assert screen.table.host.record.commands == ()
        assert prompt.command_line.has_focus and prompt.command_line.value == "movement limited toku"


async def test_item_10_the_focused_panel_shows_by_its_border_lines_not_only_colour(make_app):
    from sekigahara_tui.widgets.map_panel import MapPanel

    async with make_app(record_from_position(POSITION)).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        screen.query_one(PromptPanel).choices.focus()
        await pilot.pause()
        text = screen_text(pilot.app)
        assert "┏" in text and "╭" in text  # the choices heavy, the map round
        screen.query_one(MapPanel).focus()
        await pilot.pause()
        lines = screen_text(pilot.app).splitlines()
        assert lines[2].startswith("┏")  # the map's top-left corner, now heavy


async def test_item_10_at_80x24_the_choices_have_10_lines_and_ctrl_t_gives_the_tabs_the_screen(make_app):
    async with make_app(record_from_position(POSITION)).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        await pilot.pause()
        choices = screen.query_one(PromptPanel).choices
        assert choices.scrollable_content_region.height >= 10
        assert choices.border_subtitle == "^t hand, log"
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert screen.maximized is screen.query_one("#tabs")
        await pilot.press("ctrl+t")
        await pilot.pause()
        assert screen.maximized is None


async def test_item_10_at_100x30_the_layout_is_as_before(make_app):
    async with make_app(record_from_position(POSITION)).run_test(size=(100, 30)) as pilot:
        screen = await take_seat(pilot)
        await pilot.pause()
        assert screen.query_one("#tabs").size.height == 9  # the tabs keep their rows beside the choices


MUSTERING = ("ishida_moves_from_osaka", "ishida: movement full mori-plain-9 uesugi-swords-3")


async def test_enter_after_the_arrows_gives_the_highlighted_choice_and_after_an_edit_the_line(make_app):
    """As a completion menu does (issue 27 play-test, item 4): ':muster a', →,
    then ↓ ↓ highlights a muster at Aizu, and Enter gives it, not the half line."""
    async with make_app(record_from_position(*MUSTERING)).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        prompt = screen.query_one(PromptPanel)
        await pilot.press("colon", *"muster a", "right")
        await pilot.pause()
        assert prompt.command_line.value == "muster aizu "
        candidates = choice_notations(screen)
        await pilot.press("down", "down")
        await pilot.pause()
        assert region_text(pilot.app, "#message") == "Enter gives the highlighted choice; → shows it"
        await pilot.press("enter")
        await pilot.pause()
        assert screen.table.host.record.commands[-1] == f"ishida: {candidates[2]}"


async def test_after_an_edit_enter_gives_the_line_and_right_after_the_arrows_shows_the_choice(make_app):
    async with make_app(record_from_position(*MUSTERING)).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        prompt = screen.query_one(PromptPanel)
        await pilot.press("colon", *"muster aizu ", "down")
        await pilot.pause()
        second = choice_notations(screen)[1]
        await pilot.press("right")  # → copies the highlighted choice in, to edit
        await pilot.pause()
        assert prompt.command_line.value == second
        await pilot.press("down", "backspace", second[-1])  # an edit after the arrows: the line again
        await pilot.press("enter")
        await pilot.pause()
        assert screen.table.host.record.commands[-1] == f"ishida: {second}"
