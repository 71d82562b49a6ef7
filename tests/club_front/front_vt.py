"""A very small terminal screen: enough of VT100 to read what Textual draws.

Printable text, CR, LF, BS and cursor positioning (CSI row;col H) change the
grid; every other escape (colours, modes, queries, OSC) is skipped. Each code
point takes one cell, which holds for what the app draws.

It answers Textual's question whether it has synchronized output (mode 2026)
with yes, as most terminals do, so Textual brackets each frame; `in_frame`
says a frame is being drawn (its first bytes came, not its last). A frame
often reaches the screen in several reads (a PTY gives up to 4 KB a read), so
a test that read the screen mid-frame could see half of it: a prompt drawn
but not yet the dialog over it.
"""

from __future__ import annotations

import codecs
import re

_ESCAPE = re.compile(
    r"\x1b\[([0-9;?<>=!]*)([ -/]*)([@-~])"  # CSI
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC
    r"|\x1bP[^\x1b]*\x1b\\"  # DCS
    r"|\x1b[()][0-9A-Za-z]"  # charset
    r"|\x1b[=>78]"
)


class Screen:
    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.rows = [[" "] * width for _ in range(height)]
        self.row = self.col = 0
        self._pending = ""
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self.in_frame = False
        self.replies: list[bytes] = []  # what the terminal answers the program, to be sent by its owner

    def resize(self, width: int, height: int) -> None:
        self.rows = [(row + [" "] * width)[:width] for row in self.rows[:height]]
        self.rows += [[" "] * width for _ in range(height - len(self.rows))]
        self.width, self.height = width, height
        self.row, self.col = min(self.row, height - 1), min(self.col, width - 1)

    def feed(self, data: bytes) -> None:
        text = self._pending + self._decoder.decode(data)
        self._pending = ""
        escape_at = text.rfind("\x1b")
        if escape_at != -1 and not _ESCAPE.match(text, escape_at) and len(text) - escape_at < 64:
            self._pending = text[escape_at:]  # an escape cut in two: the rest comes next
            text = text[:escape_at]
        at = 0
        for match in _ESCAPE.finditer(text):
            self._text(text[at : match.start()])
            if match.group(1) == "?2026":
                if match.group(2) == "$" and match.group(3) == "p":
                    self.replies.append(b"\x1b[?2026;2$y")  # DECRQM: supported, now off
                elif not match.group(2):
                    self.in_frame = match.group(3) == "h"
            elif match.group(3) == "H" and not match.group(2):
                params = [int(p) if p.isdigit() else 1 for p in (match.group(1) or "1;1").split(";")] + [1, 1]
                self.row = max(0, min(self.height - 1, params[0] - 1))
                self.col = max(0, min(self.width - 1, params[1] - 1))
            at = match.end()
        self._text(text[at:])

    def _text(self, text: str) -> None:
        for char in text:
            if char == "\r":
                self.col = 0
            elif char == "\n":
                self.row = min(self.height - 1, self.row + 1)
            elif char == "\b":
                self.col = max(0, self.col - 1)
            elif char >= " " and char != "\x7f":
                if self.col < self.width:
                    self.rows[self.row][self.col] = char
                self.col = min(self.width, self.col + 1)

    def take_replies(self) -> bytes:
        replies, self.replies = b"".join(self.replies), []
        return replies

    def lines(self) -> list[str]:
        return ["".join(row) for row in self.rows]

    def text(self) -> str:
        return "\n".join(self.lines())

    def find(self, needle: str) -> tuple[int, int] | None:
        for number, line in enumerate(self.lines()):
            if needle in line:
                return number, line.index(needle)
        return None
