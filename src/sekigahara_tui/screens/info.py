"""Screens that only show text: the hand-over, help on a decision, the rules, game over."""

from __future__ import annotations

import time
from importlib.resources import files
from typing import Awaitable, Callable

from typing_extensions import Self

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.geometry import Region
from textual.screen import ModalScreen, Screen
from textual.widgets import Markdown, Static

from rules.surface import (
    BOTH_SIDES,
    Event,
    CANCELLED,
    HIDEYORI_CAPTURED,
    RESIGNED,
    TIMED_OUT,
    ISHIDA_ELIMINATED,
    TOKUGAWA_ELIMINATED,
    DecisionHelp,
    PlayerView,
    Side,
)
from sekigahara_tui.seat import GameStats
from sekigahara_tui.labels import side_name
from sekigahara_tui.week_plots import week_plots, weekly_figures
from sekigahara_tui.widgets.map_panel import MapPanel
from sekigahara_tui.widgets.steady_footer import SteadyFooter
from sekigahara_tui.widgets.steady_text import SteadyBox, SteadyStatic, update_steady



# How long a screen lets an Enter settle: one typed this soon after the Enter
# before it is a double tap, not a reply to what the screen shows.
SETTLE_S = 0.6


def settle_clock() -> float:
    """The settle guards' clock: wall time. A test replaces it (monkeypatch) to
    type an Enter within SETTLE_S or after it without racing a loaded machine."""
    return time.monotonic()


class HandOverScreen(Screen[None]):
    """Hot-seat privacy: nothing of either side shows until the named player is ready."""

    # Priority: the app closes the hand-over as it reads the Enter, so keys typed
    # right after it go to the game screen's focused widget (or to the battle
    # summary it uncovers). Otherwise they queue on this closing screen: letters
    # are lost, and an Enter picks the highlighted choice.
    BINDINGS = [Binding("enter", "ready", "I am ready", id="handover.ready", priority=True)]
    # An Enter typed this soon after the one that closed the hand-over is a double
    # tap: the game screen ignores it if no key came between (GameScreen.on_key),
    # never giving a choice unseen; a battle summary it uncovers ignores it
    # (BattleSummaryScreen.action_continue), never closing unread. Shorter than
    # the game over's: a double tap comes within 0.1-0.2 s, and a player who has
    # read the board and chosen takes longer than 0.3 s; a sooner Enter is only
    # ignored (press it again), never a choice made unseen.
    SETTLE_S = 0.3
    # Nor does an Enter typed this soon after the hand-over itself was drawn close
    # it: that is the departing player's double tap (on his last choice, or on his
    # own battle summary over it), and it would show him the other side (R55).
    APPEAR_SETTLE_S = 0.3

    def __init__(self, side: Side, reason: str) -> None:
        super().__init__()
        self.side = side
        self._reason = reason
        self.drawn_at: float | None = None  # when it was last drawn on top
        self.ready_at: float | None = None  # when the player's Enter closed it
        self.shown_at: float | None = None  # when what it uncovered was first drawn
        self.before_ready: Callable[[], None] | None = None  # draws what it covers (hand_over.py), before it closes

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False) -> Self:
        """Textual paints the screen next under the top one as if it showed through,
        and repaints the top over every region it painted: the game screen drawn
        for the new seat under the hand-over (hand_over.py) repainted this one and
        wrote the terminal again, the same cells, until 50-100 ms after the key
        (issue 27, item 11). Nothing under the hand-over shows (R55): those
        regions are left alone; its own widgets repaint themselves."""
        if regions and not (layout or recompose):
            return self
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def again(self, reason: str) -> None:
        """Shown again, for the next hand-over to this side (the game screen keeps
        one per side: a new screen is composed, mounted and laid out several
        times over, most of the key's time, issue 27 item 11)."""
        self.drawn_at = self.ready_at = self.shown_at = None
        if reason != self._reason:  # a layout only if its rows change, and no second one (steady_text.py)
            self._reason = reason
            update_steady(self.query_one("#handover-reason", Static), reason)

    def on_mount(self) -> None:
        self.call_after_refresh(self._drawn)

    def on_screen_resume(self) -> None:  # on top again: pushed again, or a summary over it closed
        self.drawn_at = None
        self.call_after_refresh(self._drawn)

    def _drawn(self) -> None:
        self.drawn_at = settle_clock()

    async def action_ready(self) -> None:
        if self.APPEAR_SETTLE_S and (self.drawn_at is None or settle_clock() - self.drawn_at < self.APPEAR_SETTLE_S):
            return  # a double tap of the player leaving: the one coming presses it
        self.ready_at = settle_clock()
        if self.before_ready is not None:
            self.before_ready()
        await self.action_dismiss()

    def uncovered_drawn(self) -> None:
        """What this hand-over covered (the board, or a summary) has been drawn:
        the settle time runs from now."""
        if self.ready_at is not None and self.shown_at is None:
            self.shown_at = settle_clock()

    def settling(self) -> bool:
        """Whether an Enter now may be the double tap of the one that closed it:
        what it uncovered is not drawn yet, or was drawn less than SETTLE_S ago.
        Counted from the drawing, not from the Enter: on a loaded machine the
        board came a second late, and an Enter typed at the hand-over still on
        screen gave the highlighted choice unseen (found in a play-test)."""
        if self.ready_at is None:
            return False
        return self.shown_at is None or settle_clock() - self.shown_at < self.SETTLE_S

    def compose(self) -> ComposeResult:
        with SteadyBox(classes="handover"):
            yield Static(f"Pass the keyboard to {side_name(self.side)}.", classes="handover-title")
            yield SteadyStatic(self._reason, id="handover-reason")
            yield Static(f"{side_name(self.side)}: press Enter when the other player cannot see the screen.")
        yield SteadyFooter()


GAME_KEYS = (
    "Keys: Tab goes round the choices, the command line, the Hand/Log/Public tabs and the map. "
    "On the map, letters find a place, arrows move, Enter lists the choices there (Esc: all). "
    ": types a command; ctrl+e ends, passes or allows; ctrl+z takes back; h asks level 2 for a hint (not in a rated game); "
    "ctrl+o shows the whole board; "
    "ctrl+b switches between the map and a battle; ctrl+s saves; ctrl+q quits (the game is kept: autosaved, or on its host)."
)


def reflow(text: str) -> str:
    """Join the lines of a hard-wrapped help text that continue a sentence, so
    that the dialog wraps them to its own width instead of leaving ragged
    half-lines; a line ending a sentence or an item (. : ; ! ?) keeps its break."""
    lines = text.splitlines()
    out: list[str] = []
    for line in lines:
        if out and out[-1] and out[-1][-1] not in ".:;!?" and line:
            out[-1] = f"{out[-1]} {line.lstrip()}"
        else:
            out.append(line)
    return "\n".join(out)


class DecisionHelpScreen(ModalScreen[None]):
    BINDINGS = [
        Binding("escape", "dismiss", "Close", id="help.close"),
        Binding("question_mark", "dismiss", "Close", show=False),
    ]

    def __init__(self, help: DecisionHelp) -> None:
        super().__init__()
        self._help = help

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog"):
            yield Static(f"{self._help.title} ({self._help.rules})", classes="help-title")
            yield Static(reflow(self._help.text), markup=False)
            yield Static(GAME_KEYS, markup=False)
            yield Static("Esc closes. The Rules screen (from the menu) has the whole game.", classes="dim")


AUTO_ALLOW_INFERENCE = "the other player will know you hold no Loyalty card when play goes on at once"


class AutoAllowDialog(ModalScreen[bool]):
    """Hot seat: one seat's own setting, allow the enemy's play without asking
    when it holds no Loyalty Challenge card (R48). Dismissed with the new setting."""

    BINDINGS = [
        Binding("enter", "choose(True)", "Change", id="autoallow.change"),
        Binding("escape", "choose(False)", "Leave as is", id="autoallow.keep"),
    ]

    def __init__(self, side: Side, on: bool) -> None:
        super().__init__()
        self._side = side
        self._on = on

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog", id="auto-allow"):
            yield Static("Allow without asking when I hold no Loyalty card", classes="help-title")
            yield Static(
                "When the other side plays a card in battle and you hold no Loyalty Challenge card, "
                "your only choice is to allow it (R48). With this on, it is allowed at once and "
                f"the keyboard stays with the other player: no hand-over.\nBut {AUTO_ALLOW_INFERENCE}.",
                markup=False,
            )
            yield Static(
                f"{side_name(self._side)}: now {'ON' if self._on else 'off'}. "
                f"Enter turns it {'off' if self._on else 'on'}; Esc leaves it {'on' if self._on else 'off'}.",
                markup=False,
            )

    def action_choose(self, change: bool) -> None:
        self.dismiss(self._on != change)


class BattleSummaryScreen(ModalScreen[None]):
    """After a battle or siege: what happened, for the seat looking (R55: its own log).
    Shown after a hand-over (`after`), it lies under it, uncovered by its Enter."""

    # Priority, as the hand-over's: the app closes the summary as it reads the key,
    # so keys typed right after it reach the game screen, not this closing screen.
    BINDINGS = [
        Binding("enter", "continue", "Continue", id="summary.close", priority=True),
        Binding("escape", "dismiss", "Continue", show=False, priority=True),
        # A club game's way to the lobby works with a summary up too (it used to do nothing here).
        Binding("ctrl+l", "to_lobby", "Lobby", id="club.lobby", show=False),
    ]

    def __init__(self, title: str, lines: list[str], after: HandOverScreen | None = None) -> None:
        super().__init__()
        self._title = title
        self._lines = lines
        self._after = after

    def on_screen_resume(self) -> None:
        if self._after is not None:  # uncovered by the hand-over: its settle time runs once this is drawn
            self.call_after_refresh(self._after.uncovered_drawn)

    async def action_continue(self) -> None:
        """An Enter typed in the settle time of the hand-over's (a double tap) does
        not close the summary unread. Here any key between counts for nothing:
        none but Enter and Esc does more than scroll the summary."""
        if self._after is not None and self._after.settling():
            return
        await self.action_dismiss()

    def _game_under(self) -> Screen | None:
        """The screen this summary lies over, past any other summary."""
        for screen in reversed(self.app.screen_stack):
            if not isinstance(screen, BattleSummaryScreen):
                return screen
        return None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "to_lobby":
            return getattr(self._game_under(), "LEAVES_FOR_LOBBY", False)
        return True

    def action_to_lobby(self) -> None:
        """Close every summary over the club game, top first, then leave it for the lobby.
        Not awaited: a screen may not await its own dismissal (Textual's Screen.dismiss)."""
        game = self._game_under()
        for screen in reversed(list(self.app.screen_stack)):
            if screen is game:
                break
            screen.dismiss()
        game.action_leave()

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog", id="summary"):
            yield Static(self._title, classes="help-title", markup=False)
            # Above the lines, not below: a long summary (a Movement Phase) scrolls, and the key must show.
            yield Static("Enter continues.", classes="dim")
            yield Static("\n".join(f"- {line}" for line in self._lines), markup=False)


class RulesScreen(Screen[None]):
    BINDINGS = [Binding("escape", "dismiss", "Back", id="rules.back")]

    def compose(self) -> ComposeResult:
        text = (files("sekigahara_tui") / "rules_help.md").read_text(encoding="utf-8")
        with VerticalScroll(id="rules-scroll"):
            yield Markdown(text)
        yield SteadyFooter()

    def on_mount(self) -> None:
        self.query_one("#rules-scroll").focus()


CAUSES = {
    ISHIDA_ELIMINATED: "Ishida Mitsunari was eliminated (2.1)",
    TOKUGAWA_ELIMINATED: "Tokugawa Ieyasu was eliminated (2.1)",
    HIDEYORI_CAPTURED: "Toyotomi Hideyori was captured (2.1)",
    # Ends outside the rules (the club): the board stands as it was left.
    RESIGNED: "{loser} resigned.",
    TIMED_OUT: "{loser} ran out of time.",
    CANCELLED: "The game was cancelled by agreement.",
}


def result_text(view: PlayerView, stats: GameStats) -> str:
    result = view.result
    assert result is not None
    lines = [f"{side_name(result.winner)} wins." if result.winner is not None else "No result."]
    if result.vp is not None:
        lines.append("Victory points after week 7")
        lines.append("(2.2; a tie goes to Ishida):")
        lines.append("          castles   resources")
        for side in BOTH_SIDES:
            castles = sum(1 for _, owner in view.castle_control if owner is side)
            resources = sum(1 for _, owner in view.resource_control if owner is side)
            lines.append(f"{side_name(side):<10}{castles:>2} x 2  +  {resources:>2}  = {result.vp[side]:>2} VP")
    else:
        loser = side_name(result.winner.other) if result.winner is not None else ""
        lines.append(CAUSES.get(result.cause, result.cause).format(loser=loser))
    lines.append("")
    lines.append(f"Battles and sieges fought: {stats.battles}")
    lines.append("Blocks and discs lost: " + ", ".join(
        f"{side_name(side)} {stats.blocks_lost[side]}" for side in BOTH_SIDES))
    return "\n".join(lines)


class GameOverScreen(Screen[None]):
    """The end: the final board as this seat sees it (the whole map at once), the
    result with its VP breakdown, and the game week by week in small plots."""

    BINDINGS = [
        Binding("enter", "leave", "Main menu", id="gameover.menu"),
        Binding("r", "replay", "Replay", id="gameover.replay"),
        # not a letter: the final board takes letters to jump to a place
        Binding("ctrl+n", "rematch", "Rematch", id="gameover.rematch"),
        Binding("a", "analyse", "Analyse", id="gameover.analyse"),  # screens/analysis.py
    ]
    # An Enter pressed for the last decision, a moment before this screen showed
    # (a double tap), must not close it unread.
    SETTLE_S = SETTLE_S

    def __init__(self, view: PlayerView, stats: GameStats, log: list[Event] = (), replay: Callable[[], Screen] | None = None,
                 rematch: Callable[[], Awaitable[str]] | None = None,
                 analyse: Callable[[], Awaitable[str]] | None = None) -> None:
        super().__init__()
        self._analyse = analyse  # the finished game's record (JSON), for its analysis
        self._view = view
        self._replay = replay  # makes the replay screen, when this process holds the record (hot seat)
        self._rematch = rematch  # a club game: offers the opponent a new one, sides swapped; says what became of it
        self._text = result_text(view, stats)
        self._plots = week_plots(weekly_figures(log, view.week))

    def compose(self) -> ComposeResult:
        with Horizontal(id="gameover"):
            yield MapPanel(id="final-map")
            with VerticalScroll(id="gameover-text"):
                yield Static("Game over", classes="help-title")
                yield Static(self._text, id="result", markup=False)
                message = Static("", id="gameover-message", markup=False)  # what became of a rematch offered
                message.display = False  # until there is one: the screen is as it was
                yield message
                yield Static(self._plots, id="plots", markup=False)
        yield SteadyFooter()

    def on_mount(self) -> None:
        board = self.query_one(MapPanel)
        board.set_overview(self.app.size.width < 120)  # the whole board at once when narrow
        board.border_title = "the final board, as you see it"
        board.show(self._view)
        self.query_one("#gameover-text").focus()
        self._shown_at = settle_clock()

    def action_leave(self) -> None:
        if settle_clock() - getattr(self, "_shown_at", 0.0) >= self.SETTLE_S:
            self.dismiss()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "replay":  # a networked seat has no record to replay
            return self._replay is not None
        if action == "rematch":  # a club game's only
            return self._rematch is not None
        if action == "analyse":  # where the record can be had
            return self._analyse is not None
        return True

    def action_analyse(self) -> None:
        from sekigahara_tui.screens.analysis import AnalysisScreen

        if self._analyse is not None:
            result = self._view.result  # a club game ended outside the rules: its record does not say so
            self.app.push_screen(AnalysisScreen(self._analyse, (result.winner, result.cause) if result is not None else None))

    def action_replay(self) -> None:
        if self._replay is not None:
            self.app.push_screen(self._replay())

    @work(exclusive=True, group="rematch")
    async def action_rematch(self) -> None:
        if self._rematch is not None:
            said = await self._rematch()
            message = self.query_one("#gameover-message", Static)
            message.update(said)
            message.display = True


