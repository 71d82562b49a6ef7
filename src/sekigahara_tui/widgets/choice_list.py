"""The list of choices, drawn line by line, its rows kept (issue 27, item 11).

The choices change with nearly every command, and most of their labels were
shown before ("Pass", "Draw", a move seen a command ago). Textual's OptionList
forgets every drawn option at each refill and lays them all out again; here
each label's lines are kept, keyed by its text, the width and its style (plain,
highlighted, hovered; focused or not), so a label seen before costs a dict
lookup, and a refill repaints only the rows whose label changed.

It keeps the layout's size whatever it holds (height 1fr in the stylesheet): a
new number of lines is a new virtual size, which only repaints (no layout of
the screen), and the scrollbar is told its new range here.

The scrollbar is always there (overflow-y: scroll in the stylesheet): one that
comes and goes with the number of choices is placed by a layout. While there
is nothing to scroll it is drawn blank in the list's own background, as the
empty column the list kept for it before (scrollbar-gutter: stable).

Keys and looks are OptionList's: ↑/↓ (round the ends), PgUp/PgDn, Home/End,
Enter or a click choose (the Selected message), the same stylesheet rules.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from rich.style import Style
from textual import events
from textual.binding import Binding
from textual.content import Content
from textual.geometry import Region, Size
from textual.message import Message
from textual.reactive import Reactive, reactive
from textual.scroll_view import ScrollView
from textual.scrollbar import ScrollBarRender
from textual.strip import Strip
from textual.widget import Widget

from sekigahara_tui.widgets.steady_text import steady_scrollbars

KEPT = 4096  # labels' drawings kept; past it the store starts again (a week has a few hundred)


def scrollbar(owner: Widget, **bar) -> ScrollBarRender:
    """Textual's scrollbar; with nothing to scroll (no thumb), blank in its
    owner's background, as the empty gutter was."""
    if not bar.get("window_size", 1):
        bar["style"] = Style(bgcolor=owner.background_colors[1].rich_color)
    return ScrollBarRender(**bar)


class ChoiceList(ScrollView, can_focus=True):
    BINDINGS = [
        Binding("down", "cursor_down", "Down", show=False),
        Binding("end", "last", "Last", show=False),
        Binding("enter", "select", "Select", show=False),
        Binding("home", "first", "First", show=False),
        Binding("pagedown", "page_down", "Page Down", show=False),
        Binding("pageup", "page_up", "Page Up", show=False),
        Binding("up", "cursor_up", "Up", show=False),
    ]
    # OptionList's looks, under this widget's names.
    DEFAULT_CSS = """
    ChoiceList {
        height: auto;
        max-height: 100%;
        color: $foreground;
        overflow-x: hidden;
        border: tall $border-blurred;
        padding: 0 1;
        background: $surface;
        & > .choice-list--option-highlighted {
            color: $block-cursor-blurred-foreground;
            background: $block-cursor-blurred-background;
            text-style: $block-cursor-blurred-text-style;
        }
        &:focus {
            border: tall $border;
            background-tint: $foreground 5%;
            & > .choice-list--option-highlighted {
                color: $block-cursor-foreground;
                background: $block-cursor-background;
                text-style: $block-cursor-text-style;
            }
        }
        & > .choice-list--option-highlighted {
            color: $foreground;
            background: $block-cursor-blurred-background;
        }
        & > .choice-list--option-hover {
            background: $block-hover-background;
        }
    }
    """
    COMPONENT_CLASSES = {"choice-list--option", "choice-list--option-highlighted", "choice-list--option-hover"}

    # Widget's own is Reactive(Size(0, 0), layout=True): here a new one repaints
    # only the rows that changed, and the scrollbar is told (_lay_lines).
    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False, repaint=False)
    highlighted: reactive[int | None] = reactive(None, repaint=False)
    hovered: reactive[int | None] = reactive(None, repaint=False)

    class Selected(Message):
        """Enter or a click on a choice: its index."""

        def __init__(self, choice_list: ChoiceList, index: int) -> None:
            super().__init__()
            self.choice_list = choice_list
            self.index = index

        @property
        def control(self) -> ChoiceList:
            return self.choice_list

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._labels: list[str] = []
        self._lines: list[tuple[int, int]] = []  # per line of the list: (choice, its line)
        self._starts: list[int] = []  # per choice: its first line
        self._width = 0  # the width the lines were laid at
        self._drawn: dict[tuple[str, int, object], list[Strip]] = {}  # (label, width, style): its lines
        self._heights: dict[tuple[str, int], int] = {}  # (label, width): its rows
        self.drawn = 0  # labels drawn (not found kept): counted for the tests
        self.kept = 0  # labels found kept
        self._pass: tuple | None = None  # (width, plain style, {choice: its style}) while render_lines draws

    def on_mount(self) -> None:
        steady_scrollbars(self)  # the message line under the list takes rows from it
        self.vertical_scrollbar.renderer = partial(scrollbar, self)

    # --- what screens use ------------------------------------------------------

    @property
    def option_count(self) -> int:
        return len(self._labels)

    def label_at(self, index: int) -> str:
        return self._labels[index]

    def refill(self, labels: Iterable[str]) -> None:
        """All the choices at once: never an empty list in between. The
        highlight goes (the caller sets the new one) and the list's top shows."""
        before = self._rows()
        self._labels = list(labels)
        self.hovered = None
        self.highlighted = None
        self.scroll_y = 0  # a scroll repaints the whole view itself
        self._lay_lines()
        self._repaint_changed(before)

    # --- lines ------------------------------------------------------------------

    def _lay_lines(self) -> None:
        """Which line of which choice each line of the list shows, at the width."""
        width = self._width = self.scrollable_content_region.width
        self._lines, self._starts = [], []
        for index, label in enumerate(self._labels):
            self._starts.append(len(self._lines))
            rows = self._heights.get((label, width))
            if rows is None:
                rows = self._heights[(label, width)] = Content(label).get_height(self.styles, width) if width else 1
            self._lines.extend((index, line) for line in range(rows))
        size = Size(width, len(self._lines))
        if size != self.virtual_size:
            self.virtual_size = size
            bar = self.vertical_scrollbar  # what Textual does after a layout, without one
            bar.window_virtual_size = size.height
            bar.window_size = self.scrollable_content_region.height
            bar.refresh()
            self.scroll_y = self.validate_scroll_y(self.scroll_y)

    def _rows(self) -> list[tuple[str, int] | None]:
        """What each row in view shows: (label, its line), None past the end."""
        top = self.scroll_offset.y
        return [self._row(top + y) for y in range(self.scrollable_content_region.height)]

    def _row(self, line: int) -> tuple[str, int] | None:
        if line >= len(self._lines):
            return None
        index, offset = self._lines[line]
        return self._labels[index], offset

    def _repaint_changed(self, before: list[tuple[str, int] | None]) -> None:
        top = self.scroll_offset.y
        for y, row in enumerate(self._rows()):
            if y >= len(before) or before[y] != row:
                self.refresh_line(top + y)

    def _repaint_choice(self, index: int | None) -> None:
        if index is not None and index < len(self._starts):
            start = self._starts[index]
            end = self._starts[index + 1] if index + 1 < len(self._starts) else len(self._lines)
            self.refresh_lines(start, end - start)

    def on_resize(self) -> None:
        if self.scrollable_content_region.width != self._width:
            self._lay_lines()
        self.scroll_to_highlight()

    def on_show(self) -> None:
        self.scroll_to_highlight()

    # --- drawing ----------------------------------------------------------------

    def _strips(self, label: str, style, width: int) -> list[Strip]:
        key = (label, width, style)
        strips = self._drawn.get(key)
        if strips is not None:
            self.kept += 1
            return strips
        self.drawn += 1
        if len(self._drawn) >= KEPT:
            self._drawn.clear()
        content = Content(label)
        strips = [strip.extend_cell_length(width, style.rich_style)
                  for strip in content.to_strips(self, content, width, None, style)]
        self._drawn[key] = strips
        return strips

    def _styles(self) -> tuple:
        """The width, the plain style and {choice: its style} for the marked ones."""
        marked = {self.hovered: self.get_visual_style("choice-list--option", "choice-list--option-hover")}
        marked[self.highlighted] = self.get_visual_style("choice-list--option", "choice-list--option-highlighted")
        return self.scrollable_content_region.width, self.get_visual_style("choice-list--option"), marked

    def render_lines(self, crop: Region) -> list[Strip]:
        """The rows in `crop`; the styles and width worked out once for them all
        (asked for at each row, they cost as much as the rows' drawing)."""
        self._pass = self._styles()
        try:
            return super().render_lines(crop)
        finally:
            self._pass = None

    def render_line(self, y: int) -> Strip:
        width, plain, marked = self._pass or self._styles()
        line = self.scroll_offset.y + y
        if line >= len(self._lines):
            return Strip.blank(width, plain.rich_style)
        index, offset = self._lines[line]
        strips = self._strips(self._labels[index], marked.get(index, plain), width)
        return strips[offset] if offset < len(strips) else Strip.blank(width, plain.rich_style)

    # --- the highlight, keys and mouse -----------------------------------------

    def validate_highlighted(self, index: int | None) -> int | None:
        if index is None or not self._labels:
            return None
        return min(max(index, 0), len(self._labels) - 1)

    def watch_highlighted(self, before: int | None, index: int | None) -> None:
        self._repaint_choice(before)
        self._repaint_choice(index)
        self.scroll_to_highlight()

    def watch_hovered(self, before: int | None, index: int | None) -> None:
        self._repaint_choice(before)
        self._repaint_choice(index)

    def scroll_to_highlight(self) -> None:
        index = self.highlighted
        if index is None or index >= len(self._starts) or not self.is_mounted:
            return
        start = self._starts[index]
        end = self._starts[index + 1] if index + 1 < len(self._starts) else len(self._lines)
        self.scroll_to_region(Region(0, start, self._width, end - start), force=True, animate=False, immediate=True)

    def action_cursor_up(self) -> None:
        if self._labels:  # round the top, as OptionList
            self.highlighted = len(self._labels) - 1 if not self.highlighted else self.highlighted - 1

    def action_cursor_down(self) -> None:
        if self._labels:  # round the end
            last = len(self._labels) - 1
            self.highlighted = 0 if self.highlighted is None or self.highlighted >= last else self.highlighted + 1

    def action_first(self) -> None:
        if self._labels:
            self.highlighted = 0

    def action_last(self) -> None:
        if self._labels:
            self.highlighted = len(self._labels) - 1

    def _move_page(self, direction: int) -> None:
        """About a page of lines on, as OptionList: to the choice on that line."""
        if not self._lines:
            return
        line = self._starts[self.highlighted or 0] + direction * self.scrollable_content_region.height
        self.highlighted = self._lines[min(max(line, 0), len(self._lines) - 1)][0]

    def action_page_up(self) -> None:
        self.action_first() if self.highlighted is None else self._move_page(-1)

    def action_page_down(self) -> None:
        self.action_last() if self.highlighted is None else self._move_page(1)

    def action_select(self) -> None:
        if self.highlighted is not None:
            self.post_message(self.Selected(self, self.highlighted))

    def _choice_at(self, event: events.MouseEvent) -> int | None:
        offset = event.get_content_offset(self)
        if offset is None:
            return None
        line = self.scroll_offset.y + offset.y
        return self._lines[line][0] if line < len(self._lines) else None

    def on_click(self, event: events.Click) -> None:
        index = self._choice_at(event)
        if index is not None:
            self.highlighted = index
            self.action_select()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self.hovered = self._choice_at(event)

    def on_leave(self, _: events.Leave) -> None:
        self.hovered = None
