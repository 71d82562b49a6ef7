"""Who is signed in anywhere in the club (issue 24): a member with a lobby
connection or a seat's connection to one of their games. The lobby shows,
on each line of a member's games, whether the opponent is online; and a
decision passing to a member who is online but not looking at that game
rings their terminal (game_notices.py).

A subscriber of the game server (a seat coming or going) and told by the
lobby (a lobby connection signed in or closed): each time, the lobbies of
the member's opponents are pushed (lobby_push.py sends only a lobby whose
lines changed). Worked out when asked, from the connections themselves, so
a missed event cannot leave a member online for ever.
"""

from __future__ import annotations

from typing import Callable, Iterable, Mapping

from rules.surface import Side
from sekigahara_tui.hosting.catalog import Catalog
from sekigahara_tui.hosting.games import Change, HostedGame
from sekigahara_tui.hosting.members import COMPUTER


class Online:
    def __init__(self, catalog: Catalog, loaded: Mapping[str, HostedGame], in_lobby: Mapping[str, object],
                 push: Callable[[str], None]) -> None:
        self.catalog = catalog
        self.loaded = loaded  # the games in memory (store_games.py): only they have connections
        self.in_lobby = in_lobby  # member -> their lobby connections (lobby.py)
        self.push = push  # a member's lobby may have changed: push it if it did

    def members(self) -> frozenset[str]:
        """Everyone signed in now: in a lobby, or seated in a game."""
        seated = set()
        for game in self.loaded.values():
            entry = self.catalog.get(game.id)
            if entry is not None:
                seated.update(entry.players[side] for side in game.connections)
        return frozenset(self.in_lobby) | frozenset(m for m in seated if m is not None)

    def is_online(self, member: str) -> bool:
        return member in self.in_lobby or member in self.members()

    def changed(self, member: str | None) -> None:
        """The member came or went somewhere: their opponents' lobbies may show it."""
        if member is None or member == COMPUTER:
            return
        for other in sorted(set(_opponents(self.catalog.entries.values(), member))):
            self.push(other)

    # --- a subscriber of the game server ----------------------------------------------

    def game_changed(self, game: HostedGame, change: Change) -> None:
        pass

    def seat_joined(self, game: HostedGame, side: Side) -> None:
        entry = self.catalog.get(game.id)
        self.changed(entry.players[side] if entry is not None else None)

    def seat_left(self, game: HostedGame, side: Side) -> None:
        self.seat_joined(game, side)


def _opponents(entries: Iterable, member: str) -> Iterable[str]:
    for entry in entries:
        players = list(entry.players.values())
        if member in players and entry.status == "playing":
            yield from (p for p in players if p not in (None, member, COMPUTER))
