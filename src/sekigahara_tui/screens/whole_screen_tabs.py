"""ctrl+t: the Hand/Log/Public tabs on the whole screen (Textual's maximize),
and back (issue 27, a newcomer's play-test). Maximizing hides every other
widget but leaves the focus where it was, so the keys went to hidden widgets
(→ moved the hidden map's cursor); leaving, the focus stayed on a pane of the
small tabs with no mark. Here the focus goes to the tab bar while the tabs
fill the screen, and back where it was before ctrl+t when they leave it."""

from __future__ import annotations

from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import TabbedContent, Tabs


class WholeScreenTabs:
    def __init__(self) -> None:
        self.came_from: Widget | None = None  # the focus before ctrl+t
        self._watching = False

    def toggle(self, screen: Screen) -> None:
        if screen.maximized is not None:
            screen.minimize()
        else:
            self.open(screen)

    def open(self, screen: Screen) -> None:
        if not self._watching:  # every way out (ctrl+t, the app's own Esc) gives the focus back
            self._watching = True
            screen.watch(screen, "maximized", lambda maximized: self._left(screen) if maximized is None else None, init=False)
        tabs = screen.query_one("#tabs", TabbedContent)
        self.came_from = screen.focused
        screen.maximize(tabs, container=False)
        screen.set_focus(tabs.query_one(Tabs))  # ← → switch tabs, Tab goes into the pane

    def _left(self, screen: Screen) -> None:
        before, self.came_from = self.came_from, None
        if before is None or not (before.is_attached and before.display and before.focusable):
            before = screen.query_one("#choices")
        screen.set_focus(before)
