"""The map panel: locations, roads and highways, control, and the stacks you may see.

Drawn from data/layout.toml (sekigahara_tui.map_layout). Each label shows the
location's short form (or name, when the panel is wide), its castle/resource
marks, and "own:enemy" block counts. The cursor moves between connected
locations with arrows or hjkl; typing letters jumps to a location by name.
"""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.containers import ScrollableContainer
from textual.geometry import Region
from textual.message import Message
from textual.app import ComposeResult
from textual.widgets import Static
from rich.style import Style
from rich.text import Text

from rules.components import default_components
from rules.notation import format_command
from rules.sides import Side
from rules.view import PlayerView
from sekigahara_tui.map_layout import (
    LABEL_WIDTH,
    Mode,
    canvas_size,
    draw_connections,
    label_origin,
    load_layout,
    neighbour_in_direction,
)

FULL_MODE_MIN_WIDTH = 150  # panel width from which full names fit (canvas_size of "full")


def marks(location_id: str) -> str:
    """'#' castle, '*' capital, '$' other resource location (4.1-4.3)."""
    loc = default_components().location(location_id)
    return ("#" if loc.is_castle else "") + ("*" if loc.capital else "$" if loc.resource else "")


def label_text(location_id: str, short: str, own: int, enemy: int, mode: Mode) -> str:
    width = LABEL_WIDTH[mode]
    counts = f"{own}:{enemy}" if own or enemy else ""
    name = short if mode == "short" else default_components().location(location_id).name
    head = name + marks(location_id)
    room = width - len(counts) - (1 if counts else 0)
    if len(head) > room:
        head = head[: max(3, room)]
    text = f"{head} {counts}" if counts else head
    return text[:width].ljust(width)


def legal_locations(view: PlayerView) -> frozenset[str]:
    """Every location named by a legal command: destinations, sources, muster sites."""
    ids = default_components().location_ids
    return frozenset(word for c in view.legal for word in format_command(c).split()[1:] if word in ids)


class MapCanvas(Static):
    """The drawn map; clicks choose the location under the pointer."""

    def on_click(self, event: events.Click) -> None:
        panel = self.parent
        if isinstance(panel, MapPanel):
            location = panel.location_at(event.x, event.y)
            if location is not None:
                panel.cursor = location
                panel.choose()


class MapPanel(ScrollableContainer, can_focus=True):
    COMPONENT_CLASSES = {
        "map--road",
        "map--highway",
        "map--label",
        "map--legal",
        "map--cursor",
        "map--ishida",
        "map--tokugawa",
    }
    BINDINGS = [
        Binding("left,h", "move('left')", "West", show=False, id="map.left"),
        Binding("right,l", "move('right')", "East", show=False, id="map.right"),
        Binding("up,k", "move('up')", "North", show=False, id="map.up"),
        Binding("down,j", "move('down')", "South", show=False, id="map.down"),
        Binding("enter", "choose", "Choose here", id="map.choose"),
        Binding("slash", "start_search", "Jump to", id="map.jump"),
    ]

    class LocationChosen(Message):
        def __init__(self, location: str) -> None:
            super().__init__()
            self.location = location

    class CursorMoved(Message):
        def __init__(self, location: str) -> None:
            super().__init__()
            self.location = location

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.layout_data = load_layout()
        self.cursor = "kyoto"
        self.search: str | None = None  # type-ahead buffer; None when not searching
        self._view: PlayerView | None = None
        self._mode: Mode = "short"
        self._canvases = {}

    def compose(self) -> ComposeResult:
        yield MapCanvas(id="map-canvas")

    # --- drawing ---------------------------------------------------------------

    def show(self, view: PlayerView) -> None:
        self._view = view
        self._draw()

    def on_resize(self, event: events.Resize) -> None:
        mode: Mode = "full" if event.size.width >= FULL_MODE_MIN_WIDTH else "short"
        if mode != self._mode:
            self._mode = mode
            self._draw()

    def _canvas(self):
        if self._mode not in self._canvases:
            self._canvases[self._mode] = draw_connections(self.layout_data, self._mode)
        return self._canvases[self._mode]

    def _draw(self) -> None:
        view = self._view
        if view is None:
            return
        canvas = self._canvas()
        styles = {kind: self.get_component_rich_style(f"map--{kind}") for kind in ("road", "highway")}
        grid: list[list[tuple[str, Style | None]]] = [
            [(ch, styles.get(kind)) for ch, kind in zip(row, kinds)] for row, kinds in zip(canvas.rows, canvas.kinds)
        ]
        legal = legal_locations(view)
        label_style = self.get_component_rich_style("map--label")
        control = dict(view.castle_control) | dict(view.resource_control)
        for placement in self.layout_data.placements:
            loc = placement.location
            col, row = label_origin(self.layout_data, loc, self._mode)
            text = label_text(loc, placement.short, len(view.blocks_at(loc)), view.enemy_count_at(loc), self._mode)
            style = label_style
            if loc in legal:
                style = style + self.get_component_rich_style("map--legal")
            if loc == self.cursor:
                style = style + self.get_component_rich_style("map--cursor")
            owner: Side | None = control.get(loc)
            mark_style = self.get_component_rich_style(f"map--{owner.value}") if owner else None
            mark_from = len(text.rstrip()) - len(text.rstrip().split(" ")[0]) if False else None
            for i, ch in enumerate(text):
                cell_style = style
                if mark_style is not None and ch in "#*$" and i >= 3:
                    cell_style = style + mark_style
                grid[row][col + i] = (ch, cell_style)
        text = Text(no_wrap=True, end="")
        for r, row in enumerate(grid):
            for ch, style in row:
                text.append(ch, style)
            if r < len(grid) - 1:
                text.append("\n")
        map_canvas = self.query_one(MapCanvas)
        width, height = canvas_size(self.layout_data, self._mode)
        map_canvas.styles.width = width
        map_canvas.styles.height = height
        map_canvas.update(text)

    def location_at(self, x: int, y: int) -> str | None:
        width = LABEL_WIDTH[self._mode]
        for placement in self.layout_data.placements:
            col, row = label_origin(self.layout_data, placement.location, self._mode)
            if row == y and col <= x < col + width:
                return placement.location
        return None

    # --- the cursor ------------------------------------------------------------

    def move_cursor(self, location: str) -> None:
        self.cursor = location
        self._draw()
        col, row = label_origin(self.layout_data, location, self._mode)
        self.scroll_to_region(Region(col, row, LABEL_WIDTH[self._mode], 1), animate=False, spacing=None)
        self.post_message(self.CursorMoved(location))

    def action_move(self, direction: str) -> None:
        self.search = None
        target = neighbour_in_direction(self.layout_data, self.cursor, direction, self._mode)
        if target is not None:
            self.move_cursor(target)

    def action_choose(self) -> None:
        self.choose()

    def choose(self) -> None:
        self.search = None
        self.border_subtitle = ""
        self.post_message(self.LocationChosen(self.cursor))

    def action_start_search(self) -> None:
        self.search = ""
        self.border_subtitle = "jump: "

    def on_key(self, event: events.Key) -> None:
        """Type-ahead: letters jump to the first location whose name starts with them.
        h, j, k and l move the cursor unless a search is under way (start one with /)."""
        char = event.character
        if event.key == "escape" and self.search is not None:
            self.search = None
            self.border_subtitle = ""
            event.stop()
            event.prevent_default()
            return
        if event.key == "backspace" and self.search:
            self.search = self.search[:-1]
        elif char and char.isalpha() and (self.search is not None or char.lower() not in "hjkl"):
            self.search = (self.search or "") + char.lower()
        else:
            return
        event.stop()
        event.prevent_default()
        self.border_subtitle = f"jump: {self.search}"
        match = self.find(self.search)
        if match is not None:
            self.move_cursor(match)

    def find(self, prefix: str) -> str | None:
        c = default_components()
        names = sorted((c.location(loc).name.lower(), loc) for loc in self.layout_data.locations)
        return next((loc for name, loc in names if name.startswith(prefix)), None)
