"""Game clocks for club games (issue 24): time to decide, with an increment
at every hand-over and a cap, as Rally the Troops keeps them.

A side's clock runs only while that side must decide (both run while both
decide, as in the bidding, 6.3). Each time the decision passes to a side
from the other one, that side gains the preset's increment, up to the cap;
the steps of one side's own turn (a stack move's steps) gain nothing. Time
is charged from an interval's start to its end less the intervals excluded
for that side: the server's down time (nobody is charged for it) and the
member's vacation (correspondence presets only). Everything here is pure:
the time is passed in, so tests use any clock and a restart recomputes the
same figures from what the store kept.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from attrs import evolve, frozen

from rules.surface import Side
from sekigahara_tui.clock_presets import HOUR, MINUTE, NO_CLOCK, PRESET_NAMES, PRESETS, ClockPreset  # noqa: F401 - shared with the screens
from sekigahara_tui.durations import duration  # noqa: F401 - a clock in words

Interval = tuple[float, float]  # [start, end) in seconds since the epoch


def preset_named(name: str) -> ClockPreset | None:
    """The preset of that name; None for "none"; ValueError, in one line, for another name."""
    if name == NO_CLOCK:
        return None
    try:
        return PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown clock {name!r}: expected one of {', '.join(PRESET_NAMES)}") from None


def overlap(a: Interval, b: Interval) -> float:
    return max(0.0, min(a[1], b[1]) - max(a[0], b[0]))


def charged(start: float, end: float, excluded: Iterable[Interval]) -> float:
    """The seconds of [start, end) not in any excluded interval (which may overlap each other)."""
    if end <= start:
        return 0.0
    cut = sorted((max(a, start), min(b, end)) for a, b in excluded if b > start and a < end)
    total, reached = 0.0, start
    for a, b in cut:
        if a > reached:
            total += a - reached
        reached = max(reached, b)
    return total + max(0.0, end - reached)


@frozen
class Clocks:
    """Both sides' time left as of `since`, and which sides were deciding then."""

    preset: ClockPreset
    left_s: tuple[float, float]  # Ishida's, Tokugawa's, as of `since`
    running: frozenset[Side]
    since: float

    @classmethod
    def start(cls, preset: ClockPreset, now: float) -> Clocks:
        return cls(preset, (preset.initial_s, preset.initial_s), frozenset(), now)

    def left(self, side: Side, now: float, excluded: Mapping[Side, Iterable[Interval]] | None = None) -> float:
        """Seconds left to `side` at `now` (negative once out of time)."""
        base = self.left_s[_index(side)]
        if side not in self.running:
            return base
        return base - charged(self.since, now, (excluded or {}).get(side, ()))

    def at(self, now: float, excluded: Mapping[Side, Iterable[Interval]] | None = None) -> Clocks:
        """The same clocks with the time to `now` charged."""
        left = tuple(self.left(side, now, excluded) for side in (Side.ISHIDA, Side.TOKUGAWA))
        return evolve(self, left_s=left, since=now)

    def decision(self, sides: Iterable[Side], now: float, excluded: Mapping[Side, Iterable[Interval]] | None = None) -> Clocks:
        """The decision is now `sides`'s: charge to `now`, then each side it
        passed to from the other side gains the increment, up to the cap."""
        sides = frozenset(sides)
        clocks = self.at(now, excluded)
        left = list(clocks.left_s)
        for side in sides - self.running:
            if self.running - {side}:  # passed from the other side (not the game's first decision)
                i = _index(side)
                left[i] = min(self.preset.cap_s, left[i] + self.preset.increment_s)
        return evolve(clocks, left_s=(left[0], left[1]), running=sides)

    def out_of_time(self, now: float, excluded: Mapping[Side, Iterable[Interval]] | None = None) -> Side | None:
        """The deciding side whose time ran out (the one with less left if both)."""
        out = [(self.left(side, now, excluded), side.value, side) for side in self.running]
        out = [entry for entry in out if entry[0] <= 0]
        return min(out)[2] if out else None

    def runs_out_at(self, side: Side) -> float | None:
        """When `side` runs out if nothing is excluded from now on (None: not running)."""
        return self.since + self.left_s[_index(side)] if side in self.running else None


def _index(side: Side) -> int:
    return 0 if side is Side.ISHIDA else 1
