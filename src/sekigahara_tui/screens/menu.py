"""The main menu: hot seat, against the computer, two terminals, join, load, rules help, quit."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from sekigahara_tui.widgets.steady_footer import SteadyFooter


TITLE = """SEKIGAHARA
The Unification of Japan, 1600
Tokugawa Ieyasu against Ishida Mitsunari"""


class MenuScreen(Screen[None]):
    BINDINGS = [
        Binding("n", "app.new_game", "New game", id="menu.new"),
        Binding("c", "app.versus", "CPU", id="menu.versus"),
        Binding("t", "app.two_terminals", "Two terminals", id="menu.two"),
        Binding("j", "app.join_game", "Join", id="menu.join"),
        Binding("l", "app.load_game", "Load", id="menu.load"),
        Binding("r", "app.rules", "Rules", id="menu.rules"),
        Binding("q", "app.quit", "Quit", id="menu.quit"),
    ]

    def compose(self) -> ComposeResult:
        yield Static(TITLE, id="title")
        yield OptionList(
            Option("Hot seat: one terminal", id="new_game"),
            Option("Play against the computer", id="versus"),
            Option("Two terminals: one player in each", id="two_terminals"),
            Option("Join a game on this machine", id="join_game"),
            Option("Load a saved game", id="load_game"),
            Option("Rules help", id="rules"),
            Option("Quit", id="quit"),
            id="menu",
        )
        yield SteadyFooter()

    @on(OptionList.OptionSelected, "#menu")
    async def _chosen(self, event: OptionList.OptionSelected) -> None:
        await self.app.run_action(str(event.option.id))
