"""The club server's side of ownership.py (several hosts over one
PostgreSQL): the leases' renewing thread reports to the server's loop, where
a lost game is dropped (club_server.lost_game) and a game whose lease a dead
host left to expire is taken eagerly (loaded: its clock runs, its computer
seat plays, its seats' clients are sent here), so a killed host's games go
on within ownership.LEASE + RENEW_EVERY seconds even with nobody connected.
The tournaments' leases (tournament_leases.py) are renewed on the same beat
and reported to the loop likewise: the club's tournaments look at those
this host acts for and take those a dead host left (tournaments.py, `look`).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from sekigahara_tui.hosting.ownership import NOT_OWNER

if TYPE_CHECKING:
    from sekigahara_tui.hosting.club_server import ClubServer


class HostLeases:
    def __init__(self, club: ClubServer) -> None:
        self.club = club
        self.ownership = club.ownership
        assert self.ownership is not None
        self.taken = 0  # games taken over from a dead host (for tests and the benchmark)
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        """On the server's loop: the renewals begin."""
        self._loop = asyncio.get_running_loop()
        self.ownership.on_lost = lambda games: self._on_loop(self._lost, games)
        self.ownership.on_expired = lambda games: self._on_loop(self._expired, games)
        tournaments = self.club.tournaments
        if tournaments.leases is not None:
            tournaments.leases.on_renewed = lambda held, lost, expired: self._on_loop(
                lambda _: tournaments.look(held, expired), [])
        self.ownership.start()

    def stop(self) -> None:
        """A clean stop: the leases given up, for the other hosts to take at once."""
        self.ownership.stop()  # its beat ends first: nothing renews the tournaments' leases then
        if self.club.tournaments.leases is not None:
            self.club.tournaments.leases.stop()

    def _on_loop(self, act, games: list[str]) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(act, games)

    def _lost(self, games: list[str]) -> None:
        for game_id in games:
            self.club.lost_game(game_id, f"{NOT_OWNER}: its lease ran out and another host took it")

    def _expired(self, games: list[str]) -> None:
        for game_id in games:
            if game_id in self.club.games.loaded:
                continue
            try:
                game = self.club.games.find(game_id)  # takes it (epoch + 1), unless another host was first
            except Exception as error:  # noqa: BLE001 - a game that cannot load: the next look tries again
                self.club.audit.record("takeover-failed", str(error)[:200], game=game_id)
                continue
            if game is not None:
                self.taken += 1
                self.club.audit.record("game-taken-over", "its host's lease ran out", game=game_id)
