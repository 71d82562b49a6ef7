"""Where each location's label sits on the terminal map.

`data/layout.toml` places one label per map location on a character canvas:
`col`, `row` is the cell of the label's left end, `short` its 3-letter short
form. This module reads and checks that file and works out, without any
Textual import:

* the geometry of a display mode (`label_origin`, `canvas_size`): "short" uses
  the stored cells, "full" stretches columns by `FULL_STRETCH` (rows are kept)
  so the wider full-name labels still fit; both are shifted so the labels'
  tight bounding box starts at cell (1, 1) with a margin of one cell;
* cursor movement by arrow keys (`neighbour_in_direction`).

What is drawn from this geometry, the lines between the labels and the
overview's marks, is in map_drawing.py. A label is one row tall and
`LABEL_WIDTH[mode]` cells wide; the app writes into it, e.g. `Kyo#$ 3:2`
("short") or `Sekigahar 3:2` ("full").
"""

from __future__ import annotations

import functools
import math
import tomllib
from collections.abc import Callable, Iterator, Mapping
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from attrs import frozen
from cattrs import ClassValidationError, Converter, ForbiddenExtraKeysError
from cattrs.gen import make_dict_structure_fn, override

from rules.surface import Components, default_components, default_data_dir

__all__ = [
    "DIRECTIONS",
    "FALLBACK_ANGLE",
    "FULL_STRETCH",
    "LABEL_WIDTH",
    "LAYOUT_FILE",
    "MAX_ANGLE",
    "MODES",
    "LayoutError",
    "MapLayout",
    "Mode",
    "Placement",
    "canvas_size",
    "check_mode",
    "label_cells",
    "label_centre",
    "label_origin",
    "load_layout",
    "neighbour_in_direction",
]


LAYOUT_FILE = "layout.toml"

Mode = Literal["short", "full"]
MODES: tuple[Mode, ...] = ("short", "full")

LABEL_WIDTH: dict[str, int] = {"short": 9, "full": 13}
"""Cells a label takes in each mode (it is one row tall)."""

FULL_STRETCH = (3, 2)
""""full" mode multiplies stored columns by 3/2 (rounded down): two labels 10
columns apart in "short" (9 wide plus a blank) are 15 apart, room for 13 + 1."""

_COLUMN_STRETCH: dict[str, tuple[int, int]] = {"short": (1, 1), "full": FULL_STRETCH}

CELL_ASPECT = 2.0
"""A terminal cell is about twice as tall as it is wide."""

Direction = Literal["left", "right", "up", "down"]
DIRECTIONS: dict[str, tuple[int, int]] = {"left": (-1, 0), "right": (1, 0), "up": (0, -1), "down": (0, 1)}
"""Unit vectors (columns east, rows south) of the four arrow keys."""

MAX_ANGLE = 67.5
"""An arrow moves to a neighbour whose label lies within this many degrees of its direction."""

FALLBACK_ANGLE = 45.0
"""With no such neighbour, it moves to the nearest label within this many degrees."""

class LayoutError(ValueError):
    """The layout file is wrong: `layout.toml: entry N: problem` (N counts from 1)."""


# ---------------------------------------------------------------------------
# The layout


@frozen(cache_hash=True)
class Placement:
    """A location's label: its left end at (`col`, `row`) of the stored canvas."""

    location: str
    short: str
    col: int
    row: int


@frozen(cache_hash=True)
class MapLayout:
    placements: tuple[Placement, ...]

    def placement(self, location_id: str) -> Placement:
        try:
            return self._by_location[location_id]
        except KeyError:
            raise KeyError(f"no placement for location {location_id!r}") from None

    @property
    def locations(self) -> tuple[str, ...]:
        return tuple(p.location for p in self.placements)

    @cached_property
    def _by_location(self) -> Mapping[str, Placement]:
        return {p.location: p for p in self.placements}


# ---------------------------------------------------------------------------
# Loading


class _BadValue(TypeError):
    pass


def _exact(expected: type, name: str) -> Callable[[Any, Any], Any]:
    def structure(value: Any, _: Any) -> Any:
        if type(value) is not expected:
            raise _BadValue(f"expected {name}, got {value!r}")
        return value

    return structure


def _converter() -> Converter:
    converter = Converter(forbid_extra_keys=True)
    converter.register_structure_hook(str, _exact(str, "a string"))
    converter.register_structure_hook(int, _exact(int, "an integer"))
    converter.register_structure_hook(
        Placement, make_dict_structure_fn(Placement, converter, location=override(rename="id"))
    )
    return converter


_CONVERTER = _converter()


def _problem(exc: ClassValidationError) -> str:
    problems = []
    for sub in _leaves(exc):
        notes = getattr(sub, "__notes__", [])
        field = getattr(notes[-1], "name", "?") if notes else "?"  # cattrs' AttributeValidationNote
        if isinstance(sub, ForbiddenExtraKeysError):
            problems.append("unknown key " + ", ".join(map(repr, sorted(sub.extra_fields))))
        elif isinstance(sub, KeyError):
            problems.append(f"missing field {_toml_name(field)!r}")
        else:
            problems.append(f"{_toml_name(field)}: {sub}")
    return "; ".join(problems)


def _leaves(exc: BaseException) -> Iterator[BaseException]:
    if isinstance(exc, ClassValidationError):
        for sub in exc.exceptions:
            yield from _leaves(sub)
    else:
        yield exc


def _toml_name(attribute: str) -> str:
    return "id" if attribute == "location" else attribute


def _fail(problem: str, entry: int | None = None) -> LayoutError:
    where = f"entry {entry}: " if entry is not None else ""
    return LayoutError(f"{LAYOUT_FILE}: {where}{problem}")


@functools.cache
def load_layout(path: Path | str | None = None, *, text: str | None = None) -> MapLayout:
    """Read and check the layout: the packaged `data/layout.toml`, `path`, or `text`.

    Raises `LayoutError` (`layout.toml: entry N: problem`) if the file is not
    valid TOML, an entry lacks a field or has a wrong one, names an unknown or
    repeated location, or a label would overlap (or touch) another.
    """
    if text is None:
        try:
            if path is None:
                raw = default_data_dir().joinpath(LAYOUT_FILE).read_bytes()
            else:
                raw = Path(path).read_bytes()
            text = raw.decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise _fail(f"cannot read ({exc})") from exc
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise _fail(f"malformed TOML: {exc}") from exc
    return _build(table, default_components())


def _build(table: dict[str, Any], components: Components) -> MapLayout:
    extra = sorted(set(table) - {"locations"})
    if extra:
        raise _fail("unknown key " + ", ".join(map(repr, extra)))
    entries = table.get("locations")
    if not isinstance(entries, list) or not entries:
        raise _fail("expected [[locations]] entries")
    placements: list[Placement] = []
    known = {loc.id for loc in components.locations}
    seen: dict[str, int] = {}
    shorts: dict[str, int] = {}
    for n, entry in enumerate(entries, start=1):
        if not isinstance(entry, dict):
            raise _fail(f"expected a table, got {entry!r}", n)
        try:
            placement = _CONVERTER.structure(entry, Placement)
        except ClassValidationError as exc:
            raise _fail(_problem(exc), n) from exc
        if placement.location not in known:
            raise _fail(f"unknown location {placement.location!r}", n)
        if placement.location in seen:
            raise _fail(f"location {placement.location!r} already placed by entry {seen[placement.location]}", n)
        short = placement.short
        if not (len(short) == 3 and short.isascii() and short.isalpha() and short == short.capitalize()):
            raise _fail(f"short: expected 3 letters like 'Kyo', got {short!r}", n)
        if short in shorts:
            raise _fail(f"short {short!r} already used by entry {shorts[short]}", n)
        if placement.col < 0 or placement.row < 0:
            raise _fail("col and row must not be negative", n)
        seen[placement.location] = shorts[short] = n
        placements.append(placement)
    missing = [loc.id for loc in components.locations if loc.id not in seen]
    if missing:
        raise _fail("no entry for location " + ", ".join(map(repr, missing)))
    layout = MapLayout(tuple(placements))
    for mode in MODES:
        _check_spacing(layout, mode)
    return layout


def _check_spacing(layout: MapLayout, mode: str) -> None:
    """Labels on one row need a blank cell between them."""
    width = LABEL_WIDTH[mode]
    by_row: dict[int, list[tuple[int, int, Placement]]] = {}
    for n, p in enumerate(layout.placements, start=1):
        by_row.setdefault(p.row, []).append((_stretch(p.col, mode), n, p))
    for row in by_row.values():
        row.sort(key=lambda item: item[0])
        for (left, n, a), (right, m, b) in zip(row, row[1:]):
            if right - left < width + 1:
                (n, a), (m, b) = sorted([(n, a), (m, b)], key=lambda item: item[0])
                raise _fail(
                    f"the label of {b.location!r} overlaps or touches that of {a.location!r} "
                    f"(entry {n}) in {mode!r} mode: same row, left ends less than {width + 1} columns apart",
                    m,
                )


# ---------------------------------------------------------------------------
# Geometry


def check_mode(mode: str) -> None:
    if mode not in LABEL_WIDTH:
        raise ValueError(f"unknown map mode {mode!r} (expected one of {', '.join(MODES)})")


def _stretch(col: int, mode: str) -> int:
    num, den = _COLUMN_STRETCH[mode]
    return col * num // den


@functools.cache
def _origins(layout: MapLayout, mode: str) -> dict[str, tuple[int, int]]:
    check_mode(mode)
    cols = {p.location: _stretch(p.col, mode) for p in layout.placements}
    left = min(cols.values())
    top = min(p.row for p in layout.placements)
    return {p.location: (cols[p.location] - left + 1, p.row - top + 1) for p in layout.placements}


def label_origin(layout: MapLayout, location_id: str, mode: str) -> tuple[int, int]:
    """The canvas cell (col, row) of the left end of a location's label in `mode`."""
    origins = _origins(layout, mode)
    try:
        return origins[location_id]
    except KeyError:
        raise KeyError(f"no placement for location {location_id!r}") from None


def canvas_size(layout: MapLayout, mode: str) -> tuple[int, int]:
    """(width, height): the labels' tight bounding box plus a margin of 1 all round."""
    origins = _origins(layout, mode).values()
    width = max(col for col, _ in origins) + LABEL_WIDTH[mode] + 1
    height = max(row for _, row in origins) + 2
    return width, height


@functools.cache
def label_cells(layout: MapLayout, mode: str) -> dict[tuple[int, int], str]:
    width = LABEL_WIDTH[mode]
    return {
        (col + i, row): location
        for location, (col, row) in _origins(layout, mode).items()
        for i in range(width)
    }


def label_centre(layout: MapLayout, location_id: str, mode: str) -> tuple[int, int]:
    col, row = label_origin(layout, location_id, mode)
    return col + LABEL_WIDTH[mode] // 2, row


# ---------------------------------------------------------------------------
# Arrow keys


def _bearing(layout: MapLayout, origin: str, target: str, direction: str, mode: str) -> tuple[float, float]:
    """(angle in degrees from `direction`, distance) of `target`'s label seen from `origin`'s.

    Rows count `CELL_ASPECT` times a column, so angles look right on screen.
    """
    (c0, r0), (c1, r1) = label_centre(layout, origin, mode), label_centre(layout, target, mode)
    dx, dy = c1 - c0, (r1 - r0) * CELL_ASPECT
    distance = math.hypot(dx, dy)
    if distance == 0:
        return 180.0, 0.0
    ux, uy = DIRECTIONS[direction]
    cosine = max(-1.0, min(1.0, (dx * ux + dy * uy) / distance))
    return math.degrees(math.acos(cosine)), distance


def neighbour_in_direction(layout: MapLayout, location_id: str, direction: str, mode: str) -> str | None:
    """Where an arrow key moves the cursor from `location_id`, or None.

    The map neighbour whose label lies within `MAX_ANGLE` degrees of
    `direction`, closest in angle (then distance); failing that, the nearest
    location of any kind within `FALLBACK_ANGLE` degrees (squarely that way, so
    the cursor does not jump across the map); failing that, None. Angles and
    distances are measured between label centres in the mode's geometry.
    """
    if direction not in DIRECTIONS:
        raise ValueError(f"unknown direction {direction!r} (expected one of {', '.join(DIRECTIONS)})")
    check_mode(mode)
    layout.placement(location_id)  # a clear KeyError for an unknown location
    components = default_components()

    def within(ids: tuple[str, ...] | list[str], limit: float) -> list[tuple[float, float, str]]:
        found = []
        for other in ids:
            angle, distance = _bearing(layout, location_id, other, direction, mode)
            if angle <= limit and distance > 0:
                found.append((angle, distance, other))
        return found

    neighbours = within(components.neighbours(location_id), MAX_ANGLE)
    if neighbours:
        return min(neighbours)[2]
    others = within([p.location for p in layout.placements if p.location != location_id], FALLBACK_ANGLE)
    if others:
        return min(others, key=lambda item: (item[1], item[0], item[2]))[2]
    return None
