"""The lines under the map: the cursor's location in words, and while a stack
moves, the steps left and whether it may force march.

The lines are wrapped here, to the widget's width, so that the widget knows
how many rows they take. Your blocks are named in a short form (by daimyo,
alike blocks counted: labels.blocks_label); if they do not fit in the rows the
layout gives, the place's own line gives way to them ("yours at Osaka #: ..."),
and if they still do not fit, the line names as many as fit and counts the
rest ("+3 more"): never a name cut, never a block left unsaid.
"""

from __future__ import annotations

import textwrap

from textual.content import Content
from textual.geometry import Size
from textual.widget import Widget

from rules.surface import PlayerView, Side, default_components
from sekigahara_tui.labels import block_label, blocks_label, side_name
from sekigahara_tui.widgets.map_rows import marks
from sekigahara_tui.widgets.steady_text import Leaf


def movement_lines(view: PlayerView) -> list[str]:
    """While your stack moves: the steps each selected block has left (all of the
    stack's blocks before any is selected), and whether the group may force march."""
    movement = view.movement
    move = movement.stack_move if movement else None
    if move is None:
        return []
    selected = set(move.selection)
    steps = [(b, n, reach(move.progress(b), n)) for b, n in movement.steps_left if not selected or b in selected]
    figures = sorted({(n, said) for _, n, said in steps}, reverse=True)
    if not selected and len(figures) == 1:
        said = f"{figures[0][1]} for each block"
    else:
        said = "; ".join(f"{figure} for " + ", ".join(block_label(b) for b, _, f in steps if f == figure) for _, figure in figures)
    lines = [f"Steps left: {said or 'none'}"]
    why = movement.why_no_force_march
    lines.append("Force march: allowed, for a card" if why is None else f"No force march: {why}")
    return lines


def reach(progress, steps_left: int) -> str:
    """A block's steps left in words. The rules' figure (view.steps_left) counts
    the highway bonus while the block's move has kept to highways, and a road
    step loses it (7.3.3: +1 only for a move made entirely along a highway):
    where a highway leaves, both figures; where none does, the road's alone
    (at Kanazawa a stack of 5 with leadership has 1, not 2)."""
    if not progress.highway_only or not steps_left:
        return str(steps_left)
    by_road = steps_left - 1
    if not highway_from(progress.at):
        return str(by_road)
    return f"{steps_left} ({by_road} by road)"  # short: the lines under the map have 44 cells at 80x24


def highway_from(location: str) -> bool:
    c = default_components()
    return any(c.connection(location, other).highway for other in c.neighbours(location))


def place_line(view: PlayerView, location: str) -> str:
    """The location, its marks and what it is: 'Osaka #: castle (gold), controlled by Ishida'."""
    loc = default_components().location(location)
    facts = []
    if loc.castle:
        facts.append(f"castle ({'gold' if loc.castle is Side.ISHIDA else 'black'})")
    if loc.capital:
        facts.append("capital")
    elif loc.resource:
        facts.append("resource")
    controllers = dict(view.castle_control) | dict(view.resource_control)
    if location in controllers:
        facts.append(f"controlled by {side_name(controllers[location])}")
    return f"{loc.name} {marks(location)}" + (f": {', '.join(facts)}" if facts else "")


def own_line(blocks: tuple[str, ...], shown: int | None = None, where: str = "") -> str:
    """'yours: ...' naming every block, or only the first `shown` and a count of
    the rest; `where` names the place when no line of its own does ('yours at Osaka #: ...')."""
    head = f"yours{where}"
    if not blocks:
        return f"{head}: none"
    if shown is None or shown >= len(blocks):
        return f"{head}: {blocks_label(blocks)}"
    if shown == 0:
        return f"{head}: {len(blocks)} blocks"
    return f"{head} ({len(blocks)}): {blocks_label(blocks[:shown])}; +{len(blocks) - shown} more"


def enemy_line(view: PlayerView, location: str) -> str | None:
    enemy = view.enemy_count_at(location)
    if not enemy:
        return None
    known = [b for b, place in view.enemy_known if place == location]
    return f"enemy: {enemy} block{'s' if enemy != 1 else ''}" + (f" (seen: {blocks_label(known)})" if known else "")


def wrap(lines: list[str], width: int) -> list[str]:
    """Lines wrapped at spaces to `width` cells (a word longer than that is broken)."""
    width = max(width, 1)
    return [row for line in lines for row in (textwrap.wrap(line, width, break_on_hyphens=False) or [""])]


def location_lines(view: PlayerView, location: str, width: int, rows: int | None = None) -> list[str]:
    """The rows to show for `location` at `width`, in at most `rows` rows if it
    can be done: first by leaving out what the place is (castle, control: its
    marks stay, and the map shows them) to name your blocks, then by counting
    the last of them instead of naming them."""
    head = movement_lines(view)
    enemy = enemy_line(view, location)
    tail = [enemy] if enemy else []
    blocks = view.blocks_at(location)
    lines = wrap(head + [place_line(view, location), own_line(blocks)] + tail, width)
    if rows is None or len(lines) <= rows:
        return lines
    where = f" at {default_components().location(location).name} {marks(location)}".rstrip()
    for shown in range(len(blocks), -1, -1):
        lines = wrap(head + [own_line(blocks, shown, where)] + tail, width)
        if len(lines) <= rows:
            break
    return lines


def location_info(view: PlayerView, location: str) -> str:
    """The location in words, unwrapped (one line each)."""
    return "\n".join(location_lines(view, location, width=10_000))


ROWS = 5  # the lines' rows whatever the moment: most places take 2 or 3; a stack move's 4 to 7 (5 shown)


class LocationInfo(Leaf, Widget):
    """The cursor's location in words, fitted to ROWS rows."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._view: PlayerView | None = None
        self._location: str | None = None

    def show(self, view: PlayerView, location: str) -> None:
        if view is self._view and location == self._location:
            return
        self._view, self._location = view, location
        # The same rows from place to place and from moment to moment (a stack
        # move's steps left and force march, fitted as the module says): rows
        # that followed each place laid the whole screen out again on a third of
        # the commands and map keys, and rows that followed the stack move (3,
        # then 5) at its first and last command, with two frames more for what
        # the layout resized (issue 27, item 11). A repaint only.
        self.refresh()

    def lines(self, width: int, rows: int | None = None) -> list[str]:
        if self._view is None or self._location is None:
            return []
        return location_lines(self._view, self._location, width, rows)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return ROWS

    def render(self) -> Content:
        size = self.content_size
        return Content("\n".join(self.lines(size.width, size.height)))
