"""The side not to act sees no empty list of choices: the prompt says whom it
waits for, and the tabs take the room (the stylesheet's #side.-waiting).
Hiding the list moves the focus from it to the command line (here, not left
to Textual, which may pick the map); when the choices come back, the focus
goes back to them (unless the player moved it or typed meanwhile)."""

from __future__ import annotations

from textual.screen import Screen

from sekigahara_tui.widgets.prompt import PromptPanel


class Waiting:
    def __init__(self) -> None:
        self.choices_had_focus = False  # when the list was hidden for a seat not to act

    def show(self, screen: Screen, waiting: bool) -> None:
        side = screen.query_one("#side")
        if waiting == side.has_class("-waiting"):
            return
        prompt = screen.query_one(PromptPanel)
        if waiting:
            self.choices_had_focus = screen.focused is prompt.choices
            if self.choices_had_focus:
                screen.set_focus(prompt.command_line)
            side.add_class("-waiting")
            return
        side.remove_class("-waiting")
        line = prompt.command_line
        if self.choices_had_focus and (screen.focused is None or (screen.focused is line and not line.value)):
            screen.set_focus(prompt.choices)
