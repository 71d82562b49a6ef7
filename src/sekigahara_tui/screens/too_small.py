"""Below 80x24 the game cannot be drawn readably (issue 27, fault 6): this
screen says so and what size is needed, lies over whatever was showing, and
goes away by itself once the terminal is large enough; the game under it
waits where it was."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.geometry import Size
from textual.screen import ModalScreen
from textual.widgets import Static

MIN_WIDTH, MIN_HEIGHT = 80, 24


def too_small(size: Size) -> bool:
    return size.width < MIN_WIDTH or size.height < MIN_HEIGHT


def too_small_text(size: Size) -> str:
    return (f"This terminal is {size.width}x{size.height}: Sekigahara needs at least "
            f"{MIN_WIDTH}x{MIN_HEIGHT}. Make the window larger and the game comes back "
            f"where it was. ctrl+q quits.")


class TooSmallScreen(ModalScreen[None]):
    def compose(self) -> ComposeResult:
        yield Static(too_small_text(self.app.size), id="too-small")

    def show_size(self, size: Size) -> None:
        self.query_one("#too-small", Static).update(too_small_text(size))

    def on_screen_resume(self) -> None:
        # Back on top after a screen pushed over it: gone if the size is fine now.
        if not too_small(self.app.size):
            self.dismiss()
