"""The lobby's `n`: a new club game's terms on one form at 80x24 (issue 24):
the opponent (open to any member, a member by name, the computer), my side
(either, Ishida, Tokugawa), who may watch (any member, or its players
only), and whether it counts for the ratings (unrated unless chosen). Tab moves between the questions; Enter takes the form as it stands,
so `n` then Enter makes an open public game with either side, as `n` alone
did before. The answer is a GameTerms for ClubClient.new_game."""

from __future__ import annotations

from attrs import frozen
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from rules.surface import Side

OPPONENTS = (("open", "Open to any member"), ("member", "A member, by name (below)"), ("computer", "The computer"))
SIDES = ((None, "Either side (drawn at random)"), (Side.ISHIDA, "Ishida"), (Side.TOKUGAWA, "Tokugawa"))
WATCHERS = ((False, "Public: any member may watch"), (True, "Private: its players only"))
RATED = ((False, "Unrated"), (True, "Rated: both players' ratings move"))


@frozen
class NewClubGame:
    """What the form asked: the arguments of ClubClient.new_game."""

    side: Side | None
    opponent: str  # "open" or "computer"
    invite: str | None = None
    private: bool = False
    rated: bool = False


class ClubGameDialog(ModalScreen["NewClubGame | None"]):
    DEFAULT_CSS = """
    ClubGameDialog OptionList { border: none; height: auto; padding: 0; }
    ClubGameDialog Label { margin-top: 1; }
    ClubGameDialog #rated-label { margin-top: 0; }
    ClubGameDialog #member { border: none; height: 1; padding: 0 1; }
    """
    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel", id="dialog.cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("New club game (Tab: next question, Enter: make it, Esc: cancel)", markup=False)
            yield Label("Opponent:")
            yield OptionList(*(Option(words, id=key) for key, words in OPPONENTS), id="opponent")
            yield Input(placeholder="the member's name", id="member", max_length=32)
            yield Label("Your side:")
            yield OptionList(*(Option(words) for _side, words in SIDES), id="side")
            yield Label("Who may watch:")
            yield OptionList(*(Option(words) for _private, words in WATCHERS), id="watch")
            yield Label("Ratings:", id="rated-label")
            yield OptionList(*(Option(words) for _rated, words in RATED), id="rated")
            yield Static(id="dialog-message", markup=False)

    def on_mount(self) -> None:
        for question in self.query(OptionList):
            question.highlighted = 0
        self.query_one("#opponent", OptionList).focus()

    @on(OptionList.OptionHighlighted, "#opponent")
    def _opponent_moved(self, event: OptionList.OptionHighlighted) -> None:
        if event.option.id == "member":
            self.query_one("#member", Input).focus()

    @on(OptionList.OptionSelected)
    @on(Input.Submitted)
    def _taken(self, _event: object) -> None:
        self.submit()

    def submit(self) -> None:
        """The form as it stands, or one line saying what is missing."""
        opponent = OPPONENTS[self.query_one("#opponent", OptionList).highlighted or 0][0]
        side = SIDES[self.query_one("#side", OptionList).highlighted or 0][0]
        private = WATCHERS[self.query_one("#watch", OptionList).highlighted or 0][0]
        rated = RATED[self.query_one("#rated", OptionList).highlighted or 0][0]
        name = self.query_one("#member", Input).value.strip()
        if opponent == "member" and not name:
            self.query_one("#dialog-message", Static).update("Type the name of the member you invite.")
            self.query_one("#member", Input).focus()
            return
        if opponent == "member":
            self.dismiss(NewClubGame(side, "open", name, private, rated))
        else:
            self.dismiss(NewClubGame(side, opponent, None, private, rated))
