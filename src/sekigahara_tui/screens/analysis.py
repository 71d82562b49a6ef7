"""The analysis of a finished game on the game over screen (a, issue 25
section 3): analysis.py's report, worked out in a worker process so that the
screen stays live (a full game takes tens of seconds), then shown to scroll
through. Where this process holds the record (hot seat, against the
computer) it is the host's; a club game's comes from the club once it is
over (the club gives a record only then)."""

from __future__ import annotations

from typing import Awaitable, Callable

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from sekigahara_tui.bots.workers import DecisionFailed, DecisionPool
from sekigahara_tui.widgets.steady_footer import SteadyFooter

PLAYOUTS = 8  # a half-turn's playouts (analysis.PLAYOUTS); tests lower it
SEED = 0
TIMEOUT_S = 900.0  # a loaded machine: a full game took 17-24 s at 8 playouts with load 10 on 2 cores

RecordSource = Callable[[], Awaitable[str]]  # the finished game's record, as JSON


class AnalysisScreen(Screen[None]):
    BINDINGS = [Binding("escape", "dismiss", "Back", id="analysis.close")]

    def __init__(self, record: RecordSource, ended: tuple | None = None) -> None:
        super().__init__()
        self._record = record
        self._ended = ended  # (winner, cause) of an end outside the rules, which a record does not hold
        self._pool: DecisionPool | None = None
        self.done = False

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="analysis-text"):
            yield Static("Analysis", classes="help-title")
            yield Static("Analysing in the background: about half a minute for a whole game. Esc goes back.",
                         id="analysis", markup=False)
        yield SteadyFooter()

    def on_mount(self) -> None:
        self.query_one("#analysis-text").focus()
        self._analyse()

    def on_unmount(self) -> None:
        if self._pool is not None:
            self._pool.close_soon()

    @work(exclusive=True, group="analysis")
    async def _analyse(self) -> None:
        from sekigahara_tui.analysis import analysis_text
        from sekigahara_tui.club.client import ClubRefused

        shown = self.query_one("#analysis", Static)
        try:
            record = await self._record()
            self._pool = DecisionPool(1, quiet=True)
            text = await self._pool.run(analysis_text, (record, PLAYOUTS, SEED, self._ended), TIMEOUT_S)
        except (DecisionFailed, ClubRefused, OSError, TimeoutError) as error:
            text = f"No analysis: {getattr(error, 'strerror', None) or error}"
        shown.update(text)
        self.done = True
