"""The terminal map layout (data/layout.toml) and its drawing (sekigahara_tui.map_layout, map_drawing)."""

from __future__ import annotations

import re
from collections import deque
from pathlib import Path

import pytest

from rules.components import Components, default_components, default_data_dir
from sekigahara_tui.map_drawing import HIGHWAY_GLYPHS, ROAD_GLYPHS, Canvas, connection_path, draw_connections
from sekigahara_tui.map_layout import (
    DIRECTIONS,
    LABEL_WIDTH,
    MODES,
    LayoutError,
    MapLayout,
    Placement,
    canvas_size,
    label_origin,
    load_layout,
    neighbour_in_direction,
)

LAYOUT_TEXT = (Path(__file__).resolve().parents[2] / "data" / "layout.toml").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def c() -> Components:
    return default_components()


@pytest.fixture(scope="module")
def layout() -> MapLayout:
    return load_layout()


def label_cells(layout: MapLayout, mode: str) -> dict[tuple[int, int], str]:
    cells = {}
    for p in layout.placements:
        col, row = label_origin(layout, p.location, mode)
        for i in range(LABEL_WIDTH[mode]):
            assert (col + i, row) not in cells, f"{p.location} overlaps {cells[col + i, row]}"
            cells[col + i, row] = p.location
    return cells


def labels_touch(layout: MapLayout, a: str, b: str, mode: str) -> bool:
    """The two labels' rectangles share an edge or a corner (no room for a line)."""
    width = LABEL_WIDTH[mode]
    (ca, ra), (cb, rb) = label_origin(layout, a, mode), label_origin(layout, b, mode)
    return abs(ra - rb) <= 1 and max(ca, cb) - min(ca, cb) <= width


# ---------------------------------------------------------------------------
# The data


def test_every_location_has_exactly_one_placement_and_vice_versa(c, layout):
    placed = [p.location for p in layout.placements]
    assert len(placed) == len(set(placed)) == 51
    assert set(placed) == {loc.id for loc in c.locations}
    for loc in c.locations:
        assert layout.placement(loc.id).location == loc.id


def test_shorts_are_unique_capitalised_three_letter_words(layout):
    shorts = [p.short for p in layout.placements]
    assert len(set(shorts)) == len(shorts)
    for short in shorts:
        assert re.fullmatch(r"[A-Z][a-z]{2}", short), short
    assert layout.placement("kyoto").short == "Kyo"
    assert layout.placement("osaka").short == "Osa"


def test_the_packaged_data_directory_holds_the_layout():
    assert default_data_dir().joinpath("layout.toml").is_file()


def test_load_layout_is_cached(layout):
    assert load_layout() is layout
    assert isinstance(layout.placements[0], Placement)


def test_unknown_location_has_no_placement(layout):
    with pytest.raises(KeyError, match="tokyo"):
        layout.placement("tokyo")
    with pytest.raises(KeyError, match="tokyo"):
        label_origin(layout, "tokyo", "short")


# ---------------------------------------------------------------------------
# Geometry


@pytest.mark.parametrize("mode", MODES)
def test_labels_do_not_overlap_and_same_row_neighbours_keep_a_blank_cell(layout, mode):
    label_cells(layout, mode)  # asserts no overlap
    width = LABEL_WIDTH[mode]
    rows: dict[int, list[int]] = {}
    for p in layout.placements:
        col, row = label_origin(layout, p.location, mode)
        rows.setdefault(row, []).append(col)
    for cols in rows.values():
        cols.sort()
        for left, right in zip(cols, cols[1:]):
            assert right - left >= width + 1


@pytest.mark.parametrize("mode", MODES)
def test_canvas_is_the_tight_bounding_box_plus_a_margin(layout, mode):
    width, height = canvas_size(layout, mode)
    origins = [label_origin(layout, p.location, mode) for p in layout.placements]
    assert min(col for col, _ in origins) == 1
    assert min(row for _, row in origins) == 1
    assert max(col for col, _ in origins) + LABEL_WIDTH[mode] + 1 == width
    assert max(row for _, row in origins) + 2 == height


def test_short_canvas_fits_a_terminal(layout):
    width, height = canvas_size(layout, "short")
    assert width <= 120 and height <= 40


def test_full_mode_stretches_columns_and_keeps_rows(layout):
    kyoto, osaka = label_origin(layout, "kyoto", "short"), label_origin(layout, "osaka", "short")
    full_kyoto, full_osaka = label_origin(layout, "kyoto", "full"), label_origin(layout, "osaka", "full")
    assert full_kyoto[1] == kyoto[1] and full_osaka[1] == osaka[1]
    assert full_kyoto[0] - full_osaka[0] > kyoto[0] - osaka[0]
    assert canvas_size(layout, "full")[1] == canvas_size(layout, "short")[1]


def test_unknown_mode_is_refused(layout):
    with pytest.raises(ValueError, match="mode"):
        canvas_size(layout, "tiny")


# ---------------------------------------------------------------------------
# Drawing


@pytest.mark.parametrize("mode", MODES)
def test_canvas_shape_and_kinds_match_the_characters(layout, mode):
    canvas = draw_connections(layout, mode)
    assert isinstance(canvas, Canvas)
    assert (canvas.width, canvas.height) == canvas_size(layout, mode)
    assert len(canvas.rows) == len(canvas.kinds) == canvas.height
    glyphs = {"": {" "}, "road": set(ROAD_GLYPHS.values()), "highway": set(HIGHWAY_GLYPHS.values())}
    for chars, kinds in zip(canvas.rows, canvas.kinds):
        assert len(chars) == len(kinds) == canvas.width
        for char, kind in zip(chars, kinds):
            assert char in glyphs[kind]


def test_highway_and_road_glyphs_are_disjoint(layout):
    assert not set(HIGHWAY_GLYPHS.values()) & set(ROAD_GLYPHS.values())
    for mode in MODES:
        canvas = draw_connections(layout, mode)
        used: dict[str, set[str]] = {"road": set(), "highway": set()}
        for chars, kinds in zip(canvas.rows, canvas.kinds):
            for char, kind in zip(chars, kinds):
                if kind:
                    used[kind].add(char)
        assert used["road"] and used["highway"]
        assert not used["road"] & used["highway"]


@pytest.mark.parametrize("mode", MODES)
def test_no_line_is_drawn_inside_a_label(layout, mode):
    canvas = draw_connections(layout, mode)
    for col, row in label_cells(layout, mode):
        assert canvas.kinds[row][col] == "" and canvas.rows[row][col] == " "


@pytest.mark.parametrize("mode", MODES)
def test_every_connection_draws_an_unbroken_line_from_label_to_label(c, layout, mode):
    canvas = draw_connections(layout, mode)
    labels = label_cells(layout, mode)

    def next_to(cell: tuple[int, int], location: str) -> bool:
        col, row = cell
        return any(labels.get((col + dc, row + dr)) == location for dc in (-1, 0, 1) for dr in (-1, 0, 1))

    for conn in c.connections:
        path = connection_path(layout, conn.a, conn.b, mode)
        if labels_touch(layout, conn.a, conn.b, mode):
            continue
        assert path, f"{conn.a}-{conn.b} draws nothing"
        cells = [cell for cell, _ in path]
        assert next_to(cells[0], conn.a) and next_to(cells[-1], conn.b)
        # unbroken: the line crosses no third label (it would leave a gap there)
        for (prev, _), ((col, row), (dc, dr)) in zip(path, path[1:]):
            assert (col - dc, row - dr) == prev, f"{conn.a}-{conn.b} runs through a label near {prev}"
        kind = "highway" if conn.highway else "road"
        assert any(canvas.kinds[row][col] == kind for col, row in cells), f"{conn.a}-{conn.b} is drawn over"


def test_glyphs_follow_the_local_slope(layout):
    # Osaka-Kyoto is a highway on one row; Himeji-Ayabe a road on one row.
    canvas = draw_connections(layout, "short")
    (col, row), _ = connection_path(layout, "osaka", "kyoto", "short")[0]
    assert canvas.rows[row][col] == "─"
    (col, row), _ = connection_path(layout, "himeji", "ayabe", "short")[0]
    assert canvas.rows[row][col] == "┄"


# ---------------------------------------------------------------------------
# Arrow keys


@pytest.mark.parametrize("mode", MODES)
def test_every_neighbour_is_one_arrow_away(c, layout, mode):
    for loc in c.locations:
        reached = {neighbour_in_direction(layout, loc.id, d, mode) for d in DIRECTIONS}
        missing = set(c.neighbours(loc.id)) - reached
        assert not missing, f"{loc.id}: no arrow reaches {sorted(missing)}"


@pytest.mark.parametrize("mode", MODES)
def test_arrows_from_kyoto_reach_every_location(c, layout, mode):
    seen = {"kyoto"}
    queue = deque(["kyoto"])
    while queue:
        here = queue.popleft()
        for direction in DIRECTIONS:
            there = neighbour_in_direction(layout, here, direction, mode)
            if there is not None and there not in seen:
                seen.add(there)
                queue.append(there)
    assert seen == {loc.id for loc in c.locations}


def test_arrows_from_kyoto_follow_the_map(layout):
    moves = {d: neighbour_in_direction(layout, "kyoto", d, "short") for d in DIRECTIONS}
    assert moves == {"left": "osaka", "right": "sawayama", "up": "ayabe", "down": "minakuchi"}


def test_arrow_falls_back_to_the_nearest_location_that_way(c, layout):
    # Wakayama's neighbours are Osaka (up) and Tanabe (down): right goes to the
    # nearest label squarely that way, which is no neighbour.
    assert set(c.neighbours("wakayama")) == {"osaka", "tanabe"}
    assert neighbour_in_direction(layout, "wakayama", "right", "short") == "kyoto"


def test_arrow_towards_nothing_gives_none(layout):
    assert neighbour_in_direction(layout, "himeji", "left", "short") is None
    assert neighbour_in_direction(layout, "kanazawa", "up", "short") is None


def test_unknown_direction_is_refused(layout):
    with pytest.raises(ValueError, match="direction"):
        neighbour_in_direction(layout, "kyoto", "north", "short")


# ---------------------------------------------------------------------------
# Broken layout files


def broken(old: str, new: str, count: int = 1) -> str:
    assert old in LAYOUT_TEXT
    return LAYOUT_TEXT.replace(old, new, count)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (broken("col = 13\n", ""), r"entry 2: missing field 'col'"),
        (broken('id = "ayabe"', 'id = "tokyo"'), r"entry 2: unknown location 'tokyo'"),
        (broken('id = "ayabe"', 'id = "himeji"'), r"entry 2: location 'himeji' already placed by entry 1"),
        (broken("col = 13", 'col = "13"'), r"entry 2: col: expected an integer, got '13'"),
        (broken("col = 13", "col = 13\ncolour = 1"), r"entry 2: unknown key 'colour'"),
        (broken('short = "Aya"', 'short = "AYA"'), r"entry 2: short: expected 3 letters"),
        (broken('short = "Aya"', 'short = "Him"'), r"entry 2: short 'Him' already used by entry 1"),
        (broken("col = 13", "col = 5"), r"entry 2: the label of 'ayabe' overlaps or touches that of 'himeji'"),
        (LAYOUT_TEXT + "[[locations\n", r"malformed TOML"),
        ('[[locations]]\nid = "kyoto"\nshort = "Kyo"\ncol = 0\nrow = 0\n', r"no entry for location 'himeji'"),
        ("", r"expected \[\[locations\]\] entries"),
    ],
    ids=[
        "missing field",
        "unknown location",
        "repeated location",
        "wrong type",
        "unknown key",
        "bad short",
        "repeated short",
        "overlap",
        "malformed",
        "missing location",
        "empty",
    ],
)
def test_a_broken_layout_gives_a_clear_error(text, message):
    with pytest.raises(LayoutError, match=r"^layout\.toml: " + message):
        load_layout(text=text)


def test_a_layout_is_read_from_a_path(tmp_path):
    path = tmp_path / "layout.toml"
    path.write_text(LAYOUT_TEXT, encoding="utf-8")
    assert load_layout(path) == load_layout()
    path.write_text(LAYOUT_TEXT.replace("row = 5\n", "", 1), encoding="utf-8")
    with pytest.raises(LayoutError, match=r"^layout\.toml: entry 1: missing field 'row'$"):
        load_layout(str(path))
