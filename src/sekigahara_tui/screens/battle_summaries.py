"""Battle summaries: once a battle or siege is over (losses taken, retreats
made), the seat is told what happened, in words, from its own log (R55): the
Impact and losses, challenges and defections, pieces lost, retreats, cards
drawn. Each seat is told each combat once; an undo tells nothing again."""

from __future__ import annotations

from typing import Iterable

from rules import surface
from rules.describe import describe
from rules.surface import CombatEnded, Event, Side
from sekigahara_tui.labels import place_label, side_name
from sekigahara_tui.screens.info import BattleSummaryScreen, HandOverScreen
from sekigahara_tui.seat import Seat

# What a battle summary tells, in log order (the names of rules.surface.EVENT_TYPES).
SUMMARY_EVENTS = tuple(
    cls for cls in surface.EVENT_TYPES
    if cls.__name__ in {
        "CombatDeclared", "LoyaltyChallenged", "ChallengeRefuted", "BlocksDefected", "CombatEnded",
        "PieceLost", "BlocksRetreated", "OpponentRetreated", "CastleFell", "ControlChanged",
        "CardsDrawn", "OpponentDrewCards",
    }
)
CombatDeclared = next(cls for cls in surface.EVENT_TYPES if cls.__name__ == "CombatDeclared")


def battle_summaries(log: list[Event], start: int, side: Side, battle_on: bool) -> tuple[list[tuple[str, list[str]]], int]:
    """The combats that ended in log[start:] and are over (losses taken, retreats
    made: a later combat has begun, or `battle_on` is false), each as a title and
    lines in words: Impact and losses, challenges and defections, pieces lost,
    retreats, cards drawn. Also the index up to which the log is summarised."""
    declared = [i for i in range(start, len(log)) if isinstance(log[i], CombatDeclared)]
    bounds = declared + [len(log)]
    summaries, done = [], (declared[0] if declared else len(log))
    for begin, end in zip(bounds, bounds[1:]):
        ended = next((e for e in log[begin:end] if isinstance(e, CombatEnded)), None)
        if ended is None:
            continue
        if end == len(log) and battle_on:
            break
        kind = "Siege" if log[begin].siege else "Battle"
        title = f"{kind} at {place_label(ended.location)}"
        if ended.winner is not None:
            title += ": you win" if ended.winner is side else f": {side_name(ended.winner)} wins"
        after = begin + log[begin:end].index(ended)
        stop = next((i for i in range(after, end) if type(log[i]).__name__ in ("PhaseBegan", "WeekBegan")), end)
        lines = [describe(event, side) for event in log[begin:stop] if isinstance(event, SUMMARY_EVENTS)]
        summaries.append((title, lines))
        done = end
    return summaries, done


class BattleSummaries:
    """Per seat, how far its log has been told: log generation, events summarised."""

    def __init__(self) -> None:
        self._summarised: dict[Side, tuple[int, int]] = {}

    def start(self, seats: Iterable[Seat]) -> None:
        """Battles fought before the screen opened are not summarised again; a
        battle under way is, from its declaration, once it is over."""
        for seat in seats:
            log, view = seat.log, seat.view
            start = len(log)
            if view is not None and view.combat is not None and view.combat.battle is not None:
                start = next((i for i in range(len(log) - 1, -1, -1) if isinstance(log[i], CombatDeclared)), start)
            self._summarised[seat.side] = (seat.log_generation, start)

    def next_for(self, seat: Seat, after: HandOverScreen | None = None) -> BattleSummaryScreen | None:
        """The summary of the battles and sieges over since the seat's last
        summary (None if none), told from its own log; marked as told. `after`:
        the hand-over it lies under."""
        view = seat.view
        if view is None:
            return None
        generation, start = self._summarised.get(seat.side, (seat.log_generation, len(seat.log)))
        if generation != seat.log_generation or start > len(seat.log):
            start = len(seat.log)  # an undo or a fresh log: nothing new to tell
        battle_on = view.combat is not None and view.combat.battle is not None
        summaries, done = battle_summaries(seat.log, start, seat.side, battle_on)
        self._summarised[seat.side] = (seat.log_generation, done)
        if not summaries:
            return None
        title = summaries[0][0] if len(summaries) == 1 else f"{len(summaries)} combats"
        lines = [line for _, body in summaries for line in body]
        return BattleSummaryScreen(title, lines, after)
