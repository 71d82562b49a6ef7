"""The map panel: locations, roads and highways, control, and the stacks you may see.

Drawn from data/layout.toml (sekigahara_tui.map_layout, map_drawing). Each
label shows the location's short form (or name, when the panel is wide), its
castle/resource marks, and "own:enemy" block counts. The cursor moves between connected
locations with the arrows; letters always search (they jump to the first
location whose name starts with what was typed), so no letter is a move key.
"""

from __future__ import annotations

from collections.abc import Callable

from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.strip import Strip
from textual.scroll_view import ScrollView
from rich.cells import cell_len
from rich.style import Style
from rich.text import Text

from rules.surface import DeclareCombat, Muster, PlayerView, default_components, places
from sekigahara_tui.map_drawing import OVERVIEW_WIDTH, draw_connections, overview_origins
from sekigahara_tui.map_layout import LABEL_WIDTH, Mode, label_origin, load_layout, neighbour_in_direction
from sekigahara_tui.widgets.map_rows import MapFacts, RowDrawer, cut, legal_locations
from sekigahara_tui.widgets.steady_text import steady_scrollbars

FULL_MODE_MIN_WIDTH = 150  # panel width from which full names fit (canvas_size of "full")


class MapStrips:
    """The drawn map, one cached strip per row: a cursor move redraws two rows,
    not the whole map."""

    def __init__(self) -> None:
        self.rows: list[Text] = []
        self.strips: list[Strip] = []

    def set_rows(self, rows: list[Text], console, base: Style) -> list[int]:
        """Keep `rows`; the indexes of the rows that changed."""
        if len(rows) != len(self.rows):
            self.rows, self.strips = [], []
        changed = []
        for y, row in enumerate(rows):
            if y < len(self.rows) and (self.rows[y] is row or self.rows[y] == row):  # a kept row: the same Text
                continue
            strip = Strip(list(row.render(console)), row.cell_len).apply_style(base)
            if y < len(self.rows):
                self.rows[y], self.strips[y] = row, strip
            else:
                self.rows.append(row)
                self.strips.append(strip)
            changed.append(y)
        return changed


class MapPanel(ScrollView, can_focus=True):
    """A line-drawn map that scrolls itself (Textual's ScrollView): a scroll
    repaints the panel's rows from the kept strips, where a container holding
    the drawing as a child was placed again by a layout of the screen at every
    scroll (issue 27, item 11: the map follows most commands)."""

    ALLOW_MAXIMIZE = False  # as the ScrollableContainer it was
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
        Binding("enter", "choose", "Here", id="map.choose", show=False),  # the help says it; the Footer must fit 80 columns
        Binding("slash", "start_search", "Find", id="map.jump", key_display="a-z"),
    ]

    class LocationChosen(Message):
        def __init__(self, location: str) -> None:
            super().__init__()
            self.location = location

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.layout_data = load_layout()
        self.cursor = "kyoto"
        self.search: str | None = None  # type-ahead buffer; None when not searching
        self.overview = False  # the whole board at once, as compact marks
        self.focus_key: tuple | None = None  # the action last followed (see action_focus)
        self._view: PlayerView | None = None
        self._mode: Mode = "short"
        self._canvases = {}
        self._pending: tuple | None = None  # a scroll_to_show waiting for the panel to show
        self._centred: tuple | None = None  # the last scroll_to_show: its places, anchor and the view's size then
        self._built: tuple | None = None  # (context, per row (its labels' keys, Text)): see _draw
        self.canvas = MapStrips()
        self._glyph_styles: dict[str, Style] | None = None  # see _styles
        # Called in the same call as the key that moved the cursor (the screen shows
        # the place in words): one key, one screen update, not one more for a message.
        self.cursor_moved: Callable[[str], None] | None = None

    def on_mount(self) -> None:
        steady_scrollbars(self)  # the place in words under the map takes 3 to 5 of its rows
        # A label half in view is left out, so scrolling sideways redraws.
        self.watch(self, "scroll_x", self._draw, init=False)
        self.watch(self, "show_vertical_scrollbar", self._draw, init=False)  # the view narrows

    # --- geometry --------------------------------------------------------------

    def _overview_size(self) -> tuple[int, int]:
        size = self.content_region.size
        return max(size.width, OVERVIEW_WIDTH), max(size.height, 1)

    def _origins(self) -> dict[str, tuple[int, int]] | None:
        """The overview's mark cells, or None outside the overview (or when it has no room)."""
        if not self.overview:
            return None
        try:
            return overview_origins(self.layout_data, *self._overview_size())
        except ValueError:
            return None

    def label_region(self, location: str) -> Region:
        origins = self._origins()
        if origins is not None:
            col, row = origins[location]
            return Region(col, row, OVERVIEW_WIDTH, 1)
        col, row = label_origin(self.layout_data, location, self._mode)
        return Region(col, row, LABEL_WIDTH[self._mode], 1)

    # --- drawing ---------------------------------------------------------------

    def show(self, view: PlayerView) -> None:
        self._view = view
        focus = action_focus(view)
        key = focus[0] if focus else None
        if key is not None and key != self.focus_key:
            _, anchor, places_ = focus
            self.cursor = anchor
            # Now, in the command's own frame: a scroll only repaints. A layout this
            # command causes that resizes the panel centres it again (on_resize).
            self.scroll_to_show(places_, anchor)
        self.focus_key = key
        self._draw()

    def scroll_to_show(self, locations, anchor: str) -> None:
        """Scroll so that `locations` are all in view, centred; if they do not fit,
        centre on `anchor`."""
        if self.overview or not locations:
            return
        view_w, view_h = self.scrollable_content_region.size
        if not view_w or not view_h:  # hidden (the battle view is up): when it shows
            self._pending = (locations, anchor)
            return
        self._pending = None
        self._centred = (locations, anchor, (view_w, view_h))
        box = Region.from_union([self.label_region(loc) for loc in locations])
        if box.width > view_w or box.height > view_h:
            box = self.label_region(anchor)
        x = box.x + box.width // 2 - view_w // 2
        y = box.y + box.height // 2 - view_h // 2
        self.scroll_to(max(0, x), max(0, y), animate=False, immediate=True)

    def set_overview(self, on: bool) -> None:
        if on == self.overview:
            return
        self.overview = on
        # The overview fits the panel: no scrollbars (they would narrow it).
        self.styles.overflow_x = self.styles.overflow_y = "hidden" if on else "auto"
        self.border_title = "whole board" if on else ""
        self._draw()
        if not on:
            self.call_after_refresh(self.scroll_to_cursor)

    def scroll_to_cursor(self) -> None:
        if not self.overview:
            self.scroll_to_region(self.label_region(self.cursor), animate=False, spacing=None, immediate=True)

    def on_resize(self, event: events.Resize) -> None:
        self._mode = "full" if event.size.width >= FULL_MODE_MIN_WIDTH else "short"
        self._draw()
        if self._pending is not None:
            self.call_after_refresh(self.scroll_to_show, *self._pending)
        elif self._centred is not None:  # centred for another size (a scrollbar came or went): again
            self.call_after_refresh(self._centre_again)
        else:  # the lines under the map took more rows for the place jumped to: its label stays in view
            self.call_after_refresh(self.scroll_to_cursor)

    def _centre_again(self) -> None:
        if self._centred is not None and self._centred[2] != tuple(self.scrollable_content_region.size):
            self.scroll_to_show(*self._centred[:2])

    def _pieces(self) -> list[list[tuple[str, str]]]:
        """Per row, the runs to draw: ("road"/"highway"/"", text) for drawn lines and
        ("@label", location id) for label slots; and per row its labels' (location,
        first column). Fixed for a mode (and an overview's size), so worked out once."""
        origins = self._origins()
        key = ("overview", self._overview_size()) if origins is not None else self._mode
        if key not in self._canvases:
            if origins is not None:
                width, height = self._overview_size()
                chars = [" " * width] * height
                kinds = [("",) * width] * height
                slot_width = OVERVIEW_WIDTH
                slots = {origin: loc for loc, origin in origins.items()}
            else:
                canvas = draw_connections(self.layout_data, self._mode)
                width, chars, kinds = canvas.width, canvas.rows, canvas.kinds
                slot_width = LABEL_WIDTH[self._mode]
                slots = {label_origin(self.layout_data, p.location, self._mode): p.location
                         for p in self.layout_data.placements}
            rows = []
            for r, (row_chars, row_kinds) in enumerate(zip(chars, kinds)):
                pieces: list[tuple[str, str]] = []
                c = 0
                while c < width:
                    if (c, r) in slots:
                        pieces.append(("@label", slots[(c, r)]))
                        c += slot_width
                        continue
                    kind = row_kinds[c]
                    if pieces and pieces[-1][0] == kind:
                        pieces[-1] = (kind, pieces[-1][1] + row_chars[c])
                    else:
                        pieces.append((kind, row_chars[c]))
                    c += 1
                rows.append(pieces)
            self._canvases[key] = (rows, (width, len(rows)), slot_width, [label_columns(pieces, slot_width) for pieces in rows])
        return self._canvases[key]

    def _styles(self) -> dict[str, Style]:
        """The glyphs' styles, worked out once until the stylesheet changes (they
        were 40% of a command's map drawing)."""
        if self._glyph_styles is None:
            self._glyph_styles = {name: self.get_component_rich_style(f"map--{name}") for name in
                                  ("road", "highway", "label", "legal", "cursor", "ishida", "tokugawa")}
            self._glyph_styles[""] = Style()
        return self._glyph_styles

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._glyph_styles = None  # a new theme, NO_COLOR: worked out again, and the rows drawn in them
        if self.is_mounted:
            self.call_later(self._draw)

    def _draw(self) -> None:
        view = self._view
        if view is None or not self.is_mounted:
            return
        style = self._styles()
        rows_pieces, (width, height), slot_width, row_labels = self._pieces()
        mode = "overview" if self._origins() is not None else self._mode
        # A label cut by the panel's edge is left out (its lines still lead to it).
        left = self.view_offset()[0]
        right = left + self.scrollable_content_region.width
        # A row is rebuilt only when what one of its labels shows changes (a block
        # moved, the cursor came or went, an edge now cuts it) or the mode, styles
        # or seat did: a command, a cursor move or a scroll rebuilds a few rows.
        facts = MapFacts(view)
        context = (mode, facts.side, tuple(style.items()))
        if self._built is None or self._built[0] != context or len(self._built[1]) != len(rows_pieces):
            self._built = (context, [None] * len(rows_pieces))
        built = self._built[1]
        draw = None
        rows: list[Text] = []
        for y, pieces in enumerate(rows_pieces):
            key = tuple((facts.label_key(loc, self.cursor), cut(col, slot_width, left, right)) for loc, col in row_labels[y])
            entry = built[y]
            if entry is None or entry[0] != key:
                if draw is None:
                    draw = RowDrawer(facts, style, mode, left, right, slot_width, self.layout_data)
                entry = built[y] = (key, draw.row(pieces, self.cursor))
            rows.append(entry[1])
        if self.virtual_size != Size(width, height):  # a new mode or overview size: the scrollbars follow
            self.virtual_size = Size(width, height)
        top = self.view_offset()[1]
        for y in self.canvas.set_rows(rows, self.app.console, self.rich_style):
            self.refresh(Region(0, y - top, width, 1))

    def view_offset(self) -> tuple[int, int]:
        """The map's cell at the view's top left (the overview fits: none)."""
        return (0, 0) if self._origins() is not None else (round(self.scroll_x), round(self.scroll_y))

    def render_line(self, y: int) -> Strip:
        """Row y of the view: the map's row under it, from the scrolled column;
        beyond the drawing, the panel's background (as the container's was)."""
        x, top = self.view_offset()
        width = self.scrollable_content_region.width
        blank = Style(bgcolor=self.background_colors[1].rich_color)
        strips = self.canvas.strips
        if top + y >= len(strips):
            return Strip.blank(width, blank)
        return strips[top + y].crop_extend(x, x + width, blank)

    def on_click(self, event: events.Click) -> None:
        """A click on a label chooses its location."""
        offset = event.get_content_offset(self)
        if offset is None:
            return
        x, y = self.view_offset()
        location = self.location_at(offset.x + x, offset.y + y)
        if location is not None:
            self.cursor = location
            self.choose()

    def location_at(self, x: int, y: int) -> str | None:
        for placement in self.layout_data.placements:
            if self.label_region(placement.location).contains(x, y):
                return placement.location
        return None

    # --- the cursor ------------------------------------------------------------

    def move_cursor(self, location: str) -> None:
        self.cursor = location
        self._centred = None  # the player's move: a new size keeps the cursor in view, not the old centring
        self._draw()
        self.scroll_to_cursor()
        if self.cursor_moved is not None:
            self.cursor_moved(location)

    def action_move(self, direction: str) -> None:
        self.search = None
        self.border_subtitle = ""
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

    def set_search(self, text: str | None) -> None:
        """Restore a seat's search text (None: not searching)."""
        self.search = text
        self.border_subtitle = "" if text is None else f"jump: {text}"

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
            search = self.search[:-1]
        elif char and char.isalpha():
            search = (self.search or "") + char.lower()
            if self.find(search) is None:  # "eg": a new search, "g", as a player means it
                search = char.lower()
        else:
            return
        event.stop()
        event.prevent_default()
        if not search:  # every letter taken back: nowhere to jump
            self.search = ""
            self.border_subtitle = "jump: "
            return
        match = self.find(search)
        self.search = search
        if match is None:  # not even the letter alone: say so (the next letter begins again)
            self.border_subtitle = f"jump: no place begins with {search!r}"
            return
        self.border_subtitle = f"jump: {search}"
        self.move_cursor(match)

    def find(self, prefix: str) -> str | None:
        c = default_components()
        names = sorted((c.location(loc).name.lower(), loc) for loc in self.layout_data.locations)
        return next((loc for name, loc in names if name.startswith(prefix)), None)


def label_columns(pieces: list[tuple[str, str]], slot_width: int) -> tuple[tuple[str, int], ...]:
    """The row's labels: (location, the column it starts at)."""
    labels, column = [], 0
    for kind, run in pieces:
        if kind == "@label":
            labels.append((run, column))
            column += slot_width
        else:
            column += cell_len(run)
    return tuple(labels)


def action_focus(view: PlayerView) -> tuple[tuple, str, frozenset[str]] | None:
    """What the map follows now, if anything: (a key that changes when the action
    moves on, the location to put the cursor on, the locations to bring into view).
    A stack move: where the selected group stands and its legal destinations; a
    battle or siege: its location; combats to declare: their locations; a muster
    with no stack move left beside it: the muster sites."""
    move = view.movement.stack_move if view.movement else None
    if move is not None:
        where = move.progress(move.selection[0]).at if move.selection else move.source
        # Before a group is selected, its possible destinations: the neighbours.
        around = legal_locations(view) if move.selection else frozenset(default_components().neighbours(where))
        return ("move", move.source, where), where, frozenset({where}) | around
    battle = view.combat.battle if view.combat else None
    if battle is not None:
        return ("battle", battle.location), battle.location, frozenset({battle.location})
    if view.combat is not None and view.legal and all(isinstance(c, DeclareCombat) for c in view.legal):
        # Combats to declare (8.1): where they will be fought.
        sites = legal_locations(view)
        first = min(sites)
        return ("declare", view.week, view.turn, sites), first, sites
    located = [c for c in view.legal if places(c)]
    if located and all(isinstance(c, Muster) for c in located):
        # Only a muster is left to place (7.2; e.g. Full movement once every stack
        # has moved): its sites. Beside stack moves it is one choice among many.
        sites = legal_locations(view)
        return ("muster", view.week, view.turn, sites), min(sites), sites
    return None
