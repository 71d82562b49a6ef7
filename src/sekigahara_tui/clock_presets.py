"""The club's clock presets (issue 24), shared by the hosting side
(hosting/clocks.py keeps the clocks) and the screens (the lobby's `n` form
offers them), which may not import each other (tests/tui/test_client_surface.py)."""

from __future__ import annotations

from attrs import frozen

from sekigahara_tui.durations import duration  # a clock in words, shared with the screens

HOUR = 3600.0
MINUTE = 60.0


@frozen
class ClockPreset:
    name: str
    initial_s: float
    increment_s: float
    cap_s: float
    correspondence: bool  # played over days: a member's vacation stops it

    def describe(self) -> str:
        return f"{self.name}: {duration(self.initial_s)} + {duration(self.increment_s)} a move, at most {duration(self.cap_s)}"


# Rally the Troops' presets (its "Live" is a day's clock; ours is one sitting).
PRESETS: dict[str, ClockPreset] = {
    preset.name: preset
    for preset in (
        ClockPreset("live", 45 * MINUTE, 30.0, 60 * MINUTE, correspondence=False),
        ClockPreset("daily", 24 * HOUR, 4 * HOUR, 72 * HOUR, correspondence=True),
        ClockPreset("fast", 72 * HOUR, 12 * HOUR, 120 * HOUR, correspondence=True),
        ClockPreset("slow", 72 * HOUR, 36 * HOUR, 240 * HOUR, correspondence=True),
    )
}
NO_CLOCK = "none"
PRESET_NAMES = (NO_CLOCK, *PRESETS)
