"""Lobby pushes (docs/club.md, lobby_changed): a lobby connection that asked
for the lobby once follows it; when what a member's lobby shows changes, the
member's following connections are sent the new lobby, at most one push per
LOBBY_PUSH_EVERY seconds (a burst of changes, a bot game under load, becomes
one push).

A follower of the catalog (catalog.py): a change of players or status shows
in every lobby (an open game made, joined, finished); whose move it is, in
its players' only; a move that leaves both alone pushes nothing.
"""

from __future__ import annotations

import asyncio
import math
import time
from typing import TYPE_CHECKING, Callable

from sekigahara_tui.club.protocol import Lobby, LobbyChanged, lobby_key
from sekigahara_tui.club.protocol import encode as club_encode
from sekigahara_tui.hosting.catalog import CatalogEntry
from sekigahara_tui.hosting.connections import Connection

if TYPE_CHECKING:
    from sekigahara_tui.hosting.lobby import LobbySession

LOBBY_PUSH_EVERY = 0.25


def send_lobby_message(connection: Connection, message: object) -> None:
    """A message of the club's lobby protocol (club/protocol.py)."""
    if not connection.writer.is_closing():
        connection.writer.write(club_encode(message))


class LobbyPush:
    def __init__(self, lobby_for: Callable[[str], Lobby]) -> None:
        self.lobby_for = lobby_for
        self.followers: dict[str, dict[Connection, LobbySession]] = {}  # member -> their connections following it
        self.seen: dict[str, tuple[tuple, tuple]] = {}  # game id -> what its entry last showed
        self.due: set[str] = set()  # members whose push is scheduled
        self._pushed_at: dict[str, float] = {}  # member -> when last pushed

    def follow(self, connection: Connection, session: LobbySession, lobby: Lobby) -> None:
        """The connection was sent `lobby` (list_games): from now on it follows."""
        session.shown = lobby_key(lobby)
        self.followers.setdefault(session.member, {})[connection] = session

    def unfollow(self, connection: Connection, member: str) -> None:
        followers = self.followers.get(member)
        if followers is not None:
            followers.pop(connection, None)
            if not followers:
                del self.followers[member]

    # --- a follower of the catalog ---------------------------------------------------

    def entry_changed(self, entry: CatalogEntry) -> None:
        """A game's catalog entry changed: the members whose lobby shows the change
        get a push soon."""
        seen = (entry.seen_by_all(), entry.seen_by_players())
        before = self.seen.get(entry.id)
        if before == seen:
            return  # the hot path: a move that leaves whose move it is alone
        self.seen[entry.id] = seen
        if not self.followers:
            return
        if before is None or before[0] != seen[0]:
            due = list(self.followers)
        else:
            due = [player for player in entry.players.values() if player in self.followers]
        for member in due:
            self._push_soon(member)

    def entry_removed(self, game_id: str) -> None:
        """A game left the catalog (withdrawn): it was in every lobby's open list
        or its player's, so every following member gets a push soon."""
        self.seen.pop(game_id, None)
        for member in list(self.followers):
            self._push_soon(member)

    def member_changed(self, member: str) -> None:
        """Something the member's lobby says of them changed (their notices' warning)."""
        self._push_soon(member)

    # --- pushing -----------------------------------------------------------------------

    def _push_soon(self, member: str) -> None:
        if member in self.due or not self.followers.get(member):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (a game changed outside the server's loop): nobody follows then
            return
        self.due.add(member)
        wait = self._pushed_at.get(member, -math.inf) + LOBBY_PUSH_EVERY - time.monotonic()
        loop.call_later(max(0.0, wait), self._push, member)

    def _push(self, member: str) -> None:
        """Send the member's lobby to each of their following connections whose
        last lobby shows something else (and nothing to the others)."""
        self.due.discard(member)
        followers = [(c, session) for c, session in self.followers.get(member, {}).items() if not c.writer.is_closing()]
        if not followers:
            self.followers.pop(member, None)
            return
        self._pushed_at[member] = time.monotonic()
        lobby = self.lobby_for(member)
        key = lobby_key(lobby)
        for connection, session in followers:
            if session.shown != key:
                session.shown = key
                send_lobby_message(connection, LobbyChanged.of(lobby))
