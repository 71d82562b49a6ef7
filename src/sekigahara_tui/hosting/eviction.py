"""Eviction: the club drops from memory the games nobody has used for
`evict_after` seconds (no seat, no spectator connected, the computer not
deciding, no change being stored); the store keeps them, and the next use
loads them again (store_games.py).
"""

from __future__ import annotations

import asyncio
import time
from typing import Callable, Sequence

from sekigahara_tui.hosting.store_games import StoreGames

DEFAULT_EVICT_AFTER = 5 * 60.0


class Eviction:
    def __init__(
        self,
        games: StoreGames,
        *,
        busy: Sequence[Callable[[str], bool]] = (),
        on_evict: Sequence[Callable[[str], object]] = (),
        evict_after: float = DEFAULT_EVICT_AFTER,
        keeps_lease: Callable[[str], bool] = lambda game_id: False,
    ) -> None:
        self.games = games
        self.busy = tuple(busy)  # whether a game is in use besides its seats (spectators, the computer)
        self.on_evict = tuple(on_evict)  # told of each game evicted: what they keep of it goes too
        self.evict_after = evict_after
        self.keeps_lease = keeps_lease  # several hosts: an evicted game whose clock runs stays this host's
        self.evictions = 0
        self._loop: asyncio.Task | None = None

    def evict_idle(self, now: float | None = None) -> list[str]:
        """Evict the games idle for `evict_after` seconds; their ids."""
        now = time.monotonic() if now is None else now
        gone = []
        for game_id, game in list(self.games.loaded.items()):
            if game.connections or game.changing.locked() or any(busy(game_id) for busy in self.busy):
                continue
            if now - self.games.last_used.get(game_id, 0.0) >= self.evict_after:
                self.games.drop(game_id, keep_lease=self.keeps_lease(game_id))
                for listener in self.on_evict:
                    listener(game_id)
                gone.append(game_id)
        self.evictions += len(gone)
        return gone

    def start(self) -> None:
        if self._loop is None:
            self._loop = asyncio.get_running_loop().create_task(self._evict_now_and_then())

    def stop(self) -> None:
        if self._loop is not None:
            self._loop.cancel()

    async def _evict_now_and_then(self) -> None:
        tick = max(0.05, min(30.0, self.evict_after / 4))
        while True:
            await asyncio.sleep(tick)
            self.evict_idle()
