"""The lobby's `n`: a new club game's terms on one form at 80x24 (issue 24):
the opponent (open to any member, a member by name, the computer), my side
(either, Ishida, Tokugawa), who may watch (any member, or its players only),
in the left column; the clock (clock_presets.py, or none) and, with a clock,
what happens to a side out of time (it loses, or the computer finishes its
seat at a level), and whether it counts for the ratings (unrated unless
chosen), in the right one. Tab moves between the questions (the time-out
question is skipped while there is no clock); Enter takes the form as it
stands, so `n` then Enter makes an open public unrated game with either side
and no clock, as `n` alone did before. The answer is a NewClubGame for
ClubClient.new_game."""

from __future__ import annotations

from attrs import frozen
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from rules.surface import Side
from sekigahara_tui.bots.base import LEVELS
from sekigahara_tui.durations import duration
from sekigahara_tui.clock_presets import NO_CLOCK, PRESET_NAMES, PRESETS
from sekigahara_tui.widgets.steady_footer import SteadyFooter

OPPONENTS = (("open", "Open to any member"), ("member", "A member, by name (below)"), ("computer", "The computer"))
SIDES = ((None, "Either side (drawn at random)"), (Side.ISHIDA, "Ishida"), (Side.TOKUGAWA, "Tokugawa"))
WATCHERS = ((False, "Public: any member may watch"), (True, "Private: its players only"))
RATED = ((False, "Unrated"), (True, "Rated: both players' ratings move"))
LEVEL_NUMBERS = {"random": 0, "heuristic": 1, "planner": 2, "search": 3}  # as the versus dialog numbers them
TIME_OUTS = (("lose", "The side out of time loses"),
             *((f"stand-in:{level}", f"The computer finishes, level {LEVEL_NUMBERS.get(level, level)}") for level in LEVELS))


def clock_words(name: str) -> str:
    """A preset in under 36 columns: 'daily 1d + 4h, at most 3d'."""
    preset = PRESETS.get(name)
    if preset is None:
        return "No clock"
    return f"{name:<5} {duration(preset.initial_s)} + {duration(preset.increment_s)}, at most {duration(preset.cap_s)}"


@frozen
class NewClubGame:
    """What the form asked: the arguments of ClubClient.new_game."""

    side: Side | None
    opponent: str  # "open" or "computer"
    invite: str | None = None
    private: bool = False
    clock: str = NO_CLOCK  # a preset's name (clock_presets.py)
    on_time_out: str = "lose"  # or "stand-in:LEVEL"
    rated: bool = False


class ClubGameDialog(ModalScreen["NewClubGame | None"]):
    DEFAULT_CSS = """
    ClubGameDialog OptionList { border: none; height: auto; padding: 0; }
    ClubGameDialog Label { margin-top: 1; }
    ClubGameDialog #rated-label { margin-top: 0; }
    ClubGameDialog #member { border: none; height: 1; padding: 0 1; }
    ClubGameDialog Horizontal { height: auto; }
    ClubGameDialog Horizontal > Vertical { width: 1fr; height: auto; }
    """
    # Its own key bar (below): the lobby's underneath would offer keys this form does not take.
    BINDINGS = [
        Binding("tab", "app.focus_next", "Next question", id="clubgame.next"),
        Binding("shift+tab", "app.focus_previous", "Previous", id="clubgame.previous"),
        # before the focused list's or name's own Enter (which would do the same), so the bar shows it
        Binding("enter", "submit", "Make it", id="clubgame.make", priority=True),
        Binding("escape", "dismiss(None)", "Cancel", id="dialog.cancel"),
    ]

    def compose(self) -> ComposeResult:
        yield SteadyFooter()
        with Vertical(classes="dialog"):
            yield Static("New club game (Tab: next question, Enter: make it, Esc: cancel)", markup=False)
            with Horizontal():
                with Vertical():
                    yield Label("Opponent:")
                    yield OptionList(*(Option(words, id=key) for key, words in OPPONENTS), id="opponent")
                    yield Input(placeholder="the member's name", id="member", max_length=32)
                    yield Label("Your side:")
                    yield OptionList(*(Option(words) for _side, words in SIDES), id="side")
                    yield Label("Who may watch:")
                    yield OptionList(*(Option(words) for _private, words in WATCHERS), id="watch")
                with Vertical():
                    yield Label("Clock:")
                    yield OptionList(*(Option(clock_words(name), id=name) for name in PRESET_NAMES), id="clock")
                    yield Label("Out of time:")
                    yield OptionList(*(Option(words, id=key) for key, words in TIME_OUTS), id="time-out", disabled=True)
                    yield Label("Ratings:", id="rated-label")
                    yield OptionList(*(Option(words) for _rated, words in RATED), id="rated")
            yield Static(id="dialog-message", markup=False)

    def on_mount(self) -> None:
        self.query_one(".dialog").styles.width = 78  # two columns (the app's .dialog rule says 70)
        for question in self.query(OptionList):
            question.highlighted = 0
        self.query_one("#opponent", OptionList).focus()

    @on(OptionList.OptionHighlighted, "#opponent")
    def _opponent_moved(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id == "member":
            self.query_one("#member", Input).focus()

    @on(OptionList.OptionHighlighted, "#clock")
    def _clock_moved(self, event: OptionList.OptionHighlighted) -> None:
        # No clock, no time out: the question is skipped (a disabled list takes no focus).
        self.query_one("#time-out", OptionList).disabled = event.option.id == NO_CLOCK

    @on(OptionList.OptionSelected)
    @on(Input.Submitted)
    def _taken(self, _event: object) -> None:
        self.submit()

    def action_submit(self) -> None:
        self.submit()

    def submit(self) -> None:
        """The form as it stands, or one line saying what is missing."""
        opponent = OPPONENTS[self.query_one("#opponent", OptionList).highlighted or 0][0]
        side = SIDES[self.query_one("#side", OptionList).highlighted or 0][0]
        private = WATCHERS[self.query_one("#watch", OptionList).highlighted or 0][0]
        rated = RATED[self.query_one("#rated", OptionList).highlighted or 0][0]
        name = self.query_one("#member", Input).value.strip()
        clock = PRESET_NAMES[self.query_one("#clock", OptionList).highlighted or 0]
        on_time_out = TIME_OUTS[self.query_one("#time-out", OptionList).highlighted or 0][0] if clock != NO_CLOCK else "lose"
        if opponent == "member" and not name:
            self.query_one("#dialog-message", Static).update("Type the name of the member you invite.")
            self.query_one("#member", Input).focus()
            return
        if opponent == "member":
            self.dismiss(NewClubGame(side, "open", name, private, clock, on_time_out, rated))
        else:
            self.dismiss(NewClubGame(side, opponent, None, private, clock, on_time_out, rated))
