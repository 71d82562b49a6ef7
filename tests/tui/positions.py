"""Game records that stop at an interesting moment, taken from seeded random games."""

from __future__ import annotations

from typing import Callable

from rules.record import GameRecord
from rules.selfplay import random_game
from rules.state import GameState


def record_until(seed: int, wanted: Callable[[GameState], bool]) -> GameRecord:
    """The record of seed's random game up to the first state that is `wanted`."""
    commands: list[str] = []
    stop: list[int] = []

    def on_step(before, command, after, events) -> None:
        commands.append(command)
        if not stop and wanted(after):
            stop.append(len(commands))

    game = random_game(seed, on_step=on_step)
    assert stop, f"seed {seed} never reaches the wanted position"
    return GameRecord(seed, game.record.data_version, game.record.commands[: stop[0]])
