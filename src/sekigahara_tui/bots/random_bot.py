"""Level 0: a uniformly random choice among the legal commands, seeded."""

from __future__ import annotations

import random
from typing import Sequence

from rules.surface import Command, Event, PlayerView, Side


class RandomBot:
    def __init__(self, side: Side, seed: int) -> None:
        self.side = side
        self.chooser = random.Random(f"random-bot/{side.value}/{seed}")

    def observe(self, events: Sequence[Event]) -> None:
        pass

    def choose(self, view: PlayerView, budget_s: float) -> Command:
        return self.chooser.choice(view.legal)
