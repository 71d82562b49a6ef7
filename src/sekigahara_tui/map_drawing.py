"""What the terminal map draws from the labels' geometry (map_layout.py),
without any Textual import:

* the connections, as straight lines between the labels
  (`draw_connections`): highways solid (`─ │ ╱ ╲`), roads dotted (`┄ ┆ ⋰ ⋱`),
  so that a road reads as a dotted line, not dots and dashes;
* the overview, the whole board in a small panel (`overview_origins`).
"""

from __future__ import annotations

import functools

from attrs import frozen

from rules.surface import default_components
from sekigahara_tui.map_layout import MapLayout, canvas_size, check_mode, label_cells, label_centre

__all__ = [
    "HIGHWAY_GLYPHS",
    "OVERVIEW_WIDTH",
    "ROAD_GLYPHS",
    "Canvas",
    "connection_path",
    "draw_connections",
    "overview_origins",
]


# Glyphs by the step (d_col, d_row) that reaches a cell from the previous one.
HIGHWAY_GLYPHS: dict[tuple[int, int], str] = {
    (1, 0): "─", (-1, 0): "─",
    (0, 1): "│", (0, -1): "│",
    (1, 1): "╲", (-1, -1): "╲",
    (1, -1): "╱", (-1, 1): "╱",
}  # fmt: skip
ROAD_GLYPHS: dict[tuple[int, int], str] = {
    (1, 0): "┄", (-1, 0): "┄",
    (0, 1): "┆", (0, -1): "┆",
    (1, 1): "⋱", (-1, -1): "⋱",
    (1, -1): "⋰", (-1, 1): "⋰",
}  # fmt: skip


@frozen
class Canvas:
    """The connections drawn on a `width` x `height` character canvas.

    `rows[r][c]` is the character of cell (c, r), a space where nothing is
    drawn; `kinds[r][c]` is "" (blank), "road" or "highway".
    """

    width: int
    height: int
    rows: tuple[str, ...]
    kinds: tuple[tuple[str, ...], ...]

    def __str__(self) -> str:
        return "\n".join(self.rows)


# ---------------------------------------------------------------------------
# Drawing the connections


def _bresenham(start: tuple[int, int], end: tuple[int, int]) -> list[tuple[int, int]]:
    (x0, y0), (x1, y1) = start, end
    dx, dy = abs(x1 - x0), -abs(y1 - y0)
    sx, sy = (1 if x1 > x0 else -1), (1 if y1 > y0 else -1)
    error = dx + dy
    points = [(x0, y0)]
    while (x0, y0) != (x1, y1):
        double = 2 * error
        if double >= dy:
            error += dy
            x0 += sx
        if double <= dx:
            error += dx
            y0 += sy
        points.append((x0, y0))
    return points


def connection_path(layout: MapLayout, a: str, b: str, mode: str) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The cells drawn for a connection from `a` to `b`, each with the step reaching it.

    The line runs between the two labels' centres; only the cells outside
    every label are returned, so it starts and ends just outside the labels.
    """
    labels = label_cells(layout, mode)
    points = _bresenham(label_centre(layout, a, mode), label_centre(layout, b, mode))
    return [
        (cell, (cell[0] - prev[0], cell[1] - prev[1]))
        for prev, cell in zip(points, points[1:])
        if cell not in labels
    ]


@functools.cache
def draw_connections(layout: MapLayout, mode: str) -> Canvas:
    """All connections of the map drawn on the mode's canvas (roads first, highways on top)."""
    check_mode(mode)
    width, height = canvas_size(layout, mode)
    chars = [[" "] * width for _ in range(height)]
    kinds = [[""] * width for _ in range(height)]
    connections = sorted(default_components().connections, key=lambda conn: conn.highway)
    for conn in connections:
        kind, glyphs = ("highway", HIGHWAY_GLYPHS) if conn.highway else ("road", ROAD_GLYPHS)
        for (col, row), step in connection_path(layout, conn.a, conn.b, mode):
            chars[row][col] = glyphs[step]
            kinds[row][col] = kind
    return Canvas(
        width=width,
        height=height,
        rows=tuple("".join(row) for row in chars),
        kinds=tuple(tuple(row) for row in kinds),
    )


# ---------------------------------------------------------------------------
# The overview: the whole board in a small panel

OVERVIEW_WIDTH = 6
"""Cells an overview mark takes: a 3-letter short form and up to 3 cells of counts."""


@functools.cache
def overview_origins(layout: MapLayout, width: int, height: int) -> dict[str, tuple[int, int]]:
    """Where each location's overview mark (`OVERVIEW_WIDTH` cells, one row) sits
    in a `width` x `height` panel: the stored cells scaled to fit, then each mark
    moved to the nearest free place (same row first, then the rows next to it)
    so that marks never overlap or touch. Raises ValueError if the panel is too
    small for every mark."""
    w = OVERVIEW_WIDTH
    if width < w or height < 1:
        raise ValueError(f"an overview needs at least {w}x1 cells, not {width}x{height}")
    cols = [p.col for p in layout.placements]
    rows = [p.row for p in layout.placements]
    left, top = min(cols), min(rows)
    span_c, span_r = max(max(cols) - left, 1), max(max(rows) - top, 1)
    scale_c, scale_r = (width - w) / span_c, (height - 1) / span_r
    taken = [[False] * width for _ in range(height)]
    placed: dict[str, tuple[int, int]] = {}

    def free(c: int, r: int) -> bool:
        if not (0 <= r < height and 0 <= c and c + w <= width):
            return False
        return not any(taken[r][x] for x in range(max(0, c - 1), min(width, c + w + 1)))

    order = sorted(layout.placements, key=lambda p: (p.row, p.col))
    for p in order:
        want_c, want_r = round((p.col - left) * scale_c), round((p.row - top) * scale_r)
        spot = None
        for reach_r, reach_c in ((3, 12), (height, width)):  # near first; anywhere if need be
            options = sorted(
                (abs(dr) * 4 + abs(dc), want_c + dc, want_r + dr)
                for dr in range(-reach_r, reach_r + 1)
                for dc in range(-reach_c, reach_c + 1)
            )
            spot = next(((c, r) for _, c, r in options if free(c, r)), None)
            if spot is not None:
                break
        if spot is None:
            raise ValueError(f"a {width}x{height} overview has no room for {p.location!r}")
        c, r = spot
        for x in range(c, c + w):
            taken[r][x] = True
        placed[p.location] = spot
    return placed
