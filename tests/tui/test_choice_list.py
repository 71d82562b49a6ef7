"""The choices list drawn line by line, each label's lines kept (issue 27,
item 11): a press that brings back choices shown before draws none of them
again and lays nothing out; the keys and the mouse still give the command
under the highlight or the pointer, the list scrolled or not (7.3, 7.2: Ishida's
stack moves and muster from Osaka)."""

from __future__ import annotations

from rules.notation import format_command
from sekigahara_tui.widgets.prompt import PromptPanel
from tui.driving import take_seat
from tui.positions import ishida_moves_from_osaka
from tui.screen_text import screen_text
from tui.test_steady_layout import count_layouts


def given(screen) -> str:
    return screen.table.host.record.commands[-1]


async def focused_choices(pilot):
    """Ishida's seat with the choices focused: the screen, the prompt, the list."""
    screen = await take_seat(pilot)
    prompt = screen.query_one(PromptPanel)
    prompt.choices.focus()
    await pilot.pause()
    return screen, prompt, prompt.choices


async def test_choices_seen_before_are_not_drawn_again_when_a_key_brings_them_back(make_app):
    async with make_app(record=ishida_moves_from_osaka()).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        prompt = screen.query_one(PromptPanel)
        choices = prompt.choices
        prompt.command_line.focus()
        await pilot.pause()
        everything = [choices.label_at(i) for i in range(choices.option_count)]
        assert choices.option_count >= 10 and choices.drawn > 0
        await pilot.press("m", "u")  # the choices narrow to the musters: new rows
        await pilot.pause()
        assert 0 < choices.option_count < len(everything)
        assert all(choices.label_at(i).lower().startswith("muster") for i in range(choices.option_count))
        drawn, kept, laid_out = choices.drawn, choices.kept, count_layouts(screen)
        await pilot.press("backspace", "backspace")  # every choice again, as drawn two keys ago
        await pilot.pause()
        assert [choices.label_at(i) for i in range(choices.option_count)] == everything
        assert choices.drawn == drawn, "a label seen before was drawn again"
        assert choices.kept > kept  # the rows came from the kept lines
        assert laid_out == []
        top = screen_text(pilot.app).split("\n")[choices.content_region.y]
        assert everything[0][:30] in top  # and they are on the screen


async def test_the_keys_move_the_highlight_and_enter_gives_its_command(make_app):
    async with make_app(record=ishida_moves_from_osaka()).run_test(size=(80, 24)) as pilot:
        screen, prompt, choices = await focused_choices(pilot)
        count = choices.option_count
        await pilot.press("end")
        assert choices.highlighted == count - 1
        await pilot.press("down")  # round the end, as OptionList
        assert choices.highlighted == 0
        await pilot.press("up")
        assert choices.highlighted == count - 1
        await pilot.press("home", "pagedown")
        paged = choices.highlighted
        assert 0 < paged < count and choices.scroll_offset.y > 0  # a page on, and in view
        await pilot.press("pageup", "down", "down")
        assert choices.highlighted == 2
        command = prompt.highlighted_command()
        await pilot.press("enter")
        await pilot.pause()
        assert given(screen) == format_command(command)


async def test_a_click_gives_the_choice_under_the_pointer_in_a_scrolled_list(make_app):
    async with make_app(record=ishida_moves_from_osaka()).run_test(size=(80, 24)) as pilot:
        screen, prompt, choices = await focused_choices(pilot)
        await pilot.press("end")  # the list scrolls to its last choice
        await pilot.pause()
        assert choices.scroll_offset.y > 0
        # The second choice from the end, found by its words on the screen.
        index = choices.option_count - 2
        rows = screen_text(pilot.app).split("\n")
        area = choices.content_region
        words = choices.label_at(index)[:20]
        row = next(y for y in range(area.y, area.bottom) if rows[y][area.x:area.right].startswith(words))
        command = prompt._shown[index]
        await pilot.click(choices, offset=(area.x - choices.region.x + 3, row - choices.region.y))
        await pilot.pause()
        assert given(screen) == format_command(command)
