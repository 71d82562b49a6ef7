"""A game record, step by step, for the replay screen (issue 13).

The replay screen draws frames; this module owns the record and the engine
that replays it (it is one of the GAME_OWNERS of tests/tui/test_client_surface.py).
For each step it hands the screen views (rules.view) and lines of words
(rules.describe), never a GameState.

What a frame shows depends on whether the game is over. A finished game has
no secrets left, so its replay shows both sides: each step's command, each
side's events as that side saw them, and either side's view of the board. A
game still in progress is shown as a spectator sees it (R55): the public view,
and only the events both sides saw.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from attrs import evolve, frozen

from rules.describe import describe, describe_neutral
from rules.events import OpponentEvent
from rules.notation import format_command
from rules.infra.record import GameRecord, load_record, record_from_json
from rules.sides import BOTH_SIDES, Side
from rules.view import PlayerView, spectator_view, view
from sekigahara_tui.hosting.host import GameHost, Step

PUBLIC = frozenset(BOTH_SIDES)


@frozen
class ReplayFrame:
    """One step of the replay, in words and views."""

    index: int  # 0 is the setup
    count: int  # how many steps the game has
    week: int
    heading: str  # "week 2, Ishida's turn, Combat Phase"
    command: str  # what was done: the command's notation, the setup, or who decided (spectator)
    lines: dict[Side | None, tuple[str, ...]]  # None: the public events; a side: what that side alone saw


class ReplayModel:
    """The steps of one game record, frame by frame."""

    def __init__(self, steps: list[Step]) -> None:
        if not steps:
            raise ValueError("a replay needs at least the setup")
        self._steps = steps
        self.over = steps[-1].state.is_over
        self._weeks = [step.state.week for step in steps]

    @classmethod
    def from_record(cls, record: GameRecord) -> ReplayModel:
        """Replay a record (RecordError if it cannot be replayed); a club game
        ended outside the rules ends with its record's end, over and face up."""
        host = GameHost.from_record(record)
        steps = list(host._steps)
        steps[-1] = evolve(steps[-1], state=host.state)
        return cls(steps)

    @classmethod
    def from_json(cls, text: str, source: str) -> ReplayModel:
        """A record sent as text (a club's finished game); RecordError, a ValueError, if it does not load."""
        return cls.from_record(record_from_json(text, source))

    @classmethod
    def from_file(cls, path: Path) -> ReplayModel:
        """A record file (RecordError for a file that is not a record, or cannot be replayed)."""
        return cls.from_record(load_record(path))

    @classmethod
    def of_table(cls, table: object) -> ReplayModel | None:
        """The replay of a game this process holds whole (a hot-seat or versus
        table), None for a networked seat (its record stays on the host)."""
        host = getattr(table, "host", None)
        if not isinstance(host, GameHost):
            return None
        return cls(list(host._steps))

    # --- reading ----------------------------------------------------------------

    @property
    def count(self) -> int:
        return len(self._steps)

    @property
    def chairs(self) -> tuple[Side | None, ...]:
        """Whose view of the board may be shown: the public one (None), and both
        sides' once the game is over."""
        return (None, *BOTH_SIDES) if self.over else (None,)

    @property
    def weeks(self) -> tuple[int, ...]:
        return tuple(sorted(set(self._weeks)))

    def week_start(self, week: int) -> int | None:
        """The first step of `week` (None if the game never reached it)."""
        return next((i for i, w in enumerate(self._weeks) if w == week), None)

    def view(self, index: int, chair: Side | None = None) -> PlayerView:
        """The board after step `index`, as `chair` saw it (None: the public view)."""
        state = self._steps[index].state
        if chair is None or not self.over:
            return spectator_view(state)
        return view(state, chair)

    def frame(self, index: int) -> ReplayFrame:
        step = self._steps[index]
        state = step.state
        player = f"{state.active.value.capitalize()} active" if state.active is not None else ""
        heading = ", ".join(p for p in (f"week {state.week}", f"turn {state.turn.value}", f"{state.phase.value} phase", player) if p)
        if step.command is None:
            command = "the game is set up" if index == 0 else "?"
        elif self.over:
            command = format_command(step.command, with_side=True)
        else:
            command = f"{step.command.side.value.capitalize()} decides (the game is not over: its secrets stay hidden)"
        lines: dict[Side | None, tuple[str, ...]] = {
            None: _lines(describe_neutral(e) for e in step.events if e.visible_to() == PUBLIC),
        }
        if self.over:
            for side in BOTH_SIDES:
                # What `side` alone knew; the other side's redacted twin ("Ishida draws 5 cards") adds nothing here.
                lines[side] = _lines(
                    describe(e, side) for e in step.events
                    if e.visible_to() == frozenset({side}) and not isinstance(e, OpponentEvent)
                )
        return ReplayFrame(index, self.count, state.week, heading, command, lines)



def _lines(texts: Iterable[str]) -> tuple[str, ...]:
    """The log lines, without the events that have none (rules.describe: "")."""
    return tuple(text for text in texts if text)


__all__ = ["ReplayFrame", "ReplayModel"]
