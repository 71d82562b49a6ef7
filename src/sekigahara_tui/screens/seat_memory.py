"""Hot seat: what each seat's game screen keeps for itself between hand-overs.

Two players share one screen, so what one of them left on it (the map's
cursor, scroll, zoom and search, a half-typed command, the tab, the board
shown, the last outcome said) is put away when the other takes over, and
given back, never shown to the other (R55), when that seat's turn comes again.
"""

from __future__ import annotations

from attrs import frozen
from textual.screen import Screen
from textual.widgets import ContentSwitcher, TabbedContent

from rules.surface import Side
from sekigahara_tui.widgets.map_panel import MapPanel
from sekigahara_tui.widgets.prompt import PromptPanel


@frozen
class SeatScreen:
    """What one seat's screen keeps for itself between hand-overs."""

    cursor: str = "kyoto"
    scroll: tuple[float, float] = (0.0, 0.0)
    overview: bool = False
    search: str | None = None
    followed: tuple | None = None  # the action the map last followed for this seat
    typed: str = ""
    tab: str = "hand-tab"
    board: str = "map-view"
    in_battle: bool = False


class SeatMemory:
    """Each seat's SeatScreen, read from and given back to the game screen's
    widgets (its map, prompt, #tabs and #board), and each seat's last outcome."""

    def __init__(self) -> None:
        self._kept: dict[Side, SeatScreen] = {}
        self.feedback: dict[Side, tuple[str, bool]] = {}  # each seat's last outcome, kept until its next

    def keep(self, side: Side, screen: Screen, in_battle: bool) -> None:
        """What the leaving seat's screen keeps for itself: map cursor, scroll,
        overview, search, command line, tab, battle/map toggle (hot seat: restored
        for it, never shown to the other)."""
        prompt = screen.query_one(PromptPanel)
        map_panel = screen.query_one(MapPanel)
        self._kept[side] = SeatScreen(
            cursor=map_panel.cursor,
            scroll=(map_panel.scroll_x, map_panel.scroll_y),
            overview=map_panel.overview,
            search=map_panel.search,
            followed=map_panel.focus_key,
            typed=prompt.command_line.value,
            tab=screen.query_one("#tabs", TabbedContent).active,
            board=screen.query_one("#board", ContentSwitcher).current,
            in_battle=in_battle,
        )

    def restore(self, side: Side, screen: Screen) -> SeatScreen:
        """The seat's screen as it left it (a first visit: the defaults); returned
        for the battle/map toggle, which the game screen keeps."""
        state = self._kept.get(side, SeatScreen())
        map_panel = screen.query_one(MapPanel)
        map_panel.set_search(state.search)
        map_panel.cursor = state.cursor
        map_panel.focus_key = state.followed
        map_panel.set_overview(state.overview)
        map_panel.scroll_to(*state.scroll, animate=False, immediate=True)
        prompt = screen.query_one(PromptPanel)
        prompt.command_line.value = state.typed
        if prompt.filter_location is not None:
            prompt.filter_to(None)
        screen.query_one("#tabs", TabbedContent).active = state.tab
        screen.query_one("#board", ContentSwitcher).current = state.board
        return state
