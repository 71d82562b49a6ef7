"""Shared fixtures."""

from __future__ import annotations

import pytest

from helpers import fresh_game
from rules.state import GameState


@pytest.fixture
def started() -> GameState:
    """A fresh game (seed 1) after setup, waiting for week 1's bid."""
    return fresh_game(1)
