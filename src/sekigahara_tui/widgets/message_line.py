"""The message line under the choices: the last outcome, kept until the next.

It wraps to the rows it needs, from the stylesheet's min-height (1 row at
80x24) to its max-height (3). A new height is a layout of the whole screen,
and the choices above it, resized, are drawn again a frame later: most of a
command's time on screen (issue 27, item 11). So the echo of a command just
given ("Done: ...", the choice the player has just read in the list) keeps
the line's fewest rows: if it needs more, it is shortened at a word, ending
"… (m)", and `m` shows it whole. Everything else (a refusal, a move given
for the other side, a hint) is shown whole, as it is news.
"""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from sekigahara_tui.widgets.steady_text import SteadyStatic, update_steady

ECHO = "Done: "  # an outcome that repeats the choice just given
MORE = " … (m)"  # the end of a shortened echo: m shows it whole


def rows_at(line: Static, text: str, width: int) -> int:
    return Content(text).get_height(line.styles, width) if text else 0


def shortened_to(line: Static, text: str, rows: int, width: int) -> str:
    """`text` cut at a word so that it and MORE take at most `rows` rows."""
    words = text.split(" ")
    while len(words) > 1:
        words.pop()
        cut = " ".join(words).rstrip(",;:") + MORE
        if rows_at(line, cut, width) <= rows:
            return cut
    return MORE.strip()


class MessageLine(SteadyStatic):
    """The message line; `say` sets it, `whole` shows a shortened echo whole."""

    said = ""  # the whole text
    _whole = False  # m: the echo shown whole, until the next message

    def say(self, text: str, error: bool = False) -> None:
        self.set_class(error, "error")
        if text == self.said:
            return
        self.said, self._whole = text, False
        self._show()

    def whole(self) -> bool:
        """Show the whole message; False if it was not shortened."""
        if self._whole or self.shown() == self.said:
            return False
        self._whole = True
        self._show()
        return True

    def shown(self) -> str:
        return str(self.render())

    def _show(self) -> None:
        update_steady(self, self._fitted())

    def _fitted(self) -> str:
        text = self.said
        width = self.content_region.width
        low = self.styles.min_height
        if self._whole or not text.startswith(ECHO) or not width or low is None or not low.is_cells:
            return text
        rows = int(low.value)
        return text if rows_at(self, text, width) <= rows else shortened_to(self, text, rows, width)

    def on_resize(self) -> None:
        if self.said.startswith(ECHO):  # a new width (or min-height): fitted again
            self._show()
