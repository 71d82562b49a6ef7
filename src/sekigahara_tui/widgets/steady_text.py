"""Updating a height-auto line of text without laying the screen out again
when the rows it takes stay the same (issue 27, item 11).

Textual's Static.update asks for a layout of the whole screen by default,
because new text may need another row. Most of the game's lines (the
decision, the message) keep their height from one command to the next: a
min-height holds them. A layout is asked for only when the rows the text
takes, within the line's min-height and max-height, differ from the rows it
has now (a layout already pending lays out the newest text anyway).

When a layout does change a widget's size, Textual sets the widget's virtual
size, and Widget's virtual size asks for one more layout of the whole screen,
a frame later. For a leaf (no children, no scrolling of its own) that second
layout finds nothing to move: the game's lines and panels are Leaf widgets.
"""

from __future__ import annotations

from textual.containers import Vertical
from textual.content import Content
from textual.geometry import Size
from textual.reactive import Reactive
from textual.scrollbar import ScrollBar, ScrollBarCorner
from textual.widget import Widget
from textual.widgets import Static


class Leaf:
    """Mixed into a widget with no children that does not scroll itself: a new
    size repaints it, and asks no second layout of the screen."""

    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)  # Widget's: layout=True


class SteadyStatic(Leaf, Static):
    """A line of text updated with update_steady."""


class SteadyBox(Leaf, Vertical):
    """A Vertical that does not scroll (overflow hidden): the layout that resizes
    it places its children with it, so its new size asks no second layout."""


class SteadyScrollBar(Leaf, ScrollBar):
    """A scrollbar whose new size repaints it without a second layout of the screen."""


class SteadyScrollBarCorner(Leaf, ScrollBarCorner):
    """The corner between two steady scrollbars, likewise."""


def steady_scrollbars(widget: Widget) -> None:
    """The widget's scrollbars (made now if not yet) ask no second layout when a
    layout resizes them (the message line or the place under the map took a
    row from the widget). Textual makes them itself, as plain ScrollBars: only
    their class is changed, to one that is also a Leaf."""
    for bar in (widget.vertical_scrollbar, widget.horizontal_scrollbar):
        bar.__class__ = SteadyScrollBar
    widget.scrollbar_corner.__class__ = SteadyScrollBarCorner


def rows_for(line: Static, text: str) -> int | None:
    """The rows `text` takes in `line` once laid out; None before its first layout."""
    width = line.content_region.width
    if not width:
        return None
    rows = Content(text).get_height(line.styles, width) if text else 0
    low, high = line.styles.min_height, line.styles.max_height
    if low is not None and low.is_cells:
        rows = max(rows, int(low.value))
    if high is not None and high.is_cells:
        rows = min(rows, int(high.value))
    return rows


def update_steady(line: Static, text: str) -> None:
    """`line.update(text)`, laying out again only if its height changes."""
    rows = rows_for(line, text)
    line.update(text, layout=rows is None or rows != line.content_region.height)
