"""Both clocks of a club game in one short line (issue 24), for the game
screen's status line and the lobby: "Ishida 2d 4h ⏵ · Tokugawa 23h 10m".
A running clock counts down from when the club last told it."""

from __future__ import annotations

import time

from rules.surface import BOTH_SIDES
from sekigahara_tui.club.protocol import ClockLine
from sekigahara_tui.durations import duration
from sekigahara_tui.labels import side_name

RUNNING = "⏵"


def clock_text(clocks: ClockLine | None, told_at: float, now: float | None = None) -> str:
    """'' without a clock; `told_at` and `now` on time.monotonic()'s scale."""
    if clocks is None:
        return ""
    now = time.monotonic() if now is None else now
    parts = []
    for i, side in enumerate(BOTH_SIDES):
        left = clocks.left[i] - (now - told_at if side in clocks.running else 0.0)
        part = f"{side_name(side)} {duration(left)}" + (f" {RUNNING}" if side in clocks.running else "")
        away = clocks.vacation_until[i]
        if away is not None:
            part += " on vacation until " + time.strftime("%b %d %H:%M", time.localtime(away))
        if clocks.stood_in is side:
            part += " (computer)"
        parts.append(part)
    return " · ".join(parts)


def short_clocks(clocks: ClockLine, told_at: float, now: float | None = None, units: int = 2) -> str:
    """Both clocks for a lobby line, Ishida's then Tokugawa's (its columns'
    order): '2d 4h⏵/23h 10m' ('2d⏵/23h' in one unit); 'vac' on vacation,
    'cpu' where the computer stands in."""
    now = time.monotonic() if now is None else now
    parts = []
    for i, side in enumerate(BOTH_SIDES):
        running = side in clocks.running
        left = duration(clocks.left[i] - (now - told_at if running else 0.0))
        part = " ".join(left.split()[:units]) + (RUNNING if running else "")
        if clocks.vacation_until[i] is not None:
            part += " vac"
        if clocks.stood_in is side:
            part += " cpu"
        parts.append(part)
    return "/".join(parts)
