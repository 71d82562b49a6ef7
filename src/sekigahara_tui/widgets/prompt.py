"""The prompt: what is being decided, the legal choices, and a command line.

The choices are the view's legal commands in plain words (labels.choice_lines:
alike choices are one line, with their count).
The command line takes any legal line. While it holds text, the choices shown
are the ones whose notation begins with it (the candidates of a completion),
and → completes only what they all share, as a shell's Tab does: never a
guess between two (issue 27, fault 3). Empty, it shows the highlighted
choice's notation as its hint; Enter there gives that choice, → copies it in
to edit, and ↑/↓ move through the choices (fault 2). Picking or typing posts
a message the game screen turns into a command for the host. The message line
under the choices keeps the last outcome ("Done: ...", "Took back: ...", a
refusal) until the next one.
"""

from __future__ import annotations

import os

from collections.abc import Callable

from textual import events, on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.geometry import Size
from textual.message import Message
from textual.reactive import Reactive
from textual.suggester import Suggester
from textual.widget import Widget
from textual.widgets import Input, Static

from rules.notation import format_command
from rules.surface import Command, PlayerView, Side, places
from sekigahara_tui.labels import choice_lines, place_label, side_name, word_label
from sekigahara_tui.widgets.choice_list import ChoiceList
from sekigahara_tui.widgets.message_line import MessageLine
from sekigahara_tui.widgets.steady_text import SteadyStatic, update_steady

PLACEHOLDER = "type a command (→ completes)"
HINT = "Enter: {notation}"  # the empty line's hint: what Enter gives
BROWSED = "Enter gives the highlighted choice; → shows it"  # after ↑/↓ from a typed line
# The empty line's hint when the notation does not fit the line (80 columns: 31
# cells): the first that fits says the same, never a notation cut short.
SHORT_HINTS = (BROWSED, "Enter: highlighted choice; → shows it", "Enter: highlighted; → shows it", "Enter: highlighted")


def hint(notation: str, width: int) -> str:
    """What Enter gives on the empty line, in `width` cells (0: not laid out yet)."""
    full = HINT.format(notation=notation)
    if not width or len(full) <= width:
        return full
    return next((short for short in SHORT_HINTS if len(short) <= width), SHORT_HINTS[-1])


def shortened(text: str) -> str:
    """A refusal shortened to what the screen does not already say (issue 27,
    fault 5): one that lists every verb of the notation ("expected one of
    discard, bid, ... retreat", 26 of them) says where to look instead, and
    "waiting for tokugawa to declare the next combat (8.1)" goes, since the
    decision line above says it."""
    head, found, _ = text.partition(": expected one of ")
    if found:
        return f"{head}: the choices above are what you may give now (? helps)"
    head, found, _ = text.partition(": waiting for ")
    return head if found else text


SIDES = tuple(f"{side.value}:" for side in Side)


class UnambiguousSuggester(Suggester):
    """Completes only what every legal line beginning with the typed text
    shares: with two Tokugawa cards, 'movement limited toku' completes to
    'movement limited tokugawa-' and no further."""

    def __init__(self, texts: list[str]) -> None:
        super().__init__(use_cache=False, case_sensitive=False)
        self.texts = [text.casefold() for text in texts]

    async def get_suggestion(self, value: str) -> str | None:
        prefix = os.path.commonprefix(matching(self.texts, value))
        return prefix if len(prefix) > len(value) else None


def typed_notation(line: str) -> str:
    """The typed line without a leading side ("tokugawa: bid ..."), folded."""
    folded = line.casefold().lstrip()
    for side in SIDES:
        if folded.startswith(side):
            return folded[len(side):].lstrip()
    return folded


def matching(texts: list[str], line: str) -> list[str]:
    typed = typed_notation(line)
    return [text for text in texts if text.startswith(typed)]


def gloss(command: Command) -> str:
    """The command's arguments in words: 'Mori plain, bid 3; Kyoto'."""
    return ", ".join(word_label(word) for word in format_command(command, with_side=False).split()[1:])


def decision_line(view: PlayerView) -> str:
    """What is being decided, and by whom: the seat, or the side it waits for."""
    if view.result is not None:
        return "The game is over."
    if view.side in view.decision.sides and not view.spectator:
        return f"You: {view.prompt}"
    others = " and ".join(side_name(side) for side in sorted(view.decision.sides, key=lambda s: s.value))
    if view.spectator:  # it plays neither side
        return f"Watching: {others} to {view.prompt}"
    return f"Waiting for {others} to {view.prompt}"


class CommandLine(Input):
    """The command line. `:` and `?` are the game screen's keys wherever focus is,
    so the line leaves them to it (the screen types the colon of "tokugawa:")."""

    SCREEN_KEYS = frozenset(":?")
    # Input sets its virtual size to the text's width at every letter, and Widget's
    # asks for a layout of the whole screen then; the line is one row of the
    # layout's width whatever it holds (it scrolls within it): a repaint is enough.
    virtual_size: Reactive[Size] = Reactive(Size(0, 0), layout=False)

    def check_consume_key(self, key: str, character: str | None) -> bool:
        if character in self.SCREEN_KEYS:
            return False
        return super().check_consume_key(key, character)

    class Browse(Message):
        """↑ or ↓ on the command line: move through the choices (-1 or +1)."""

        def __init__(self, step: int) -> None:
            super().__init__()
            self.step = step

    class TakeHint(Message):
        """→ on the empty line, or after ↑/↓: copy the highlighted choice's notation in."""

    class GiveHighlighted(Message):
        """Enter after ↑/↓ moved the highlight (since the line was last edited)."""

    browsed = False  # ↑/↓ moved the highlight since the line was last edited: Enter and → take the choice

    def watch_value(self) -> None:
        self.browsed = False

    async def on_key(self, event: events.Key) -> None:
        """Enter gives the line as it stands when the Enter is read. Left to the
        Input's binding it acted only once the key had bubbled up to the app,
        after the keys typed behind it had gone into the line ("draw", Enter,
        "abc" gave "drawabc"). After ↑/↓, as in a completion menu, Enter gives
        the highlighted choice and → copies it in; an edit gives the line back."""
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            if self.browsed and self.value.strip():
                self.post_message(self.GiveHighlighted())
            else:
                await self.action_submit()
        elif event.key in ("up", "down"):
            event.stop()
            event.prevent_default()
            self.browsed = True
            self.post_message(self.Browse(-1 if event.key == "up" else 1))
        elif event.key == "right" and (self.browsed or not self.value):
            event.stop()
            event.prevent_default()
            self.post_message(self.TakeHint())


class PromptPanel(Vertical):
    class Chosen(Message):
        """A legal command picked from the list."""

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
        self._shown: tuple[Command, ...] = ()  # one command a line
        self._listed: tuple[Command, ...] | None = None  # the commands those lines stand for
        self._legal: tuple[Command, ...] = ()
        self.filter_location: str | None = None
        self._refilled = False
        self._view: PlayerView | None = None
        self._decision = ""
        self._texts: list[str] = []  # the legal commands' notation, folded, in the order of _legal
        self._typed = ""  # the command line's text, as the choices are narrowed by it
        self.came_from: Widget | None = None  # where `:` found the focus: it goes back after a command
        # Called, in the same call as the key, when the player moves through the
        # choices onto a command (the screen moves the map there): one key, one
        # screen update, where a message would be handled after the list was drawn.
        self.browsed: Callable[[Command], None] | None = None

    def compose(self) -> ComposeResult:
        yield SteadyStatic(id="decision", markup=False)
        yield ChoiceList(id="choices")
        yield MessageLine(id="message", markup=False)  # it may echo what was typed: plain text
        yield SteadyStatic(id="connection", markup=False)  # a networked game: the host and the other player
        yield CommandLine(placeholder=PLACEHOLDER, id="command-line")

    def on_mount(self) -> None:
        self.choices.border_subtitle = "^t hand, log"  # the tabs on the whole screen (GameScreen.action_tabs)
        # Watched, not told by message: the hint and the map follow in the key's own call.
        self.watch(self.choices, "highlighted", self._explain, init=False)
        self.watch(self.command_line, "value", self._narrow, init=False)

    @property
    def choices(self) -> ChoiceList:
        return self.query_one("#choices", ChoiceList)

    @property
    def command_line(self) -> Input:
        return self.query_one("#command-line", Input)

    def show(self, view: PlayerView) -> None:
        decision = decision_line(view)
        if decision != self._decision:  # height auto: a longer line may need another row
            self._decision = decision
            update_steady(self.query_one("#decision", Static), decision)
        self._view = view
        if view.legal == self._legal:
            return
        self._legal = view.legal
        texts = [format_command(c, with_side=False) for c in view.legal]
        self.command_line.suggester = UnambiguousSuggester(texts)
        self._texts = [text.casefold() for text in texts]
        self._fill()

    def _fill(self) -> None:
        location = self.filter_location
        shown = [c for c in self._legal if location is None or location in places(c)]
        typed = typed_notation(self._typed)
        unmatched = False
        if typed:
            candidates = [c for c, text in zip(self._legal, self._texts) if text.startswith(typed) and c in shown]
            unmatched = not candidates
            shown = candidates or shown  # nothing begins so: keep the choices, and say it
        if tuple(shown) == self._listed:
            self._title(location, typed, len(shown), unmatched)  # the same choices: no redraw of the list
            return
        self._listed = tuple(shown)
        lines = choice_lines(shown, self._view)  # alike choices as one line, with their count
        self._shown = tuple(command for command, _ in lines)
        choices = self.choices
        self._refilled = True  # the highlight that follows is the list's, not the player's
        choices.refill(label for _, label in lines)  # plain text: a label's brackets are no markup
        if shown:
            choices.highlighted = 0
        else:
            self._refilled = False
            self.command_line.placeholder = PLACEHOLDER
        self._title(location, typed, len(shown), unmatched)

    def _title(self, location: str | None, typed: str, count: int, unmatched: bool) -> None:
        if unmatched:
            title = "none begins so: all shown"  # short: the border is a third of 80 columns
        elif typed:
            title = f"{count} matches" if count != 1 else "1 match: Enter gives it"
        elif location:
            title = f"at {place_label(location)} · Esc: all"  # whole in the border at 80 columns
        else:
            title = f"{count} choices" if count != 1 else "1 choice"
        self.choices.border_title = title

    def filter_to(self, location: str | None) -> None:
        """Show only the choices that name `location` (None: all of them)."""
        self.filter_location = location
        self._fill()

    def commands_at(self, location: str) -> list[Command]:
        return [c for c in self._legal if location in places(c)]

    def show_connection(self, text: str) -> None:
        line = self.query_one("#connection", Static)
        line.display = bool(text)
        update_steady(line, text)  # height auto: a longer line (a join hint) takes the rows it needs

    def say(self, text: str, error: bool = False) -> None:
        """The message line (message_line.py): it wraps to as many rows as it
        needs, up to the stylesheet's max-height (3), but the echo of a command
        given keeps its fewest; a refusal listing every verb is shortened to fit
        (issue 27, fault 5: at 80 columns the list was cut mid-word)."""
        self.message.say(shortened(text), error)

    @property
    def message(self) -> MessageLine:
        return self.query_one("#message", MessageLine)

    def notation_of(self, index: int) -> str | None:
        """The notation of the choice at `index` (what the command line takes)."""
        return format_command(self._shown[index], with_side=False) if index < len(self._shown) else None

    def _hint(self, index: int | None) -> None:
        notation = self.notation_of(index) if index is not None else None
        if notation is not None:
            line = self.command_line
            line.placeholder = hint(notation, line.content_size.width)

    def on_resize(self) -> None:
        self._hint(self.choices.highlighted)  # a hint that fits the line at its new width

    def _explain(self, index: int | None) -> None:
        if index is None:  # the list emptied while it is refilled
            return
        self._hint(index)
        # Only when the player moves through the list: a list refilled (its first
        # highlight), or filtered from the map, must not move the map.
        refilled, self._refilled = self._refilled, False
        if refilled or not self.choices.has_focus or self.filter_location is not None:
            return
        if index < len(self._shown) and self.browsed is not None:
            self.browsed(self._shown[index])

    @on(ChoiceList.Selected, "#choices")
    def _choose(self, event: ChoiceList.Selected) -> None:
        event.stop()
        if event.index < len(self._shown):
            self.post_message(self.Chosen(self._shown[event.index]))

    def give_focus_back(self) -> None:
        """After a command given from the line (or Esc on an empty line), the
        focus goes back where `:` found it (issue 27, fault 2): the line is no trap."""
        before, self.came_from = self.came_from, None
        if self.command_line.has_focus and before is not None and before.is_attached and before.display and before.focusable:
            self.screen.set_focus(before)

    def highlighted_command(self) -> Command | None:
        index = self.choices.highlighted
        return self._shown[index] if index is not None and index < len(self._shown) else None

    def _narrow(self, value: str) -> None:
        """The choices follow what is typed: the candidates of its completion."""
        if self.message.said == BROWSED:  # an edit: Enter gives the line again
            self.say("")
        if typed_notation(value) != typed_notation(self._typed):
            self._typed = value
            self._fill()
        else:
            self._typed = value

    @on(CommandLine.Browse)
    def _browse(self, event: CommandLine.Browse) -> None:
        event.stop()
        if self.command_line.value.strip():  # what Enter now gives, said where the typed line cannot show it
            self.say(BROWSED)
        if event.step < 0:
            self.choices.action_cursor_up()
        else:
            self.choices.action_cursor_down()

    @on(CommandLine.TakeHint)
    def _take_hint(self, event: CommandLine.TakeHint) -> None:
        event.stop()
        command = self.highlighted_command()
        if command is not None:
            line = self.command_line
            line.value = format_command(command, with_side=False)
            line.cursor_position = len(line.value)

    @on(CommandLine.GiveHighlighted)
    def _give_highlighted(self, event: CommandLine.GiveHighlighted) -> None:
        event.stop()
        command = self.highlighted_command()
        if command is not None:
            self.post_message(self.Chosen(command))

    @on(Input.Submitted, "#command-line")
    def _typed(self, event: Input.Submitted) -> None:
        event.stop()
        line = event.value.strip()
        if line:
            self.post_message(self.Typed(line))
            return
        # The empty line's Enter gives what its hint shows: the highlighted choice.
        command = self.highlighted_command()
        if command is not None:
            self.post_message(self.Chosen(command))
        else:
            self.say("Nothing to give now: the choices are empty (Esc goes back).")
