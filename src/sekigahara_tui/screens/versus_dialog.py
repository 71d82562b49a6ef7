"""Play against the computer: which side the player takes, and the computer's
level (the main menu's `c` and the club lobby's `c`); in the club, whether
the game is rated too (Tab to it before choosing the level; unrated unless
chosen), and the answer then says so: (side, level, rated)."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList, Static
from textual.widgets.option_list import Option

from rules.surface import BOTH_SIDES
from sekigahara_tui.bots.base import LEVELS

# What each level does, in a few words (bots/base.py LEVELS).
LEVEL_WORDS = {
    "random": "Level 0: random legal moves",
    "heuristic": "Level 1: rules of thumb",
    "planner": "Level 2: looks ahead (slower)",
    "search": "Level 3: searches a tree of plans (slowest)",
}


def level_label(level: str) -> str:
    return LEVEL_WORDS.get(level, level)


class VersusDialog(ModalScreen["tuple[Side, str] | None"]):
    """Pick a side (Enter), then the computer's level (Enter)."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel", id="dialog.cancel")]

    def __init__(self, hint: str = "Its moves appear one at a time; ctrl+f skips ahead.", offer_rated: bool = False) -> None:
        super().__init__()
        self.hint = hint
        self.offer_rated = offer_rated

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Play against the computer: which side do you play?", id="side-question")
            yield OptionList(
                *(Option(f"I play {side.value.capitalize()}", id=side.value) for side in BOTH_SIDES), id="sides"
            )
            yield Label("The computer plays at:")
            levels = list(LEVELS)
            yield OptionList(*(Option(level_label(level), id=level) for level in levels), id="levels")
            if self.offer_rated:
                yield Label("Counts for the ratings (Tab here, then Enter):")
                yield OptionList(Option("Unrated"), Option("Rated: mine and the computer level's move"), id="rated")
            yield Static(self.hint, markup=False)

    def on_mount(self) -> None:
        levels = self.query_one("#levels", OptionList)
        if "heuristic" in LEVELS:
            levels.highlighted = list(LEVELS).index("heuristic")
        self.query_one("#sides", OptionList).focus()

    @on(OptionList.OptionSelected, "#sides")
    def _side_picked(self, event: OptionList.OptionSelected) -> None:
        # Said as the levels take the keys: an Enter typed before this shows
        # still reaches the sides (over SSH, a keen player's second Enter).
        side = BOTH_SIDES[event.option_index]
        self.query_one("#side-question", Label).update(f"You play {side.value.capitalize()}: now choose the computer's level.")
        self.query_one("#levels", OptionList).focus()

    @on(OptionList.OptionSelected, "#levels")
    def _level_picked(self, event: OptionList.OptionSelected) -> None:
        self._level_chosen(str(event.option.id))

    @on(OptionList.OptionSelected, "#rated")
    def _rated_picked(self, _event: OptionList.OptionSelected) -> None:
        self._level_chosen(list(LEVELS)[self.query_one("#levels", OptionList).highlighted or 0])

    def _level_chosen(self, level: str) -> None:
        side = BOTH_SIDES[self.query_one("#sides", OptionList).highlighted or 0]
        if self.offer_rated:
            self.dismiss((side, level, self.query_one("#rated", OptionList).highlighted == 1))
        else:
            self.dismiss((side, level))
