"""The main menu: hot seat, against the computer, two terminals, join, load, rules help, quit."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Footer, OptionList, Static
from textual.widgets.option_list import Option


class SteadyFooter(Footer):
    """A Footer that rebuilds its keys only when the keys to show have changed.

    Textual's Footer rebuilds every key widget on each bindings signal, and a
    screen sends several as it opens (stack change, focus, after the first
    refresh) with the same keys each time: each rebuild restyles every key,
    which was a good part of the main menu's launch time (benchmarks/tui.py).
    """

    _shown: tuple | None = None  # what the keys were built from (None: not yet)
    _signalled = False  # Footer shows no keys before the first bindings signal

    def _keys(self) -> tuple:
        """Everything Footer.compose builds the keys from."""
        active = self.screen.active_bindings
        return (
            self.show_command_palette,
            self.combine_groups,
            tuple((key, shown.binding, shown.enabled, shown.tooltip) for key, shown in active.items()),
        )

    def compose(self) -> ComposeResult:
        self._shown = self._keys() if self._signalled else None
        yield from super().compose()

    def bindings_changed(self, screen: Screen) -> None:
        self._signalled = True
        super().bindings_changed(screen)

    async def recompose(self) -> None:
        # Checked when the rebuild is due, not when it was asked for: the keys
        # on screen are then always those of the latest bindings.
        if self._shown is not None and self.is_attached and self._keys() == self._shown:
            return
        await super().recompose()


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
