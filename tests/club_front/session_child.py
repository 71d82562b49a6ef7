"""A browser session's app for the web front's tests: a Textual app (textual-serve
speaks to it through Textual's web driver) that shows the club session it was
given and the names of its environment, as `sekigahara club` would be given them."""

from __future__ import annotations

import os

from textual.app import App, ComposeResult
from textual.widgets import Static


class SessionChild(App):
    def compose(self) -> ComposeResult:
        yield Static(f"session {os.environ.get('SEKIGAHARA_SESSION')}", markup=False)
        yield Static("env " + " ".join(sorted(os.environ)), markup=False)

    def on_key(self, event) -> None:
        if event.key == "q":
            self.exit()


if __name__ == "__main__":
    SessionChild().run()
