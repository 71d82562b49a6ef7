"""Each side's standing week by week (issue 13): victory points (2.2) and
blocks on the map as they stood at the END of each week (the last week: when
the game ended, R56).

The engine says so itself: a WeekEnded event closes every week (6.4), the
last one with the game, carrying the figures rules.victory computes. It is
public (R55), so every seat's log holds it: a player's, and a spectator's with
or without the count-only twins. Nothing here re-derives 2.2 or follows moves.
"""

from __future__ import annotations

from attrs import frozen

from rules.surface import BOTH_SIDES, Event, Side

# Events by name: rules.surface exports every event class in EVENT_TYPES, but
# names only a few; a missing name fails at import, not silently.
from rules import surface as _surface

WeekEnded = next(cls for cls in _surface.EVENT_TYPES if cls.__name__ == "WeekEnded")


@frozen
class Standing:
    """Per side, one figure per week (index 0 is week 1), at the end of that week."""

    vp: dict[Side, list[int]]
    blocks: dict[Side, list[int]]


def weekly_standing(log: list[Event], last_week: int) -> Standing | None:
    """Each side's VP and blocks on the map at the end of weeks 1 to
    `last_week`, from the log's WeekEnded events; None if the log did not see
    each of those weeks end (a game set up in a later week from a position
    file, docs/positions.md, or one not over yet)."""
    ended = {event.week: event for event in log if isinstance(event, WeekEnded)}
    weeks = [ended.get(week) for week in range(1, max(1, last_week) + 1)]
    if None in weeks:
        return None
    return Standing(
        vp={side: [_of(side, e.ishida_vp, e.tokugawa_vp) for e in weeks] for side in BOTH_SIDES},
        blocks={side: [_of(side, e.ishida_blocks, e.tokugawa_blocks) for e in weeks] for side in BOTH_SIDES},
    )


def _of(side: Side, ishida: int, tokugawa: int) -> int:
    return ishida if side is Side.ISHIDA else tokugawa
