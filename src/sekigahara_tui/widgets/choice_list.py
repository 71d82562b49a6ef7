"""The list of choices: an OptionList refilled after every command without
laying the whole screen out again (issue 27, item 11).

Textual's widgets ask for a layout of the whole screen whenever their virtual
(scrollable) size changes, and a refilled OptionList's does on most commands.
The choices' height is the layout's (1fr), never their content's, so a new
virtual size needs only a repaint: the list scrolls within its own region and
its scrollbar follows (OptionList updates it itself). When the scrollbar comes
or goes, Textual still asks for the layout that places it.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual.geometry import Size
from textual.reactive import Reactive
from textual.widgets import OptionList
from textual.widgets.option_list import Option


class ChoiceList(OptionList):
    # Widget's own is Reactive(Size(0, 0), layout=True): a repaint is enough here.
    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)

    def refill(self, options: Iterable[Option]) -> None:
        """All the options at once: never an empty list in between, whose
        hidden scrollbar would ask for a layout to show it again."""
        options = list(options)
        if options:
            self.set_options(options)
        else:
            self.clear_options()
