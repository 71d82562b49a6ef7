"""The end of a game on the game screen: the game over screen for the seat
looking (the result, the game's figures, its log) and, where this process
holds the record, what opens its replay."""

from __future__ import annotations

from typing import Awaitable, Callable

from textual.screen import Screen

from sekigahara_tui.screens.info import GameOverScreen
from sekigahara_tui.seat import Seat, Table, game_stats


def game_over_screen(seat: Seat, table: Table) -> GameOverScreen:
    """The game over screen for `seat`, a finished game's (its view is not None)."""
    assert seat.view is not None
    return GameOverScreen(seat.view, game_stats(seat.log), seat.log, replay=replay_maker(table), rematch=rematch_offer(table),
                          analyse=record_source(table))


def record_source(table: Table) -> Callable[[], Awaitable[str]] | None:
    """The finished game's record as JSON, for its analysis (a): the host's
    where this process holds it, else a club seat's or spectator's from the
    club (which gives it once the game is over). None for two terminals."""
    record_json = getattr(table, "record_json", None)  # a LocalTable's
    if record_json is not None:

        async def local() -> str:
            return record_json()

        return local
    club, entry = getattr(table, "club", None), getattr(table, "entry", None)
    if club is None or entry is None:
        return None

    async def from_club() -> str:
        return await club.record(entry.game)

    return from_club


def rematch_offer(table: Table) -> Callable[[], Awaitable[str]] | None:
    """A club game's rematch (m): the same opponent invited to a new game,
    sides swapped; they accept or decline it from the lobby. None elsewhere."""
    club, entry = getattr(table, "club", None), getattr(table, "entry", None)
    if club is None or entry is None or entry.seat is None:
        return None

    async def offer() -> str:
        from sekigahara_tui.club.client import ClubRefused

        try:
            made = await club.rematch(entry.game)
        except ClubRefused as error:
            return f"The club refused: {error}"
        except (OSError, TimeoutError) as error:
            return f"Cannot reach the club: {getattr(error, 'strerror', None) or error}"
        return f"Rematch offered: game {made.game}; your opponent accepts or declines it in the lobby"

    return offer


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
