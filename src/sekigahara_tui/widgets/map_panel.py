"""The map panel: locations, roads and highways, control, and the stacks you may see.

Drawn from data/layout.toml (sekigahara_tui.map_layout). Each label shows the
location's short form (or name, when the panel is wide), its castle/resource
marks, and "own:enemy" block counts. The cursor moves between connected
locations with the arrows; letters always search (they jump to the first
location whose name starts with what was typed), so no letter is a move key.
"""

from __future__ import annotations

from collections import Counter

from textual import events
from textual.binding import Binding
from textual.containers import ScrollableContainer
from textual.css.scalar import Scalar
from textual.geometry import Region
from textual.message import Message
from textual.app import ComposeResult
from textual.strip import Strip
from textual.widget import Widget
from rich.style import Style
from rich.text import Text

from rules.surface import PlayerView, Side, default_components, places
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
    return frozenset(place for command in view.legal for place in places(command))


class MapCanvas(Widget):
    """The drawn map, one cached strip per row: a cursor move redraws two rows,
    not the whole map. Clicks choose the location under the pointer."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._rows: list[Text] = []
        self._strips: list[Strip] = []

    def set_rows(self, rows: list[Text]) -> None:
        console = self.app.console
        base = self.rich_style  # every segment gets a style: colour filters (NO_COLOR) need one
        if len(rows) != len(self._rows):
            self._rows, self._strips = [], []
        for y, row in enumerate(rows):
            if y < len(self._rows) and self._rows[y] == row:
                continue
            strip = Strip(list(row.render(console)), row.cell_len).apply_style(base)
            if y < len(self._rows):
                self._rows[y], self._strips[y] = row, strip
            else:
                self._rows.append(row)
                self._strips.append(strip)
            self.refresh(Region(0, y, row.cell_len, 1))

    def render_line(self, y: int) -> Strip:
        return self._strips[y] if y < len(self._strips) else Strip.blank(self.size.width)

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
        Binding("left", "move('left')", "West", show=False, id="map.left"),
        Binding("right", "move('right')", "East", show=False, id="map.right"),
        Binding("up", "move('up')", "North", show=False, id="map.up"),
        Binding("down", "move('down')", "South", show=False, id="map.down"),
        Binding("enter", "choose", "Here", id="map.choose"),
        Binding("slash", "start_search", "Find", id="map.jump", key_display="a-z"),
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

    def _pieces(self) -> list[list[tuple[str, str]]]:
        """Per row, the runs to draw: ("road"/"highway"/"", text) for drawn lines and
        ("@label", location id) for label slots. Fixed for a mode, so worked out once."""
        if self._mode not in self._canvases:
            canvas = draw_connections(self.layout_data, self._mode)
            width = LABEL_WIDTH[self._mode]
            slots: dict[tuple[int, int], str] = {}
            for placement in self.layout_data.placements:
                slots[label_origin(self.layout_data, placement.location, self._mode)] = placement.location
            rows = []
            for r, (chars, kinds) in enumerate(zip(canvas.rows, canvas.kinds)):
                pieces: list[tuple[str, str]] = []
                c = 0
                while c < canvas.width:
                    if (c, r) in slots:
                        pieces.append(("@label", slots[(c, r)]))
                        c += width
                        continue
                    kind = kinds[c]
                    if pieces and pieces[-1][0] == kind:
                        pieces[-1] = (kind, pieces[-1][1] + chars[c])
                    else:
                        pieces.append((kind, chars[c]))
                    c += 1
                rows.append(pieces)
            self._canvases[self._mode] = rows
        return self._canvases[self._mode]

    def _draw(self) -> None:
        view = self._view
        if view is None:
            return
        style = {name: self.get_component_rich_style(f"map--{name}") for name in
                 ("road", "highway", "label", "legal", "cursor", "ishida", "tokugawa")}
        style[""] = Style()
        legal = legal_locations(view)
        control = dict(view.castle_control) | dict(view.resource_control)
        own = Counter(place for _, place in view.own_blocks)
        enemy = dict(view.enemy_counts)
        shorts = {p.location: p.short for p in self.layout_data.placements}
        rows: list[Text] = []
        for pieces in self._pieces():
            text = Text(no_wrap=True, end="")
            rows.append(text)
            for kind, run in pieces:
                if kind != "@label":
                    text.append(run, style[kind])
                    continue
                loc = run
                label = label_text(loc, shorts[loc], own[loc], enemy.get(loc, 0), self._mode)
                label_style = style["label"]
                if loc in legal:
                    label_style += style["legal"]
                if loc == self.cursor:
                    label_style += style["cursor"]
                owner: Side | None = control.get(loc)
                if owner is None:
                    text.append(label, label_style)
                    continue
                # The castle/resource marks take the controller's colour (4.2, 4.3).
                name_end = len(shorts[loc]) if self._mode == "short" else label.find(marks(loc)[:1] or " ")
                mark_end = name_end + len(marks(loc))
                text.append(label[:name_end], label_style)
                text.append(label[name_end:mark_end], label_style + style[owner.value])
                text.append(label[mark_end:], label_style)
        map_canvas = self.query_one(MapCanvas)
        width, height = canvas_size(self.layout_data, self._mode)
        resized = (map_canvas.styles.width, map_canvas.styles.height) != (Scalar.from_number(width), Scalar.from_number(height))
        if resized:
            map_canvas.styles.width = width
            map_canvas.styles.height = height
        map_canvas.set_rows(rows)

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
        """Type-ahead: letters jump to the first location whose name starts with them
        (every letter searches; the arrows move)."""
        char = event.character
        if event.key == "escape" and self.search is not None:
            self.search = None
            self.border_subtitle = ""
            event.stop()
            event.prevent_default()
            return
        if event.key == "backspace" and self.search:
            self.search = self.search[:-1]
        elif char and char.isalpha():
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
