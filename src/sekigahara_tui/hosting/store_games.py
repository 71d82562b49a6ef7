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
from sekigahara_tui.hosting.catalog import Catalog, CatalogEntry
from sekigahara_tui.hosting.database import Error as DatabaseError
from sekigahara_tui.hosting.games import Change, HostedGame, SeatAccess, load_hosted_game
from sekigahara_tui.hosting.ownership import Ownership
from sekigahara_tui.hosting.store import Store, StoreError
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
        self.ownership: Ownership | None = None  # several hosts: this host's leases (ownership.py)

    def find(self, game_id: str) -> HostedGame | None:
        """The game, loaded now if it is in the catalog and not in memory
        (StoreError, RecordError); its use stamped. Several hosts: loaded
        only if this host owns it, or takes it now (None: another host does)."""
        game = self.loaded.get(game_id)
        if game is None and self.ownership is not None and not self._claim(game_id):
            return None
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
        return self.seat_access_of(game.id, side)

    def seat_access_of(self, game_id: str, side: Side) -> SeatAccess | None:
        """seat_access for a game not in memory (several hosts: one played elsewhere)."""
        entry = self.catalog.get(game_id)
        player = entry.players[side] if entry is not None else None
        token = self.tokens.seat(game_id, side, player)
        return SeatAccess(token, holder=player) if token is not None else None

    def used(self, game: HostedGame) -> None:
        """Stamp a use of the game, if it is still the one in memory (not a withdrawn game's)."""
        if self.loaded.get(game.id) is game:
            self.last_used[game.id] = time.monotonic()

    def drop(self, game_id: str, keep_lease: bool = False) -> HostedGame | None:
        """Out of memory (evicted, or gone from the store); the game it was, if
        loaded. Several hosts: its lease given up, for the next host that needs
        it; or kept (`keep_lease`: an evicted game whose clock runs), so that
        if this host dies the lease expires and another host runs the clock."""
        self.last_used.pop(game_id, None)
        if self.ownership is not None and not keep_lease:
            self.ownership.release(game_id)
        return self.loaded.pop(game_id, None)

    # --- several hosts (ownership.py) -----------------------------------------------

    def _claim(self, game_id: str) -> bool:
        """Own a game of the store (not a stranger's made-up id: no lease for it),
        its catalog entry read again: another host may have changed it."""
        assert self.ownership is not None
        try:
            found = self.store.summaries(game_id)
            if not found:
                return False
            self._read_entry(CatalogEntry.of(found[0]))  # its players now, wherever it is played
            return self.ownership.acquire(game_id)
        except (StoreError, DatabaseError):
            return False

    def _read_entry(self, fresh: CatalogEntry) -> None:
        entry = self.catalog.get(fresh.id)
        if entry is None:
            self.catalog.add(fresh)
        elif (entry.players, entry.status, entry.version) != (fresh.players, fresh.status, fresh.version):
            entry.players, entry.status, entry.result = fresh.players, fresh.status, fresh.result
            entry.version, entry.updated, entry.terms, entry.to_move = fresh.version, fresh.updated, fresh.terms, fresh.to_move
            self.catalog.changed(entry)

    def owner_address(self, game_id: str) -> str | None:
        """Where another host that owns the game listens (None: no other host, or none known)."""
        if self.ownership is None or game_id in self.loaded:
            return None
        try:
            return self.ownership.owner_address(game_id)
        except DatabaseError:
            return None

    # --- a subscriber of the game server ----------------------------------------------

    def game_changed(self, game: HostedGame, change: Change) -> None:
        self.last_used[game.id] = time.monotonic()

    def seat_joined(self, game: HostedGame, side: Side) -> None:
        pass  # its hello found the game: that was the use

    def seat_left(self, game: HostedGame, side: Side) -> None:
        self.used(game)
