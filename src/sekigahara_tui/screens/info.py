"""Screens that only show text: the hand-over, help on a decision, the rules, game over."""

from __future__ import annotations

from importlib.resources import files

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Markdown, Static

from rules.surface import (
    BOTH_SIDES,
    HIDEYORI_CAPTURED,
    ISHIDA_ELIMINATED,
    TOKUGAWA_ELIMINATED,
    DecisionHelp,
    PlayerView,
    Side,
)
from sekigahara_tui.seat import GameStats
from sekigahara_tui.labels import side_name


class HandOverScreen(Screen[None]):
    """Hot-seat privacy: nothing of either side shows until the named player is ready."""

    BINDINGS = [Binding("enter", "dismiss", "I am ready", id="handover.ready")]

    def __init__(self, side: Side, reason: str) -> None:
        super().__init__()
        self.side = side
        self._reason = reason

    def compose(self) -> ComposeResult:
        with Vertical(classes="handover"):
            yield Static(f"Pass the keyboard to {side_name(self.side)}.", classes="handover-title")
            yield Static(self._reason)
            yield Static(f"{side_name(self.side)}: press Enter when the other player cannot see the screen.")
        yield Footer()


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
            yield Static(self._help.text)
            yield Static("Esc closes. The Rules screen (from the menu) has the whole game.", classes="dim")


class BattleSummaryScreen(ModalScreen[None]):
    """After a battle or siege: what happened, for the seat looking (R55: its own log)."""

    BINDINGS = [
        Binding("enter", "dismiss", "Continue", id="summary.close"),
        Binding("escape", "dismiss", "Continue", show=False),
    ]

    def __init__(self, title: str, lines: list[str]) -> None:
        super().__init__()
        self._title = title
        self._lines = lines

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog", id="summary"):
            yield Static(self._title, classes="help-title", markup=False)
            yield Static("\n".join(f"- {line}" for line in self._lines), markup=False)
            yield Static("Enter continues.", classes="dim")


class RulesScreen(Screen[None]):
    BINDINGS = [Binding("escape", "dismiss", "Back", id="rules.back")]

    def compose(self) -> ComposeResult:
        text = (files("sekigahara_tui") / "rules_help.md").read_text(encoding="utf-8")
        with VerticalScroll(id="rules-scroll"):
            yield Markdown(text)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#rules-scroll").focus()


CAUSES = {
    ISHIDA_ELIMINATED: "Ishida Mitsunari was eliminated (2.1)",
    TOKUGAWA_ELIMINATED: "Tokugawa Ieyasu was eliminated (2.1)",
    HIDEYORI_CAPTURED: "Toyotomi Hideyori was captured (2.1)",
}


def result_text(view: PlayerView, stats: GameStats) -> str:
    result = view.result
    assert result is not None
    lines = [f"{side_name(result.winner)} wins."]
    if result.vp is not None:
        lines.append("Victory points at the end of week 7 (2.2; a tie goes to Ishida):")
        for side in BOTH_SIDES:
            castles = sum(1 for _, owner in view.castle_control if owner is side)
            resources = sum(1 for _, owner in view.resource_control if owner is side)
            lines.append(
                f"  {side_name(side)}: {result.vp[side]} VP = {castles} castles x 2 + {resources} resource locations"
            )
    else:
        lines.append(CAUSES.get(result.cause, result.cause))
    lines.append("")
    lines.append(f"Battles and sieges fought: {stats.battles}")
    for side in BOTH_SIDES:
        lines.append(f"Blocks and discs lost by {side_name(side)}: {stats.blocks_lost[side]}")
    return "\n".join(lines)


class GameOverScreen(Screen[None]):
    BINDINGS = [Binding("enter", "dismiss", "Main menu", id="gameover.menu")]

    def __init__(self, view: PlayerView, stats: GameStats) -> None:
        super().__init__()
        self._text = result_text(view, stats)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("Game over", classes="help-title")
            yield Static(self._text, id="result")
        yield Footer()
