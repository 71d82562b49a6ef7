"""At 80x24 the lines under the map and the prompt's decision line are shown
whole (issue 29): a stack's blocks are all named (or counted: "+3 more"), never
cut off after the widget's last row, and a long decision keeps its rule number."""

from __future__ import annotations

import re

from rules.state import Side
from rules.surface import default_components
from sekigahara_tui.widgets.map_panel import MapPanel
from sekigahara_tui.widgets.prompt import decision_line
from tui.driving import take_seat, type_command
from tui.positions import battle_with_a_challenge_open, ishida_moves_from_osaka, record_from_position
from tui.screen_text import region_text, screen_text


def words(text: str) -> list[str]:
    return text.split()


async def test_the_location_line_names_every_block_of_the_moving_stack(make_app):
    """Osaka's 8 blocks during a stack move: all named under the map, under the
    steps left and the force march."""
    app = make_app(ishida_moves_from_osaka())
    async with app.run_test(size=(80, 24)) as pilot:
        await type_command(pilot, "move osaka")
        await type_command(pilot, "select ukita-2-1")
        screen = await take_seat(pilot)
        await pilot.pause()
        blocks = screen.view.blocks_at("osaka")
        assert len(blocks) == 8
        shown = region_text(app, "#map-info")
        assert "Steps left: 3 (2 by road) for Ukita 2-mon" in shown
        # each block by daimyo and kind, in the short form ("Kobayakawa leader, 3-mon ×2"); the
        # place's line (castle, control) gives way to them
        assert shown.endswith("yours at Osaka #: Ishida Mitsunari; Mori 2-mon, cavalry; Ukita leader, 2-mon; "
                              "Kobayakawa leader, 3-mon ×2"), shown


async def test_a_stack_too_big_for_the_rows_is_counted_not_cut(make_app):
    """A stack of 16 or more blocks about to move from Osaka, under the steps
    left and the force march: as many named as fit, the rest counted, so that
    named and counted make the whole stack."""
    app = make_app(record_from_position("great_army_at_osaka", "ishida: movement limited mori-plain-1"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await type_command(pilot, "move osaka")
        assert screen.seat is Side.ISHIDA
        screen.query_one(MapPanel).move_cursor("osaka")
        await pilot.pause()
        blocks = screen.view.blocks_at("osaka")
        shown = region_text(app, "#map-info")
        match = re.search(r"yours at Osaka # \((\d+)\): (.*); \+(\d+) more$", shown)
        assert match, shown
        total, named, rest = int(match[1]), match[2], int(match[3])
        assert total == len(blocks) and rest > 0
        from sekigahara_tui.labels import blocks_label

        assert named == blocks_label(blocks[: total - rest]), named  # the first ones, whole
        assert shown.startswith("Steps left: "), shown


def test_the_short_form_names_every_block():
    from sekigahara_tui.labels import blocks_label

    components = default_components()
    blocks = ("ishida-leader", "mori-2-1", "mori-cav-1", "ukita-leader", "ukita-2-1", "kobayakawa-leader", "kobayakawa-3-1", "kobayakawa-3-2")
    assert blocks_label(blocks) == "Ishida Mitsunari; Mori 2-mon, cavalry; Ukita leader, 2-mon; Kobayakawa leader, 3-mon ×2"
    assert blocks_label(("tokugawa-2-1", "tokugawa-leader", "tokugawa-2-2", "ii-4")) == "Tokugawa Ieyasu, 2-mon ×2; Ii Naomasa"
    everything = tuple(b.id for b in components.blocks)
    said = blocks_label(everything)
    counted = sum(int(m[1]) if m[1] else 1 for m in re.finditer(r"[^,;]+?(?: ×(\d+))?(?:[,;]|$)", said))
    assert counted == len(everything)


async def test_a_long_decision_line_keeps_its_rule_number(make_app):
    """'You: challenge the loyalty of the play just made, or allow it (8.6)' takes
    three rows at 80 columns: all of them shown."""
    app = make_app(battle_with_a_challenge_open())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        await pilot.pause()
        line = decision_line(screen.view)
        assert line.endswith("(8.6)")
        assert words(region_text(app, "#decision")) == words(line)


async def test_the_empty_command_line_s_hint_is_a_whole_notation_or_a_shorter_hint_never_a_cut_one(make_app):
    """Issue 27 play-test, item 5: 'Enter: muster himeji ukita-cav-2 ukita-gun-3'
    is wider than the line at 80 columns; it was cut ('Enter: muster himeji
    ukita-cav-'). Every choice's hint is shown whole, or the short one."""
    from sekigahara_tui.widgets.prompt import SHORT_HINTS, PromptPanel
    from tui.driving import choice_notations

    app = make_app(record_from_position("ishida_moves_from_osaka", "ishida: movement full mori-plain-9 uesugi-swords-3"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        await pilot.press("colon")
        notations = choice_notations(screen)
        assert any(len(f"Enter: {n}") > screen.query_one(PromptPanel).command_line.size.width for n in notations)
        shortened = 0
        for index, notation in enumerate(notations):
            await pilot.pause()
            shown = region_text(app, "#command-line").lstrip("┃")  # the focus bar (item 6)
            assert shown == f"Enter: {notation}" or shown in SHORT_HINTS, (index, shown)
            shortened += shown in SHORT_HINTS
            await pilot.press("down")
        assert shortened


async def test_every_title_of_the_choices_is_whole_in_its_border(make_app):
    """'choices at Kanazawa (Esc: a…' was cut at 80 columns: each title the
    choices take (a place for every location, the matches, none) is whole."""
    from sekigahara_tui.widgets.prompt import PromptPanel

    app = make_app(ishida_moves_from_osaka())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        prompt = screen.query_one(PromptPanel)
        choices = prompt.choices

        async def title_whole() -> None:
            await pilot.pause()
            top = screen_text(app).split("\n")[choices.region.y][choices.region.x:choices.region.right]
            assert choices.border_title in top, (choices.border_title, top)

        await title_whole()
        for location in sorted(default_components().location_ids):
            prompt.filter_to(location)
            await title_whole()
        prompt.filter_to(None)
        for typed in ("zzz", "move ", "move o", "step"):
            prompt.command_line.value = typed
            await title_whole()
        assert choices.border_title == "none begins so: all shown"
