"""The log: events this side may see (R55), rendered as lines, never stored as text."""

from __future__ import annotations

from textual.widgets import RichLog

from rules.describe import describe
from rules.surface import Event, Side


class LogPanel(RichLog):
    def __init__(self, **kwargs) -> None:
        super().__init__(wrap=True, markup=False, max_lines=2000, **kwargs)

    def add(self, events: list[Event], side: Side) -> None:
        for event in events:
            self.write(describe(event, side))
