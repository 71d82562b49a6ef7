"""Fixtures for driving the real app with Textual's Pilot."""

from __future__ import annotations

import pytest

from rules.infra.record import save_record
from sekigahara_tui.app import SekigaharaApp
from sekigahara_tui.screens import info


@pytest.fixture(autouse=True)
def hand_overs_take_an_enter_at_once(monkeypatch):
    """A test presses the hand-over's Enter the moment it shows: the guard against
    the leaving player's double tap (HandOverScreen.APPEAR_SETTLE_S) is off, but in
    the tests of that guard, which set it back and move the settle clock."""
    monkeypatch.setattr(info.HandOverScreen, "APPEAR_SETTLE_S", 0.0)


@pytest.fixture
def make_app(tmp_path):
    """An app whose saves and autosave go to a temporary folder, never the user's."""

    def make(record=None, **kwargs) -> SekigaharaApp:
        """record=: the app opens that game record, saved as a file first, as a player's --load."""
        if record is not None:
            kwargs["load"] = tmp_path / "position.json"
            save_record(record, kwargs["load"])
        return SekigaharaApp(save_dir=tmp_path / "data", **kwargs)

    return make


class SettleClock:
    """The settle guards' clock (info.settle_clock), moved only by the test: an
    Enter is typed within SETTLE_S or after it because the test says so, not
    because a loaded machine was quick or slow."""

    def __init__(self) -> None:
        self.now = 0.0  # SETTLE_S after it is exactly SETTLE_S (1000.0 + 0.3 - 1000.0 is not)

    def __call__(self) -> float:
        return self.now

    def wait(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def settle_clock(monkeypatch) -> SettleClock:
    clock = SettleClock()
    monkeypatch.setattr(info, "settle_clock", clock)
    return clock
