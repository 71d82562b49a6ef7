"""The list of choices: an OptionList refilled after every command without
laying the whole screen out again (issue 27, item 11).

Textual's widgets ask for a layout of the whole screen whenever their virtual
(scrollable) size changes, and a refilled OptionList's does on most commands.
The choices' height is the layout's (1fr), never their content's, so a new
virtual size needs only a repaint: the list scrolls within its own region and
its scrollbar follows (OptionList updates it itself).

The scrollbar is always there (overflow-y: scroll in the stylesheet): one that
comes and goes with the number of choices is placed by a layout. While there
is nothing to scroll it is drawn blank in the list's own background, as the
empty column the list kept for it before (scrollbar-gutter: stable).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from rich.style import Style
from textual.geometry import Size
from textual.reactive import Reactive
from textual.scrollbar import ScrollBarRender
from textual.widget import Widget
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from sekigahara_tui.widgets.steady_text import steady_scrollbars


def scrollbar(owner: Widget, **bar) -> ScrollBarRender:
    """Textual's scrollbar; with nothing to scroll (no thumb), blank in its
    owner's background, as the empty gutter was."""
    if not bar.get("window_size", 1):
        bar["style"] = Style(bgcolor=owner.background_colors[1].rich_color)
    return ScrollBarRender(**bar)


class ChoiceList(OptionList):
    # Widget's own is Reactive(Size(0, 0), layout=True): a repaint is enough here.
    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)

    def on_mount(self) -> None:
        steady_scrollbars(self)  # the message line under the list takes rows from it
        self.vertical_scrollbar.renderer = partial(scrollbar, self)

    def refill(self, options: Iterable[Option]) -> None:
        """All the options at once: never an empty list in between."""
        options = list(options)
        if options:
            self.set_options(options)
        else:
            self.clear_options()
