"""The map at 80x24 (issue 13): it follows the stack being moved and the battle,
no label is cut at the panel's edge, an overview shows the whole board, counts
are coloured by side and never run into a road; the moving side sees each
block's steps left and why it may not force march; each hot seat keeps its own
screen; the game-over screen shows the final board and the game week by week."""

from __future__ import annotations

import pytest
from textual.geometry import Region
from textual.widgets import ContentSwitcher, TabbedContent

from rules.infra.record import save_record
from rules.surface import Muster, default_components, places
from sekigahara_tui.local import LocalTable
from sekigahara_tui.map_layout import load_layout
from sekigahara_tui.widgets.location_info import movement_lines
from sekigahara_tui.screens.info import GameOverScreen, HandOverScreen, week_plots, weekly_figures
from sekigahara_tui.widgets.map_panel import MapPanel
from sekigahara_tui.widgets.map_rows import label_pieces, label_text, legal_locations
from tui.driving import take_seat, type_command
from tui.positions import (battle_with_a_challenge_open, finished_game, game_over_on_points, ishida_moves_from_osaka,
                          opening_bid, record_from_position)
from tui.screen_text import screen_text

SHORTS = [p.short for p in load_layout().placements]


@pytest.fixture
def movement_app(make_app, tmp_path):
    """Ishida, first player, in his Movement Phase with Full movement, his army at Osaka."""
    return make_app(record=ishida_moves_from_osaka())


def in_view(panel: MapPanel, location: str) -> bool:
    viewport = Region(round(panel.scroll_x), round(panel.scroll_y), *panel.scrollable_content_region.size)
    return viewport.contains_region(panel.label_region(location))


def drawn(panel: MapPanel, location: str) -> str:
    """The text drawn in a location's label cells."""
    region = panel.label_region(location)
    row = panel.canvas.rows[region.y]
    return row.plain[region.x:region.right]


async def test_the_map_follows_the_stack_being_moved_and_its_destinations(movement_app):
    async with movement_app.run_test(size=(80, 24)) as pilot:
        screen = await type_command(pilot, "move osaka")
        await pilot.pause()
        panel = screen.query_one(MapPanel)
        assert panel.cursor == "osaka"  # the cursor was at Kyoto
        around = set(default_components().neighbours("osaka"))
        assert {"kyoto", "wakayama", "himeji"} <= around
        assert in_view(panel, "osaka") and all(in_view(panel, loc) for loc in around)
        await type_command(pilot, "select ukita-2-1")
        await type_command(pilot, "step kyoto")
        await pilot.pause()
        assert panel.cursor == "kyoto"
        destinations = legal_locations(screen.view) - {"kyoto"}
        assert destinations and all(in_view(panel, loc) for loc in destinations | {"kyoto"})


async def test_no_label_is_cut_at_the_panels_edge(movement_app):
    async with movement_app.run_test(size=(80, 24)) as pilot:
        screen = await type_command(pilot, "move osaka")
        panel = screen.query_one(MapPanel)
        for x in (0, 7, 23):
            panel.scroll_to(x, 3, animate=False, immediate=True)
            await pilot.pause()
            left, right = round(panel.scroll_x), round(panel.scroll_x) + panel.scrollable_content_region.width
            assert left == x
            cut = [p.location for p in panel.layout_data.placements
                   if (r := panel.label_region(p.location)).x < left < r.right or r.x < right < r.right]
            assert cut, "this scroll cuts some label"
            for location in cut:
                assert drawn(panel, location).strip() == "", location
            whole = [p.location for p in panel.layout_data.placements if in_view(panel, p.location)]
            for location in whole:
                assert drawn(panel, location).startswith(load_layout().placement(location).short[:2])


async def test_the_map_shows_the_battle(make_app, tmp_path):
    path = tmp_path / "battle.json"
    save_record(battle_with_a_challenge_open(), path)
    async with make_app(load=path).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        await pilot.press("ctrl+b")  # from the battle view to the map
        await pilot.pause()
        panel = screen.query_one(MapPanel)
        assert panel.cursor == "gifu" and in_view(panel, "gifu")


async def test_ctrl_o_shows_the_whole_board_at_80x24_and_back(movement_app):
    async with movement_app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        panel = screen.query_one(MapPanel)
        before = screen_text(movement_app)
        assert not all(short in before for short in SHORTS)
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert panel.overview
        text = screen_text(movement_app)
        assert all(short in text for short in SHORTS), [s for s in SHORTS if s not in text]
        assert "Osa8" in text and "Kan:5" in text  # own 8 at Osaka, 5 enemy at Kanazawa
        panel.focus()
        await pilot.press("right")  # the cursor still moves in the overview
        assert panel.cursor != "kyoto"
        await pilot.press("ctrl+o")
        await pilot.pause()
        assert not panel.overview and in_view(panel, panel.cursor)


def test_counts_are_placed_and_coloured_by_side_and_leave_a_blank_before_a_road():
    assert label_text("osaka", "Osa", 8, 0, "short") == "Osa# 8:0 "
    assert label_text("osaka", "Osa", 12, 0, "short") == "Osa#12:0 "
    assert label_text("osaka", "Osa", 12, 10, "short") == "Osa12:10 "
    assert label_text("kyoto", "Kyo", 0, 0, "short") == "Kyo*     "
    assert label_pieces("gifu", "Gif", 2, 3, "short") == [
        ("Gif", "name"), ("#", "marks"), (" ", ""), ("2", "own"), (":", ""), ("3", "enemy"), (" ", "")]
    assert label_pieces("gifu", "Gif", 0, 3, "overview") == [("Gif", "name"), (":", ""), ("3", "enemy"), (" ", "")]
    assert label_text("gifu", "Gif", 12, 3, "overview") == "Gi12:3"
    for own in (0, 9, 10, 99):
        for enemy in (0, 9, 10, 99):
            for mode in ("short", "full"):
                assert label_text("osaka", "Osa", own, enemy, mode).endswith(" ")


def test_steps_left_and_why_no_force_march_in_words(movement_app, tmp_path):
    table = LocalTable.load(movement_app._load, autosave=tmp_path / "a.json")
    seat = next(iter(s for s in table.seats.values() if s.view.legal))
    seat.submit("move osaka")
    assert movement_lines(seat.view) == [
        "Steps left: 3 (2 by road) for each block",  # 7.3.3
        "No force march: select the group to force march first (7.3.3)",
    ]
    seat.submit("select ukita-2-1")
    seat.submit("select ishida-leader")
    assert movement_lines(seat.view) == [
        "Steps left: 3 (2 by road) for Ishida Mitsunari, Ukita 2-mon",
        "Force march: allowed, for a card",
    ]
    seat.submit("step kyoto")
    assert movement_lines(seat.view)[0] == "Steps left: 2 (1 by road) for Ishida Mitsunari, Ukita 2-mon"
    assert movement_lines(table.seats[seat.side.other].view) == []


async def test_each_hot_seat_gets_its_own_map_tab_search_and_board_back(make_app):
    app = make_app(opening_bid())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        first = screen.seat
        panel = screen.query_one(MapPanel)
        await pilot.press("ctrl+o")
        panel.focus()
        await pilot.press("slash", "o", "s")
        screen.query_one("#tabs", TabbedContent).active = "log-tab"
        await pilot.pause()
        state = (panel.cursor, panel.search, panel.overview)
        assert state == ("osaka", "os", True)
        others = 0
        for _ in range(12):  # the bids, the first player's choices: until the first seat is back
            screen.query_one("#choices").focus()
            await pilot.press("home", "enter")
            handed_over = isinstance(app.screen, HandOverScreen)
            screen = await take_seat(pilot)
            if screen.seat is first and handed_over:
                break
            if screen.seat is not first:
                others += 1
                assert (panel.cursor, panel.search, panel.overview) == ("kyoto", None, False)
                assert panel.border_subtitle == ""
                assert screen.query_one("#tabs", TabbedContent).active == "hand-tab"
                assert screen.query_one("#board", ContentSwitcher).current == "map-view"
        assert others and screen.seat is first
        assert (panel.cursor, panel.search, panel.overview) == state
        assert panel.border_subtitle == "jump: os"
        assert screen.query_one("#tabs", TabbedContent).active == "log-tab"


async def test_the_new_game_dialog_never_shows_the_random_seed(make_app, tmp_path):
    from sekigahara_tui.screens.dialogs import NewGameDialog

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("n")
        assert isinstance(app.screen, NewGameDialog)
        assert not any(ch.isdigit() for line in screen_text(app).splitlines() if "seed" in line for ch in line)
    name = LocalTable.new(424242, autosave=tmp_path / "a.json").default_save_name()
    assert "424242" not in name and name.startswith("sekigahara-") and name.endswith(".json")


def test_the_game_week_by_week_from_the_log(tmp_path):
    """The short war (tests/tui/positions.py): a battle in week 1 where Ishida
    loses a block, and Ishida Mitsunari overrun in week 2."""
    path = tmp_path / "finished.json"
    save_record(finished_game(), path)
    table = LocalTable.load(path, autosave=tmp_path / "a.json")
    seen = []
    for seat in table.seats.values():  # public figures: both seats count the same
        figures = weekly_figures(seat.log, seat.view.week)
        assert {key: figures[key] for key in ("battles", "ishida", "tokugawa")} == {
            "battles": [1, 0], "ishida": [1, 1], "tokugawa": [0, 0]}
        assert figures["vp:ishida"][-1] == seat.view.vp.ishida and figures["vp:tokugawa"][-1] == seat.view.vp.tokugawa
        seen.append(figures)
    assert seen[0] == seen[1]


def test_week_plots_draw_a_bar_and_a_figure_per_week():
    plots = week_plots({"battles": [0, 2, 0, 1], "ishida": [0, 4, 0, 0], "tokugawa": [1, 0, 0, 2]})
    assert plots.splitlines() == [
        "By week:",
        "week      1  2  3  4  ",
        "battles    0 █2  0 ▄1 ",
        "blocks and discs lost:",
        "Ishida     0 █4  0  0 ",
        "Tokugawa  ▂1  0  0 ▄2 ",
    ]


async def test_the_game_over_screen_shows_the_final_board_the_cause_and_the_weeks(make_app, tmp_path):
    path = tmp_path / "finished.json"
    save_record(finished_game(), path)
    app = make_app(load=path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        text = screen_text(app)
        assert "Tokugawa wins." in text
        assert "Ishida Mitsunari was eliminated (2.1)" in text
        assert "battles   █1  0" in text
        assert "Ishida    █1 █1" in text and "Tokugawa   0  0" in text
        assert "VP at the end of the week (2.2):" in text  # the rest scrolls (tests/tui/test_standing.py)
        board = app.screen.query_one(MapPanel)
        assert board.overview and all(short in text for short in SHORTS)


async def test_after_week_7_the_game_over_screen_gives_each_sides_victory_points(make_app):
    """2.2: 2 VP a castle, 1 a resource location (tests/tui/position_files/week_7_ends.toml)."""
    async with make_app(game_over_on_points()).run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(pilot.app.screen, GameOverScreen)
        text = screen_text(pilot.app)
        assert "Tokugawa wins." in text
        assert "Ishida     3 x 2  +   1  =  7 VP" in text
        assert "Tokugawa   6 x 2  +   3  = 15 VP" in text


async def test_the_map_follows_the_choice_the_player_moves_onto(movement_app):
    from rules.surface import places
    from sekigahara_tui.widgets.prompt import PromptPanel

    async with movement_app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        prompt = screen.query_one(PromptPanel)
        panel = screen.query_one(MapPanel)
        prompt.choices.focus()
        await pilot.pause()
        first = [p for p in places(prompt._shown[0]) if p in panel.layout_data.locations]
        assert first and panel.cursor != first[-1]  # before the player moves through the list, the map stays
        await pilot.press("down", "down", "down")
        await pilot.pause()
        command = prompt._shown[prompt.choices.highlighted]
        where = [p for p in places(command) if p in panel.layout_data.locations]
        assert where, command
        assert panel.cursor == where[-1]  # the player moved onto it: the map shows it
        assert in_view(panel, panel.cursor)


async def test_8_1_the_map_shows_where_combats_are_to_be_declared(make_app, tmp_path):
    app = make_app(record=record_from_position("combats_in_the_east"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        await pilot.pause()
        panel = screen.query_one(MapPanel)
        sites = legal_locations(screen.view)
        assert sites and panel.cursor in sites
        assert in_view(panel, panel.cursor)


async def test_7_2_the_map_follows_the_muster_locations_once_only_musters_are_left(make_app, tmp_path):
    """Full movement (7.1): once the one stack has moved, the only places left to
    choose are the muster sites (7.2, R12): the map goes there from the east."""
    path = tmp_path / "muster.json"
    save_record(record_from_position("muster_after_full_movement",
                                     "ishida: movement full mori-swords-1 ukita-plain-1"), path)
    async with make_app(load=path).run_test(size=(80, 24)) as pilot:
        await type_command(pilot, "move nihonmatsu")
        await type_command(pilot, "select ishida-leader")
        await type_command(pilot, "select uesugi-3-1")
        screen = await type_command(pilot, "step shirakawa")
        await pilot.pause()
        panel = screen.query_one(MapPanel)
        assert not in_view(panel, "himeji") and not in_view(panel, "osaka")  # the map followed the stack east
        await type_command(pilot, "done")
        await pilot.pause()
        located = [c for c in screen.view.legal if places(c)]
        assert located and all(isinstance(c, Muster) for c in located)  # a muster is all that is left
        assert legal_locations(screen.view) == {"himeji", "osaka"}  # Tokugawa holds Aizu
        assert panel.cursor == "himeji"
        assert in_view(panel, "himeji") and in_view(panel, "osaka")


@pytest.fixture
def built(monkeypatch) -> list[int]:
    """One item for each map row drawn (map_rows.RowDrawer.row) while the test runs."""
    from sekigahara_tui.widgets import map_rows

    built: list[int] = []
    row = map_rows.RowDrawer.row

    def counting_row(self, pieces, cursor):
        built.append(1)
        return row(self, pieces, cursor)

    monkeypatch.setattr(map_rows.RowDrawer, "row", counting_row)
    return built


async def test_a_cursor_move_redraws_only_the_rows_it_leaves_and_enters_and_they_equal_a_whole_drawing(movement_app, built):
    """Issue 27, item 11: a map key rebuilt every row of the map (8 ms a key);
    now the rows whose cursor did not change are kept. The kept drawing must
    equal a drawing made from scratch after every move."""
    async with movement_app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        panel = screen.query_one(MapPanel)
        panel.focus()
        await pilot.pause()
        canvas = panel.canvas
        moved = 0
        for key in ["right", "down", "left", "left", "up", "right", "down", "down"]:
            before_scroll = panel.scroll_offset
            before = panel.cursor
            built.clear()
            await pilot.press(key)
            await pilot.pause()
            if panel.cursor == before:
                continue
            moved += 1
            if panel.scroll_offset == before_scroll:  # a scroll moves the cut labels: every row again
                assert len(built) <= 2, f"{key}: {len(built)} rows rebuilt for a cursor move"
            kept = [r.markup for r in canvas.rows]
            panel._built = None
            panel._draw()
            assert [r.markup for r in canvas.rows] == kept
        assert moved >= 4


async def test_a_key_s_followers_are_drawn_in_the_key_s_own_call(movement_app):
    """Issue 27, item 11: the hint, the map and the place in words followed a
    choices key or a map key by messages handled after the screen was drawn, so
    each key drew the screen twice, a frame apart. They now follow in the key's
    own call: checked here with no await between the key's action and the check."""
    from sekigahara_tui.widgets.location_info import LocationInfo
    from sekigahara_tui.widgets.prompt import PromptPanel, hint

    async with movement_app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        prompt = screen.query_one(PromptPanel)
        panel = screen.query_one(MapPanel)
        info = screen.query_one(LocationInfo)
        prompt.choices.focus()
        await pilot.pause()
        moved_map = False
        for _ in range(prompt.choices.option_count - 1):
            before = panel.cursor
            prompt.choices.action_cursor_down()  # no await: what follows must already be done
            command = prompt.highlighted_command()
            notation = prompt.notation_of(prompt.choices.highlighted)
            assert prompt.command_line.placeholder == hint(notation, prompt.command_line.content_size.width)
            named = [place for place in places(command) if place in panel.layout_data.locations]
            if named and named[-1] != before:
                assert panel.cursor == named[-1]
                assert info._location == named[-1]
                moved_map = True
            await pilot.pause()
        assert moved_map
        panel.focus()
        await pilot.pause()
        before = panel.cursor
        panel.action_move("left")
        assert panel.cursor != before and info._location == panel.cursor
        last = prompt.notation_of(prompt.choices.option_count - 1)
        prompt.command_line.value = last  # typed: the choices narrow at once
        assert prompt.choices.border_title == "1 match: Enter gives it", prompt.choices.border_title


async def test_a_command_redraws_only_the_map_rows_whose_labels_changed_and_they_equal_a_whole_drawing(movement_app, built):
    """Issue 27, item 11: every command rebuilt every row of the map (most of a
    command's time); now a row is rebuilt only when what one of its labels shows
    changed (a block moved, a place became legal, the cursor). The kept drawing
    must equal a drawing made from scratch after every command."""
    async with movement_app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        panel = screen.query_one(MapPanel)
        canvas = panel.canvas
        await pilot.pause()
        for line in ["move osaka", "select ukita-2-1", "step kyoto"]:
            before = [r.markup for r in canvas.rows]
            built.clear()
            await type_command(pilot, line)
            await pilot.pause()
            after = [r.markup for r in canvas.rows]
            changed = sum(old != new for old, new in zip(before, after))
            # A few rows, not the map's (a row may be built twice: the map scrolls to follow).
            assert changed and len(built) < len(after) // 3, (line, len(built), changed, len(after))
            panel._built = None
            panel._draw()
            assert [r.markup for r in canvas.rows] == after, line


async def test_the_maps_glyph_styles_are_kept_until_the_theme_changes_and_then_follow_it(movement_app):
    """Issue 27, item 11: the glyphs' styles were worked out again at every
    drawing (40% of a command's map drawing); they are kept, and a new theme
    (the stylesheet changes) draws every row in its colours."""
    async with movement_app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        panel = screen.query_one(MapPanel)
        kept = panel._styles()
        panel.action_move("left")
        assert panel._styles() is kept
        pilot.app.theme = "textual-light"
        await pilot.pause()
        await pilot.pause()
        assert panel._styles()["road"] == panel.get_component_rich_style("map--road") != kept["road"]
        roads = [span.style for row in panel.canvas.rows for span in row.spans if span.style == panel._styles()["road"]]
        assert roads  # the rows were drawn again in the new theme's road colour
