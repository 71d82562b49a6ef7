"""One decision the game waits for, in one object (issue 22).

Each kind of decision (rules.state.DecisionKind) is a `DecisionRules`, defined
in the rulebook module that asks it (bidding.BID, movement.MOVE, ...): what it
asks, its `?` help, its legal commands, how each command answers it, and which
command finishes it. rules.engine only gathers them and dispatches.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from attrs import frozen

from rules.alike import Pieces
from rules.sides import Side
from rules.state import DecisionKind, GameState

if TYPE_CHECKING:
    from rules.commands import Command
    from rules.events import Event

Handler = Callable[[GameState, Any], "tuple[GameState, list[Event]]"]
Check = Callable[[GameState, Any], "str | None"]


@frozen
class DecisionHelp:
    """The `?` help for one kind of decision: our own summary of the rules.

    `title`: a short heading; `rules`: the rule numbers it rests on (as in the
    rulebook and its Rulings R1..R58), comma separated ("6.3, R9"); `text`: 3
    to 10 lines saying what is decided, what the choices mean, and which
    commands answer it.
    """

    title: str
    rules: str
    text: str

    def rule_numbers(self) -> tuple[str, ...]:
        """The cited rule numbers, one by one: ("6.3", "R9")."""
        return tuple(part.strip() for part in self.rules.split(",") if part.strip())


def help_text(*lines: str) -> str:
    return "\n".join(lines)


def always_legal(state: GameState, command: Command) -> str | None:
    """The check of a command that is refused only when it is not listed."""
    return None


@frozen
class Answer:
    """How one command type answers a decision: why it is refused (the reason
    a player reads, worked out only for a refused command), its effect, and the
    fields naming interchangeable pieces. Legality itself is one definition:
    listed by the decision's `legal`, up to those pieces (rules.alike)."""

    check: Check
    apply: Handler
    pieces: tuple[Pieces, ...] = ()


@frozen
class DecisionRules:
    """Everything about one kind of decision. `finishing`: the command type
    that finishes it (ending a move or a phase, passing, allowing), if one
    does; the app gives it on one key (PlayerView.finishing_command)."""

    kind: DecisionKind
    asks: str  # what the deciding side is asked to do, with the rule
    help: DecisionHelp
    legal: Callable[[GameState, Side], list]
    answers: dict[type, Answer]
    finishing: type | None = None

    def __attrs_post_init__(self) -> None:
        if self.finishing is not None and self.finishing not in self.answers:
            raise TypeError(f"{self.kind.value}: {self.finishing.__name__} finishes it but does not answer it")


def in_hand(state: GameState, command: Command) -> tuple[str, ...]:
    """Where the cards a command names must be: its side's hand."""
    return state.cards[command.side].hand
