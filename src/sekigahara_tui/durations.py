"""A span of time in two units ("2d 4h", "12m 5s"), for the club's clocks:
shared by the hosting side (notices) and the screens, which may not import
each other (tests/tui/test_client_surface.py)."""

from __future__ import annotations


def duration(seconds: float) -> str:
    """'2d 4h', '5h 30m', '12m 5s', '40s' (two units at most, rounded down); '0s' when out."""
    seconds = max(0, int(seconds))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    units = [(days, "d"), (hours, "h"), (minutes, "m"), (secs, "s")]
    while len(units) > 1 and units[0][0] == 0:
        units.pop(0)
    shown = [f"{n}{unit}" for n, unit in units[:2] if n or unit == units[0][1]]
    return " ".join(shown) or "0s"
