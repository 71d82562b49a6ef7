"""Small modal dialogs: a new game's seed, loading a save, saving, a yes or no."""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from rules.surface import BOTH_SIDES, Side, printable_path
from sekigahara_tui.local import seed_problem


class NewGameDialog(ModalScreen["int | None"]):
    """Ask for a seed; blank means a random one, which is not shown (a player who
    saw it could replay the game's draws)."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel", id="dialog.cancel")]

    def __init__(self, random_seed: int) -> None:
        super().__init__()
        self._random_seed = random_seed

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("New hot-seat game")
            yield Input(placeholder="seed (blank: a random one, never shown)", id="seed")
            yield Static(id="dialog-message", markup=False)

    @on(Input.Submitted, "#seed")
    def _submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            self.dismiss(self._random_seed)
        elif text.isdecimal() and len(text) <= 19 and seed_problem(int(text)) is None:
            self.dismiss(int(text))
        else:
            self.query_one("#dialog-message", Static).update(
                "A seed is a whole number below 2**63, or blank for a random one."
            )


class LoadDialog(ModalScreen["Path | None"]):
    """Pick a save from the save folder, or type a path."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel", id="dialog.cancel")]

    def __init__(self, saves: list[Path]) -> None:
        super().__init__()
        self._saves = saves

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Load a saved game")
            yield OptionList(*(Option(Content(printable_path(path, 200))) for path in self._saves), id="saves")
            yield Input(placeholder="or type a path to a save file", id="path")
            yield Static(id="dialog-message", markup=False)

    def on_mount(self) -> None:
        if not self._saves:
            self.query_one("#saves", OptionList).display = False
            self.query_one("#path", Input).focus()

    @on(OptionList.OptionSelected, "#saves")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self._saves[event.option_index])

    @on(Input.Submitted, "#path")
    def _typed(self, event: Input.Submitted) -> None:
        path = Path(event.value.strip()).expanduser()
        if path.is_file():
            self.dismiss(path)
        else:
            self.query_one("#dialog-message", Static).update(f"No such file: {printable_path(path, 200)}")


class SaveDialog(ModalScreen["Path | None"]):
    """Where to save the game record."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel", id="dialog.cancel")]

    def __init__(self, default: Path) -> None:
        super().__init__()
        self._default = default

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Save the game (the save is the game record)")
            yield Input(value=str(self._default), id="path")

    @on(Input.Submitted, "#path")
    def _typed(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        self.dismiss(Path(text).expanduser() if text else None)


class SeatDialog(ModalScreen["Side | None"]):
    """A game in two terminals: which side this terminal plays."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel", id="dialog.cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("New game in two terminals: which side do you play here?")
            yield OptionList(
                *(Option(f"I play {side.value.capitalize()}", id=side.value) for side in BOTH_SIDES), id="sides"
            )
            yield Static("The other player joins from another terminal with the command shown next.", markup=False)

    @on(OptionList.OptionSelected, "#sides")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(Side(event.option.id))


class JoinDialog(ModalScreen["tuple[Path, Side] | None"]):
    """The games hosted on this machine that this user holds a seat token for."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel", id="dialog.cancel")]

    def __init__(self, choices: list[tuple[str, Path, Side]]) -> None:
        super().__init__()
        self._choices = choices

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Join a game on this machine")
            if self._choices:
                yield OptionList(*(Option(Content(label)) for label, _, _ in self._choices), id="games")
            else:
                yield Static("No game is being hosted on this machine for you to join.", markup=False)
                yield Static("Start one from the menu (two terminals) or with: sekigahara host DIR", markup=False)

    @on(OptionList.OptionSelected, "#games")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        _, path, side = self._choices[event.option_index]
        self.dismiss((path, side))


class ConfirmDialog(ModalScreen[bool]):
    """A yes-or-no question, by keyboard: y or Enter says yes, n or Esc no."""

    BINDINGS = [
        Binding("y,enter", "dismiss(True)", "Yes", id="confirm.yes"),
        Binding("n,escape", "dismiss(False)", "No", id="confirm.no"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self._question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self._question, markup=False)
            yield Static("y or Enter: yes    n or Esc: no", markup=False)
