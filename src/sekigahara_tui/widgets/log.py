"""The log: events this side may see (R55), rendered as lines and wrapped to the
panel's width, never cut: when the panel's width changes, every line is wrapped
again from the events' descriptions."""

from __future__ import annotations

from collections import deque

from textual import events
from textual.widgets import RichLog

from rules.describe import describe, describe_neutral
from rules.surface import Event, Side

MAX_LINES = 2000


class LogPanel(RichLog):
    def __init__(self, **kwargs) -> None:
        # min_width=1: RichLog would otherwise wrap at 78 columns and the panel cut the rest.
        super().__init__(wrap=True, markup=False, max_lines=MAX_LINES, min_width=1, **kwargs)
        self._texts: deque[str] = deque(maxlen=MAX_LINES)
        self._wrapped_at = 0  # the width the lines are wrapped at (0: not yet)
        self._unwritten = False  # lines were added while hidden
        self._following: tuple[Side, int, int] | None = None  # whose log is shown: side, generation, events shown

    def follow(self, log: list[Event], generation: int, side: Side, neutral: bool = False) -> None:
        """Show a seat's log: only the events added since the last call, or all
        of it again when the seat, or its log (an undo: a new generation), changed."""
        shown = self._following
        if shown is None or shown[0] is not side or shown[1] != generation or shown[2] > len(log):
            self.clear()
            self.add(log, side, neutral)
        else:
            self.add(log[shown[2]:], side, neutral)
        self._following = (side, generation, len(log))

    def add(self, events: list[Event], side: Side, neutral: bool = False) -> None:
        """Lines as `side` sees them, or (neutral: a spectator, who plays
        neither side) in words that name both sides."""
        for event in events:
            if text := (describe_neutral(event) if neutral else describe(event, side)):  # "": no line (WeekEnded)
                self.add_line(text)

    def add_line(self, text: str) -> None:
        self._texts.append(text)
        if self._size_known and self.scrollable_content_region.width <= 0:
            # Hidden (another tab, or another seat's screen in hot seat): written
            # now it would wrap at one column; it is written when the panel shows.
            self._unwritten = True
            return
        self.write(text)

    def clear(self) -> RichLog:
        self._texts.clear()
        self._unwritten = False
        return super().clear()

    def on_resize(self, event: events.Resize) -> None:
        width = self.scrollable_content_region.width
        if width <= 0:
            return  # hidden: the lines keep the width they were wrapped at
        if width == self._wrapped_at and not self._unwritten:
            return
        first = not self._wrapped_at
        self._wrapped_at = width
        if (first and not self._unwritten) or not self._size_known:
            return  # RichLog writes its deferred lines at the first size it learns
        self._unwritten = False
        texts = list(self._texts)
        super().clear()
        for text in texts:
            self.write(text)
