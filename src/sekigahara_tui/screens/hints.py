"""Hints on the game screen (h, issue 25 section 3): what level 2 would do now.

Only in a game whose terms allow it (seat.hints_allowed: not rated). The
hint is worked out in a worker process from the seat's view and its own log
(bots/hints.py, R55), through the table's decision pool when it has one (a
game against the computer) or a one-worker pool of the screen's own; the
screen says "thinking..." and every key stays live meanwhile. The answer is
shown only to the seat that asked, and only while its decision is the one
asked about: then a small pop-up says it, and Enter plays it if it is still
legal. In hot seat, a hint that comes back after the keyboard passed is
dropped (the other player must never see it).
"""

from __future__ import annotations

import asyncio
import random

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from rules.notation import NotationError, parse_command
from rules.surface import Command, PlayerView, Side, command_label
from sekigahara_tui.bots.hints import HINT_LEVEL
from sekigahara_tui.bots.workers import Decision, DecisionFailed, DecisionPool, SideLog, decision_seed
from sekigahara_tui.screens import info
from sekigahara_tui.seat import hints_allowed

BUDGET = 2.0  # seconds level 2 thinks over a hint, as over its own decisions (versus.py)
GRACE = 30.0  # beyond the budget, queueing included, before the hint is given up


class HintScreen(ModalScreen[bool]):
    """The hint: the command and its reason. Dismissed with True to play it."""

    BINDINGS = [
        Binding("enter", "answer(True)", "Play it", id="hint.play"),
        Binding("escape", "answer(False)", "Close", id="hint.close"),
    ]

    def __init__(self, label: str, reason: str) -> None:
        super().__init__()
        self._label = label
        self._reason = reason

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog", id="hint"):
            yield Static("Hint: level 2 would play", classes="help-title")
            yield Static(self._label, id="hint-command", markup=False)
            yield Static(f"Why: {self._reason}.", id="hint-reason", markup=False)
            yield Static("Enter plays it; Esc closes.", classes="dim")

    def on_mount(self) -> None:
        self._shown_at = info.settle_clock()

    def action_answer(self, play: bool) -> None:
        # An Enter typed for the game a moment before the hint showed must not play it.
        if play and info.settle_clock() - self._shown_at < info.SETTLE_S:
            return
        self.dismiss(play)


class Hints:
    """The game screen's hints: at most one in the works."""

    def __init__(self, screen) -> None:
        self.screen = screen
        self.pool: DecisionPool | None = None  # given (tests), or the screen's own once needed
        self._own: DecisionPool | None = None
        self.budget_s = BUDGET
        self._seed = random.SystemRandom().randrange(2**31)
        self.task: asyncio.Task | None = None
        self.shown = 0  # hints shown
        self.last: tuple[Command, str] | None = None  # the last hint shown: its command and reason

    def _pool(self) -> DecisionPool:
        if self.pool is not None:
            return self.pool
        table_pool = getattr(self.screen.table, "pool", None)  # against the computer: its worker
        if isinstance(table_pool, DecisionPool) and not table_pool.closed:
            return table_pool
        if self._own is None or self._own.closed:
            self._own = DecisionPool(1, quiet=True)
        return self._own

    def ask(self) -> None:
        screen = self.screen
        view, side = screen.view, screen.seat
        if not hints_allowed(screen.table.terms):
            screen.say("h: no hints in a rated game", error=True)
        elif view is None or view.spectator or not view.legal:
            screen.say("h: nothing for you to decide now", error=True)
        elif self.task is not None and not self.task.done():
            screen.say("Hint: still thinking...")
        else:
            screen.say("Hint: thinking... (level 2, from what you see only); play on meanwhile")
            log = list(screen.current.log)
            self.task = asyncio.get_running_loop().create_task(self._think(side, view, log))

    async def _think(self, side: Side, view: PlayerView, log: list) -> None:
        seed = decision_seed(self._seed, len(log))
        decision = Decision(HINT_LEVEL, side, seed, self.budget_s, view, SideLog().chunks_for(log))
        try:
            notation, reason = await self._pool().explain(decision, self.budget_s + GRACE, tag="hint")
            command = parse_command(notation, side=side)
        except (DecisionFailed, NotationError) as error:
            self.screen.say(f"No hint: {error}", error=True, side=side)
            return
        self._arrived(side, view, command, reason)

    def _arrived(self, side: Side, view: PlayerView, command: Command, reason: str) -> None:
        screen = self.screen
        if screen.seat is not side or screen.view != view:
            # The keyboard passed (hot seat: never show it to the other seat) or the decision moved on.
            screen.say("Hint dropped: the game moved on while level 2 thought", side=side)
            return
        label = command_label(command, view)
        screen.say(f"Hint: {label} ({reason})")
        self.shown += 1
        self.last = (command, reason)
        screen.app.push_screen(HintScreen(label, reason), lambda play: play and self.play(side, command))

    def play(self, side: Side, command: Command) -> None:
        screen = self.screen
        view = screen.view
        if screen.seat is not side or view is None or command not in view.legal:
            screen.say("The hint is no longer legal: the game moved on", error=True)
            return
        screen.submit(command)

    def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
        if self._own is not None:
            self._own.close_soon()
