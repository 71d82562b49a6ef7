"""The end of a game on the game screen: the game over screen for the seat
looking (the result, the game's figures, its log) and, where this process
holds the record, what opens its replay."""

from __future__ import annotations

from typing import Callable

from textual.screen import Screen

from sekigahara_tui.screens.info import GameOverScreen
from sekigahara_tui.seat import Seat, Table, game_stats


def game_over_screen(seat: Seat, table: Table) -> GameOverScreen:
    """The game over screen for `seat`, a finished game's (its view is not None)."""
    assert seat.view is not None
    return GameOverScreen(seat.view, game_stats(seat.log), seat.log, replay=replay_maker(table))


def replay_maker(table: Table) -> Callable[[], Screen] | None:
    """What opens the replay of this game, if this process holds its record
    (hot seat, or against the computer); None for a networked seat."""
    if not getattr(table, "host", None):
        return None
    # Loaded only now: the replay runs the engine over the record.
    from sekigahara_tui.replay_model import ReplayModel
    from sekigahara_tui.screens.replay import ReplayScreen

    def replay() -> ReplayScreen:
        model = ReplayModel.of_table(table)
        assert model is not None
        return ReplayScreen(model)

    return replay
