"""Hot seat: the screen handed from one seat to the other (R55).

When the decision passes to the other side, a hand-over screen covers the
game until that player is ready (its Enter). Two things follow from it, kept
here for the game screen: while it is up no battle summary is pushed over it
(one for the new player is pushed under it, with it), and an Enter typed right
after its own, a double tap, must not give the highlighted choice unseen.

The screen under the hand-over is drawn for the new seat (its view, and what
it left on the screen) once the hand-over is on screen, not before it: the
player who chose sees the hand-over a redraw of the whole game screen sooner
(issue 27, item 11), and nobody sees the screen under it until its Enter,
which draws it first if it is not drawn yet (R55).
"""

from __future__ import annotations

from collections.abc import Callable

from textual.app import App

from rules.surface import Side
from sekigahara_tui.screens.info import BattleSummaryScreen, HandOverScreen


class HandOvers:
    """The game screen's hand-overs: whether one is up, and which one's Enter
    may still be followed by a double tap."""

    def __init__(self) -> None:
        self.up = False  # a hand-over screen is up: no battle summary over it
        self.settling: HandOverScreen | None = None  # the hand-over whose double-tapped Enter to ignore
        self._screens: dict[Side, HandOverScreen] = {}  # one per side, installed: kept when closed
        self._take_over: Callable[[], None] | None = None  # the new seat's screen, not drawn yet

    def screen_for(self, app: App, side: Side, reason: str) -> HandOverScreen:
        """The side's hand-over screen, made once and shown again after that:
        composing and mounting a new one was most of a hand-over key's time."""
        screen = self._screens.get(side)
        if screen is None:
            screen = self._screens[side] = HandOverScreen(side, reason)
            app.install_screen(screen, f"hand-over-{id(self)}-{side.value}")
        else:
            screen.again(reason)
        return screen

    def close(self, app: App) -> None:
        """The game screen goes: its hand-over screens with it."""
        for screen in self._screens.values():
            if screen not in app.screen_stack:  # (at the app's exit it may be: the app removes it)
                app.uninstall_screen(screen)
                screen.remove()
        self._screens.clear()

    def push(self, app: App, hand_over: HandOverScreen, summary: BattleSummaryScreen | None,
             take_over: Callable[[], None] | None = None) -> None:
        """The hand-over over everything, with the new player's battle summary
        (if any) under it, uncovered by its Enter; `take_over` draws the screen
        under it for the new seat, once the hand-over is drawn, or at its Enter."""
        self.up = True
        if summary is not None:
            app.push_screen(summary)
        self.settling = hand_over if summary is None else None  # the summary settles for itself
        self._take_over = take_over
        hand_over.before_ready = self.take_over
        app.push_screen(hand_over)
        if take_over is not None:
            hand_over.call_after_refresh(self.take_over)

    def take_over(self) -> None:
        """Draw the new seat's screen now, if it is not drawn yet."""
        take_over, self._take_over = self._take_over, None
        if take_over is not None:
            take_over()

    def resumed(self, screen) -> None:
        """The game screen shows again: the hand-over (and any summary) closed.
        The double tap's settle time runs from when the board is drawn."""
        self.up = False
        if self.settling is not None:
            screen.call_after_refresh(self.settling.uncovered_drawn)

    def settled(self) -> bool:
        """The first key or move after the hand-over's Enter ends its settling;
        True if this one does (the hand-over closed by its Enter, not yet settled)."""
        hand_over = self.settling
        if hand_over is None or hand_over.ready_at is None:
            return False
        self.settling = None
        return True

    def is_double_tap(self, key: str) -> bool:
        """An Enter typed right after the hand-over's, no key between and within
        its settle time (HandOverScreen.SETTLE_S). Any key read here ends the
        settling, so an Enter after another key (Down, letters) is meant."""
        hand_over = self.settling
        return self.settled() and key == "enter" and hand_over.settling()
