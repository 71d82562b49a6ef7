"""The club's games source: a game of the catalog is loaded from the store
the first time something needs it (a seat's hello, a spectator, a lobby that
must know whose move it is), and every use is stamped, so the idle ones can
be evicted (eviction.py). Who may take a seat is decided at each hello: the
holder of the token of the seat's player now (tokens.py: bound to the
member's generation, so a removed member's token takes nothing).

A subscriber of the game server: a change, or a seat leaving, is a use.
"""

from __future__ import annotations

import time
from typing import Callable, Sequence

from rules.surface import Side
from sekigahara_tui.hosting.catalog import Catalog
from sekigahara_tui.hosting.games import Change, HostedGame, SeatAccess, load_hosted_game
from sekigahara_tui.hosting.store import Store
from sekigahara_tui.hosting.tokens import SeatTokens


class StoreGames:
    def __init__(
        self,
        store: Store,
        catalog: Catalog,
        tokens: SeatTokens,
        on_load: Sequence[Callable[[HostedGame], None]] = (),
    ) -> None:
        self.store = store
        self.catalog = catalog
        self.tokens = tokens
        self.on_load = tuple(on_load)  # told of each game loaded (its catalog entry, the computer seat)
        self.loaded: dict[str, HostedGame] = {}
        self.last_used: dict[str, float] = {}
        self.loads = 0  # games loaded from the store (first use or after eviction)

    def find(self, game_id: str) -> HostedGame | None:
        """The game, loaded now if it is in the catalog and not in memory
        (StoreError, RecordError); its use stamped."""
        game = self.loaded.get(game_id)
        if game is None and game_id in self.catalog:
            game = self.loaded[game_id] = load_hosted_game(self.store, game_id, {})  # seats: seat_access
            self.loads += 1
            for listener in self.on_load:
                listener(game)
        if game is not None:
            self.last_used[game_id] = time.monotonic()
        return game

    def seat_access(self, game: HostedGame, side: Side) -> SeatAccess | None:
        """The token of the seat's player as things stand (a join, a removal); None: nobody's."""
        entry = self.catalog.get(game.id)
        player = entry.players[side] if entry is not None else None
        token = self.tokens.seat(game.id, side, player)
        return SeatAccess(token, holder=player) if token is not None else None

    def used(self, game: HostedGame) -> None:
        """Stamp a use of the game, if it is still the one in memory (not a withdrawn game's)."""
        if self.loaded.get(game.id) is game:
            self.last_used[game.id] = time.monotonic()

    def drop(self, game_id: str) -> HostedGame | None:
        """Out of memory (evicted, or gone from the store); the game it was, if loaded."""
        self.last_used.pop(game_id, None)
        return self.loaded.pop(game_id, None)

    # --- a subscriber of the game server ----------------------------------------------

    def game_changed(self, game: HostedGame, change: Change) -> None:
        self.last_used[game.id] = time.monotonic()

    def seat_joined(self, game: HostedGame, side: Side) -> None:
        pass  # its hello found the game: that was the use

    def seat_left(self, game: HostedGame, side: Side) -> None:
        self.used(game)
