"""The prompt: what is being decided, the legal choices, and a command line.

The choices are the view's legal commands in plain words (labels.choice_labels);
the highlighted one's notation shows on the empty command line, which takes
any legal line with completion. Picking or typing posts a message the game
screen turns into a command for the host. The message line under the choices
keeps the last outcome ("Done: ...", "Took back: ...", a refusal) until the
next one.
"""

from __future__ import annotations

from textual import events, on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.suggester import SuggestFromList
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from rules.notation import format_command
from rules.surface import Command, PlayerView, places
from sekigahara_tui.labels import choice_labels, place_label, side_name, word_label

PLACEHOLDER = "type a command (Tab/→ completes)"


def gloss(command: Command) -> str:
    """The command's arguments in words: 'Mori plain, bid 3; Kyoto'."""
    return ", ".join(word_label(word) for word in format_command(command, with_side=False).split()[1:])


def decision_line(view: PlayerView) -> str:
    """What is being decided, and by whom: the seat, or the side it waits for."""
    if view.result is not None:
        return "The game is over."
    if view.side in view.decision.sides:
        return f"You: {view.prompt}"
    others = " and ".join(side_name(side) for side in sorted(view.decision.sides, key=lambda s: s.value))
    return f"Waiting for {others} to {view.prompt}"


class CommandLine(Input):
    """The command line. `:` and `?` are the game screen's keys wherever focus is,
    so the line leaves them to it (the screen types the colon of "tokugawa:")."""

    SCREEN_KEYS = frozenset(":?")

    def check_consume_key(self, key: str, character: str | None) -> bool:
        if character in self.SCREEN_KEYS:
            return False
        return super().check_consume_key(key, character)

    async def on_key(self, event: events.Key) -> None:
        """Enter gives the line as it stands when the Enter is read. Left to the
        Input's binding it acted only once the key had bubbled up to the app,
        after the keys typed behind it had gone into the line ("draw", Enter,
        "abc" gave "drawabc")."""
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            await self.action_submit()


class PromptPanel(Vertical):
    class Chosen(Message):
        """A legal command picked from the list."""

        def __init__(self, command: Command) -> None:
            super().__init__()
            self.command = command

    class Browsed(Message):
        """The player moved through the choices onto `command` (the map shows where)."""

        def __init__(self, command: Command) -> None:
            super().__init__()
            self.command = command

    class Typed(Message):
        """A line typed on the command line."""

        def __init__(self, line: str) -> None:
            super().__init__()
            self.line = line

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._shown: tuple[Command, ...] = ()
        self._legal: tuple[Command, ...] = ()
        self.filter_location: str | None = None
        self._refilled = False
        self._view: PlayerView | None = None
        self._decision = ""

    def compose(self) -> ComposeResult:
        yield Static(id="decision", markup=False)
        yield OptionList(id="choices")
        yield Static(id="message", markup=False)  # it may echo what was typed: plain text
        yield Static(id="connection", markup=False)  # a networked game: the host and the other player
        yield CommandLine(placeholder=PLACEHOLDER, id="command-line")

    @property
    def choices(self) -> OptionList:
        return self.query_one("#choices", OptionList)

    @property
    def command_line(self) -> Input:
        return self.query_one("#command-line", Input)

    def show(self, view: PlayerView) -> None:
        decision = decision_line(view)
        if decision != self._decision:  # height auto: a longer line may need another row
            self._decision = decision
            self.query_one("#decision", Static).update(decision)
        self._view = view
        if view.legal == self._legal:
            return
        self._legal = view.legal
        texts = [format_command(c, with_side=False) for c in view.legal]
        self.command_line.suggester = SuggestFromList(texts, case_sensitive=False)
        self._fill()

    def _fill(self) -> None:
        location = self.filter_location
        shown = [c for c in self._legal if location is None or location in places(c)]
        self._shown = tuple(shown)
        choices = self.choices
        choices.clear_options()
        # Content, not a str: a str prompt is markup, and a label's "[bid ...]" would vanish as a tag.
        choices.add_options([Option(Content(label)) for label in choice_labels(shown, self._view)])
        if shown:
            self._refilled = True  # the highlight that follows is the list's, not the player's
            choices.highlighted = 0
        else:
            self.command_line.placeholder = PLACEHOLDER
        title = f"choices at {place_label(location)} (Esc: all)" if location else (f"{len(shown)} choices" if len(shown) != 1 else "1 choice")
        choices.border_title = title

    def filter_to(self, location: str | None) -> None:
        """Show only the choices that name `location` (None: all of them)."""
        self.filter_location = location
        self._fill()

    def commands_at(self, location: str) -> list[Command]:
        return [c for c in self._legal if location in places(c)]

    def show_connection(self, text: str) -> None:
        line = self.query_one("#connection", Static)
        line.display = bool(text)
        line.update(text)  # height auto: a longer line (a join hint) takes the rows it needs

    def say(self, text: str, error: bool = False) -> None:
        message = self.query_one("#message", Static)
        message.set_class(error, "error")
        message.update(text, layout=False)

    def notation_of(self, index: int) -> str | None:
        """The notation of the choice at `index` (what the command line takes)."""
        return format_command(self._shown[index], with_side=False) if index < len(self._shown) else None

    @on(OptionList.OptionHighlighted, "#choices")
    def _explain(self, event: OptionList.OptionHighlighted) -> None:
        notation = self.notation_of(event.option_index)
        if notation is not None:
            self.command_line.placeholder = f": {notation}"
        # Only when the player moves through the list: a list refilled (its first
        # highlight), or filtered from the map, must not move the map.
        refilled, self._refilled = self._refilled, False
        if refilled or not self.choices.has_focus or self.filter_location is not None:
            return
        if event.option_index < len(self._shown):
            self.post_message(self.Browsed(self._shown[event.option_index]))

    @on(OptionList.OptionSelected, "#choices")
    def _choose(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option_index < len(self._shown):
            self.post_message(self.Chosen(self._shown[event.option_index]))

    @on(Input.Submitted, "#command-line")
    def _typed(self, event: Input.Submitted) -> None:
        event.stop()
        line = event.value.strip()
        if line:
            self.post_message(self.Typed(line))
