"""The key bar every screen shows: Textual's Footer, rebuilt only when its keys change."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer


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
