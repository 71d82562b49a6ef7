"""Movement summaries (issue 27, item 9): after the other player's Movement
Phase, played by the computer or at another terminal while this seat watched,
the seat is told what happened, in words, from its own log (R55): the option
taken, stacks moved (counts, origins and destinations: hidden blocks stay
hidden), musters, Mori entries and overruns, control changed; and where both
sides now stand, so where combat may follow (8.1). Each seat is told each
phase once; an undo tells nothing again. Hot seat needs none: its hand-over
screen stands between the two players' turns."""

from __future__ import annotations

from typing import Iterable

from rules import surface
from rules.describe import describe
from rules.surface import Event, PlayerView, Side
from sekigahara_tui.labels import place_label, side_name
from sekigahara_tui.screens.info import BattleSummaryScreen
from sekigahara_tui.seat import Seat

_BY_NAME = {cls.__name__: cls for cls in surface.EVENT_TYPES}
MovementChosen = _BY_NAME["MovementChosen"]
MovementEnded = _BY_NAME["MovementEnded"]


def contested(view: PlayerView) -> list[str]:
    """Locations where both sides now stand (public, R55): where combat may follow (8.1)."""
    own = {place for _, place in view.own_blocks}
    return sorted(place for place, count in view.enemy_counts if count and place in own)


def movement_summaries(log: list[Event], start: int, side: Side) -> tuple[list[tuple[str, list[str]]], int]:
    """The other side's Movement Phases that ended in log[start:], each as a
    title and lines in words; and the index up to which the log is summarised
    (an unfinished phase is left for later)."""
    summaries, begin = [], None
    for i in range(start, len(log)):
        event = log[i]
        if isinstance(event, MovementChosen) and event.side is not side:
            begin = i
        elif isinstance(event, MovementEnded) and event.side is not side and begin is not None:
            title = f"{side_name(event.side)}'s movement"
            summaries.append((title, [text for e in log[begin:i + 1] if (text := describe(e, side))]))
            begin = None
    return summaries, (len(log) if begin is None else begin)  # a phase under way: read again later


class MovementSummaries:
    """Per seat, how far its log has been told: log generation, events summarised."""

    def __init__(self) -> None:
        self._summarised: dict[Side, tuple[int, int]] = {}

    def start(self, seats: Iterable[Seat]) -> None:
        """Phases played before the screen opened are not told again."""
        for seat in seats:
            self._summarised[seat.side] = (seat.log_generation, len(seat.log))

    def next_for(self, seat: Seat) -> BattleSummaryScreen | None:
        view = seat.view
        if view is None:
            return None
        generation, start = self._summarised.get(seat.side, (seat.log_generation, len(seat.log)))
        if generation != seat.log_generation or start > len(seat.log):
            start = len(seat.log)  # an undo or a fresh log: nothing new to tell
        summaries, done = movement_summaries(seat.log, start, seat.side)
        self._summarised[seat.side] = (seat.log_generation, done)
        if not summaries:
            return None
        title = summaries[-1][0] if len(summaries) == 1 else f"{len(summaries)} Movement Phases"
        lines = [line for _, body in summaries for line in body]
        places = contested(view)
        lines.append("Both sides now stand at " + ", ".join(place_label(p) for p in places) + ": combat may follow (8.1)."
                     if places else "No location holds both sides' blocks.")
        return BattleSummaryScreen(title, lines)
