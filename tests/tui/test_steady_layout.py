"""Issue 27, item 11: keys whose result keeps every widget's size lay nothing
out again, and one that changes a size lays the screen out once. Textual lays
the whole screen out whenever a widget asks, and a widget whose virtual size
changes asks: the command line at every letter (its text's width), the choices
list when it is refilled (its options' rows), and, a frame after a layout,
every widget it resized. The command line and the choices keep the layout's
size whatever they hold; the lines, panels and scrollbars a layout resizes are
leaves (steady_text.Leaf): they only repaint. Counted with the screen's public
layout signal."""

from __future__ import annotations

from textual.geometry import Region
from textual.screen import Screen

from sekigahara_tui.widgets.location_info import LocationInfo, location_lines
from sekigahara_tui.widgets.map_panel import MapPanel
from sekigahara_tui.widgets.prompt import PromptPanel
from tui.driving import take_seat
from tui.positions import battle_with_a_challenge_open, ishida_moves_from_osaka
from tui.screen_text import region_text, screen_text


def count_layouts(screen: Screen) -> list[Screen]:
    laid_out: list[Screen] = []
    screen.screen_layout_refresh_signal.subscribe(screen, laid_out.append, immediate=True)
    return laid_out


async def test_letters_on_the_command_line_lay_nothing_out_and_a_long_line_shows_its_end(make_app):
    async with make_app(record=ishida_moves_from_osaka()).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        line = screen.query_one(PromptPanel).command_line
        line.focus()
        await pilot.pause()
        laid_out = count_layouts(screen)
        await pilot.press(*"move osaka")
        await pilot.pause()
        assert line.value == "move osaka"
        assert laid_out == []
        assert "move osaka" in region_text(pilot.app, "#command-line")
        # Longer than the line (31 cells at 80 columns): it scrolls to show the end typed.
        await pilot.press(*" kyoto osaka kyoto osaka kyoto zz")
        await pilot.pause()
        assert len(line.value) > line.content_region.width
        assert region_text(pilot.app, "#command-line").endswith("kyoto zz")


async def test_refilling_the_choices_lays_nothing_out_and_shows_the_new_choices(make_app):
    async with make_app(record=ishida_moves_from_osaka()).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        prompt = screen.query_one(PromptPanel)
        await pilot.pause()
        everywhere = prompt.choices.option_count
        laid_out = count_layouts(screen)
        prompt.filter_to("osaka")  # what Enter on Osaka in the map does when several choices name it
        await pilot.pause()
        await pilot.pause()
        assert 1 < prompt.choices.option_count < everywhere
        assert laid_out == []
        first = prompt.choices.label_at(0)
        assert first.split()[0] in region_text(pilot.app, "#choices")


def cell_background(app, x: int, y: int):
    """The background colour drawn at a screen cell."""
    strip = app.screen._compositor.render_strips()[y]
    column = 0
    for segment in strip:
        if column <= x < column + segment.cell_length:
            return segment.style.bgcolor if segment.style else None
        column += segment.cell_length
    return None


async def test_with_nothing_to_scroll_the_choices_scrollbar_is_blank_in_the_lists_background(make_app):
    """The scrollbar stays (a refill never lays it out); with nothing to scroll
    its column looks as the empty gutter did: the list's background, focused
    (tinted) or not."""
    async with make_app(record=battle_with_a_challenge_open()).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        choices = screen.query_one(PromptPanel).choices
        await pilot.pause()
        region = choices.vertical_scrollbar.region
        assert region.width == 1 and choices.virtual_size.height <= choices.scrollable_content_region.height
        for focused in (True, False, True):
            (choices.focus() if focused else screen.query_one(PromptPanel).command_line.focus())
            await pilot.pause()
            await pilot.pause()
            assert choices.has_focus == focused
            wanted = choices.background_colors[1].rich_color
            assert all(cell_background(pilot.app, region.x, y) == wanted for y in range(region.y, region.bottom)), focused


async def settle(pilot) -> None:
    """Long enough for a second layout, which Textual makes a frame after the first."""
    for _ in range(3):
        await pilot.pause(0.05)


async def one_row_said(pilot):
    """A one-row message said and drawn; then the layouts counted from there,
    and the choices' rows."""
    screen = await take_seat(pilot)
    prompt = screen.query_one(PromptPanel)
    prompt.say("Done: pass")
    await settle(pilot)
    return prompt, count_layouts(screen), prompt.choices.size.height


async def test_a_long_echo_keeps_the_message_lines_row_and_m_shows_it_whole(make_app):
    """A "Done: ..." that needs 3 rows keeps the line's one row at 80x24 (no
    layout: the choices are not resized, nor drawn again a frame later),
    shortened at a word; m shows it whole, in one layout."""
    async with make_app(record=ishida_moves_from_osaka()).run_test(size=(80, 24)) as pilot:
        prompt, laid_out, rows = await one_row_said(pilot)
        long = "Done: Limited: 3 stack moves (a muster may replace one of them) (7.1)"
        prompt.say(long)
        await settle(pilot)
        assert laid_out == [] and prompt.choices.size.height == rows
        shown = region_text(pilot.app, "#message")
        assert shown == "Done: Limited: 3 stack … (m)"  # 32 cells
        await pilot.press("m")
        await settle(pilot)
        assert prompt.choices.size.height == rows - 2  # three rows now
        assert " ".join(region_text(pilot.app, "#message").split()) == long
        assert len(laid_out) == 1


async def test_a_long_refusal_is_whole_and_lays_the_screen_out_once(make_app):
    """News (a refusal, a move given for the other side) is never shortened: the
    line grows into the choices' rows, in one layout; the line, the list and
    its scrollbar ask for no second one."""
    async with make_app(record=ishida_moves_from_osaka()).run_test(size=(80, 24)) as pilot:
        prompt, laid_out, rows = await one_row_said(pilot)
        long = "Illegal: Limited: 3 stack moves (a muster may replace one of them) (7.1)"
        prompt.say(long, error=True)
        await settle(pilot)
        assert prompt.choices.size.height == rows - 2
        assert " ".join(region_text(pilot.app, "#message").split()) == long
        assert len(laid_out) == 1


async def test_the_lines_under_the_map_keep_their_rows_from_place_to_place_and_in_a_stack_move(make_app):
    """Places whose words take 2 or 3 rows, or more (then fitted: "+3 more"),
    all take the lines' 5 rows: the cursor going from one to another lays
    nothing out; nor does a stack move's first command, whose steps left and
    force march take rows of the same 5 (they took 3, then 5: a layout, and
    two frames more for what it resized)."""
    async with make_app(record=ishida_moves_from_osaka()).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        info = screen.query_one(LocationInfo)
        panel = screen.query_one(MapPanel)
        await settle(pilot)
        width = info.content_size.width
        lines = {loc: len(location_lines(screen.view, loc, width)) for loc in panel.layout_data.locations}
        short, tall = min(lines, key=lines.get), max(lines, key=lines.get)
        assert lines[short] < 3 < lines[tall]
        info.show(screen.view, short)
        await settle(pilot)
        laid_out = count_layouts(screen)
        map_rows = panel.size.height
        for place in (tall, short, tall):
            info.show(screen.view, place)
            await settle(pilot)
            assert info.size.height == 5 and panel.size.height == map_rows
            assert len(region_text(pilot.app, "#map-info").splitlines()) <= 5
        assert laid_out == []
        screen.submit_text("move osaka")
        await settle(pilot)
        assert screen.view.movement.stack_move is not None
        assert info.size.height == 5 and panel.size.height == map_rows
        assert region_text(pilot.app, "#map-info").startswith("Steps left")
        assert laid_out == []


async def test_the_map_follows_a_command_in_its_own_call_and_lays_nothing_out(make_app):
    """The map scrolls to the place the action moved to (a stack's step) at
    once, as the command is applied, not a frame later, and the scroll only
    repaints: a container holding the drawing was placed again by a layout of
    the screen at every scroll (37 in 40 commands of benchmarks/tui.py)."""
    async with make_app(record=ishida_moves_from_osaka()).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        panel = screen.query_one(MapPanel)
        for line in ("move osaka", "select ukita-2-1"):
            screen.submit_text(line)
            await settle(pilot)
        laid_out = count_layouts(screen)
        before = panel.scroll_offset
        screen.submit_text("step himeji")  # no await: the scroll is made in the command's call
        assert panel.cursor == "himeji" and panel.scroll_offset != before
        x, y = panel.view_offset()
        label = panel.label_region("himeji")
        assert Region(x, y, *panel.scrollable_content_region.size).contains_region(label)
        await settle(pilot)
        assert laid_out == []
        view = panel.scrollable_content_region  # on the screen
        row = screen_text(pilot.app).split("\n")[view.y + label.y - y]
        assert row[view.x + label.x - x:].startswith("Him")


async def test_the_game_is_out_of_the_collectors_full_passes_while_it_is_played(make_app):
    """Python's full collections walked every object of the app and the engine,
    0.1-0.2 s in one key's time: once the game screen is up they are frozen
    (gc.freeze), and given back to the collector when it goes."""
    import gc

    async with make_app(record=ishida_moves_from_osaka()).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        await pilot.pause()
        assert gc.get_freeze_count() > 10_000
        screen.dismiss()
        await pilot.pause()
        await pilot.pause()
    assert gc.get_freeze_count() == 0


async def test_a_hand_of_fewer_cards_repaints_the_hand_tab_and_lays_nothing_out(make_app):
    """The hand panel and its tab take the tabs' rows whatever the hand holds: a
    card discarded for a force march (7.3.3) changes the hand's rows, which laid
    the screen out twice (the panel, then the tab and switcher it resized)."""
    from sekigahara_tui.widgets.hand import HandPanel

    async with make_app(record=ishida_moves_from_osaka()).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        for line in ("move osaka", "select ukita-2-1"):
            screen.submit_text(line)
            await settle(pilot)
        march = next(text for text, _ in screen.legal_texts() if text.startswith("march"))
        hand = screen.query_one(HandPanel)
        cards, rows = len(screen.view.hand), hand.size.height
        laid_out = count_layouts(screen)
        screen.submit_text(march)
        await settle(pilot)
        assert len(screen.view.hand) == cards - 1 and hand.size.height == rows
        assert laid_out == []
        await pilot.press("ctrl+t")  # the tabs on the whole screen: the hand whole
        await settle(pilot)
        assert f"{cards - 1} card" in region_text(pilot.app, "#hand")
