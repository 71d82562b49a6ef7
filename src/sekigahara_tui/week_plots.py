"""The game week by week in small plots (the game over screen, and the
analysis of a finished game, analysis.py): bars drawn with block characters,
one per week, each with its figure. No Textual here: the command line's
`sekigahara analyse` prints them too."""

from __future__ import annotations

from rules import surface
from rules.surface import BOTH_SIDES, CombatEnded, Event, Overrun, PieceLost
from sekigahara_tui.labels import side_name
from sekigahara_tui.standing import weekly_standing

WeekBegan = next(cls for cls in surface.EVENT_TYPES if cls.__name__ == "WeekBegan")
WeekEnded = next(cls for cls in surface.EVENT_TYPES if cls.__name__ == "WeekEnded")


def weekly_figures(log: list[Event], last_week: int) -> dict[str, list[int]]:
    """Per week (1 to `last_week`), from public events: battles and sieges fought,
    and the blocks and discs each side lost (in battle, siege or overrun); and
    each side's VP and blocks on the map at the end of the week ("vp:<side>",
    "map:<side>"; sekigahara_tui.standing), when the log saw every week end."""
    weeks = max(1, last_week)
    figures = {"battles": [0] * weeks, "ishida": [0] * weeks, "tokugawa": [0] * weeks}
    # The week the log begins in: a game begun at a position may begin in week 6.
    # Every week ends with a WeekEnded (the last with the game), so the first names it.
    week = next((min(max(1, e.week), weeks) for e in log if isinstance(e, WeekEnded)), weeks)
    for event in log:
        if isinstance(event, WeekBegan):
            week = min(max(1, event.week), weeks)
        elif isinstance(event, CombatEnded):
            figures["battles"][week - 1] += 1
        elif isinstance(event, PieceLost):
            figures[event.side.value][week - 1] += 1
        elif isinstance(event, Overrun):
            figures[event.side.other.value][week - 1] += len(event.eliminated)
    standing = weekly_standing(log, weeks)
    if standing is not None:
        for side in BOTH_SIDES:
            figures[f"vp:{side.value}"] = standing.vp[side]
            figures[f"map:{side.value}"] = standing.blocks[side]
    return figures


BARS = " ▁▂▃▄▅▆▇█"


def bar_row(values: list[int], top: int, floor: int = 0) -> str:
    """One bar per week (3 cells: a bar and its figure), scaled from `floor` to `top`."""
    cells = []
    for value in values:
        above = value - floor
        level = 0 if above <= 0 else max(1, round(above * (len(BARS) - 1) / max(top - floor, 1)))
        cells.append(f"{BARS[level]}{min(value, 99):<2}")
    return "".join(cells)


def side_rows(figures: dict[str, list[int]], prefix: str, from_zero: bool) -> list[str]:
    """Both sides' rows on one scale; a standing (VP, blocks) is scaled from just
    below its lowest figure, so week-to-week changes show."""
    rows = [figures[prefix + side.value] for side in BOTH_SIDES]
    top = max(max(row) for row in rows)
    floor = 0 if from_zero else min(min(row) for row in rows) - 1
    return [f"{side_name(side):<10}" + bar_row(row, max(top, 1), floor) for side, row in zip(BOTH_SIDES, rows)]


def week_plots(figures: dict[str, list[int]]) -> str:
    """The week-by-week plots: battles, each side's losses on one scale, then,
    when known, each side's VP and blocks on the map at the end of each week."""
    weeks = len(figures["battles"])
    lines = ["By week:", "week      " + "".join(f"{w:<3}" for w in range(1, weeks + 1))]
    lines.append("battles   " + bar_row(figures["battles"], max(figures["battles"] + [1])))
    lines.append("blocks and discs lost:")
    lines += side_rows(figures, "", from_zero=True)
    if "vp:ishida" in figures:
        lines.append("VP at the end of the week (2.2):")
        lines += side_rows(figures, "vp:", from_zero=False)
        lines.append("blocks on the map, end of week:")
        lines += side_rows(figures, "map:", from_zero=False)
    if "chance:ishida" in figures:  # an analysis (analysis.py): each side's chance to win, in percent
        lines.append("chance to win as the week's first half-turn began, % (analysis):")
        lines += side_rows(figures, "chance:", from_zero=True)
    return "\n".join(lines)
