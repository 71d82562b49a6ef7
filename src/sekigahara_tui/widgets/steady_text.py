"""Updating a height-auto line of text without laying the screen out again
when the rows it takes stay the same (issue 27, item 11).

Textual's Static.update asks for a layout of the whole screen by default,
because new text may need another row. Most of the game's lines (the
decision, the message) keep their height from one command to the next: a
min-height holds them. A layout is asked for only when the rows the text
takes, within the line's min-height and max-height, differ from the rows it
has now (a layout already pending lays out the newest text anyway).
"""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static


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
