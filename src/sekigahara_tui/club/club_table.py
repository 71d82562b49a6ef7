"""The game screen's table for a club game: one seat, or a spectator's chair."""

from __future__ import annotations

from sekigahara_tui.club.client import ClubClient, ClubSeatClient
from sekigahara_tui.club.protocol import Entry
from sekigahara_tui.labels import side_name
from sekigahara_tui.remote import OneSeatTable, RemoteSeat
from rules.surface import Side


class ClubTable(OneSeatTable):
    """One seat of a club game, or a spectator's chair (no legal commands)."""

    def __init__(self, club: ClubClient, entry: Entry) -> None:
        self.club = club  # the lobby connection: a rematch is asked there (screens/game_over.py)
        self.entry = entry
        seat = RemoteSeat(entry.seat or Side.ISHIDA)
        self.spectating = entry.seat is None
        # A seat may end the game early (screens/ending.py); a spectator may not.
        self.ending: ClubSeatClient | None = None if self.spectating else club.seat_client(entry, seat)
        super().__init__(seat, self.ending or club.watch_client(entry, seat))

    def describe(self) -> str:
        if self.spectating:
            return f"watching game {self.entry.game}"
        return f"{side_name(self.seat.side)} in club game {self.entry.game}"
