"""Spectators: a connection that opens with `watch_game` and a game's
spectator token sits in the spectators' chair of that game, and is sent,
after each change, the public view and the events a spectator may see.

What a spectator may see is the engine's to decide (R55):
rules.view.spectator_view and events_for(None, ...), whose twins and
NOT_FOR_SPECTATORS are rules.events'. The club forwards. The door for
`watch_game` and a subscriber of the game server, both here.

A spectator's token is its member's (tokens.py): a removed member's is
refused, and their spectators' connections are closed (`revoke`).
"""

from __future__ import annotations

from collections.abc import Iterable

from attrs import define

from rules.surface import Event, Side
from rules.view import events_for
from sekigahara_tui.club.protocol import WatchGame
from sekigahara_tui.hosting.audit import AuditLog, NoAuditLog
from sekigahara_tui.hosting.catalog import Catalog
from sekigahara_tui.hosting.chairs import send_state, steps_held
from sekigahara_tui.hosting.connections import Connection
from sekigahara_tui.hosting.seats import elsewhere
from sekigahara_tui.hosting.games import Change, HostedGame
from sekigahara_tui.hosting.store_games import StoreGames
from sekigahara_tui.hosting.tokens import SeatTokens
from sekigahara_tui.net.protocol import PROTOCOL_VERSION, GameOver, Ping, Pong, Refused, Welcome

SPECTATOR_UNDO = "a spectator does not play"
# A spectator's submit or undo is refused as a message its connection does not
# take (bad-message, as the lobby's): a refusal the client lives through, so
# the spectator stays connected and is sent the next state. Not-authorised
# would stop the client for good (net/client.py, FATAL_KINDS).
SPECTATOR_REFUSAL = "you are watching: a spectator cannot play, undo, resign or cancel"


def public_events(step: Iterable[Event]) -> tuple[Event, ...]:
    """The events of a step a spectator may see (rules.view.events_for)."""
    return events_for(None, step)


@define(eq=False)
class Spectating:
    """The session of a spectator's connection."""

    spectators: Spectators
    game: HostedGame
    member: str
    forgives_long_lines = False

    async def take(self, connection: Connection, message: object) -> bool:
        if isinstance(message, Ping):
            connection.send(Pong())
        else:
            self.spectators.audit.record("refused", SPECTATOR_REFUSAL, game=self.game.id, member=self.member, address=connection.address)
            connection.send(Refused(getattr(message, "id", None), "bad-message", SPECTATOR_REFUSAL))
        return True

    def closed(self, connection: Connection) -> None:
        self.spectators.left(connection, self.game)


class Spectators:
    def __init__(self, catalog: Catalog, games: StoreGames, tokens: SeatTokens, audit: AuditLog | NoAuditLog) -> None:
        self.catalog = catalog
        self.games = games
        self.tokens = tokens
        self.audit = audit
        self.watchers: dict[str, set[Connection]] = {}  # game id -> its spectators' connections

    def watch_game(self, connection: Connection, message: object) -> bool:
        """The door for `watch_game`: sit in the game's spectators' chair, or
        refuse (the caller closes the connection)."""
        assert isinstance(message, WatchGame)
        if message.protocol != PROTOCOL_VERSION:
            connection.send(Refused(None, "protocol", f"this club speaks protocol {PROTOCOL_VERSION}, not {message.protocol}"))
            return False
        if self.games.ownership is not None:
            self.games.find(message.game)  # several hosts: taken here unless another plays it, its entry read again
        # An unknown game is answered exactly as a wrong token is (issue 23, item 7).
        member = self.tokens.watcher(message.game, message.token) if message.game in self.catalog else None
        if member is None:
            reason = "wrong spectator's token for that game"
            self.audit.record("refused", reason, game=message.game, address=connection.address)
            connection.send(Refused(None, "not-authorised", reason))
            return False
        game = self.games.find(message.game)
        if game is None:  # several hosts: another one plays it now
            connection.send(elsewhere(self.games.owner_address(message.game)))
            return False
        connection.session = Spectating(self, game, member)
        connection.synced = steps_held(game, message.seen)
        self.watchers.setdefault(game.id, set()).add(connection)
        # Ishida's seat in the welcome: the client keeps one view, and a spectator's is the public one.
        connection.send(Welcome(PROTOCOL_VERSION, game.id, Side.ISHIDA))
        send_state(connection, game, None, None, SPECTATOR_UNDO)
        if game.host.is_over:
            connection.send(GameOver(game.result_text))
        return True

    def watching(self, game_id: str) -> bool:
        """Whether anyone watches the game (it is not evicted then)."""
        return bool(self.watchers.get(game_id))

    def left(self, connection: Connection, game: HostedGame) -> None:
        self.watchers.get(game.id, set()).discard(connection)
        self.games.used(game)

    def revoke(self, member: str, reason: str) -> int:
        """Close the member's spectators' connections, telling them why; how many."""
        closed = 0
        for watchers in self.watchers.values():
            for connection in list(watchers):
                session = connection.session
                if isinstance(session, Spectating) and session.member == member:
                    connection.send(Refused(None, "not-authorised", reason))
                    connection.close()
                    closed += 1
        return closed

    def game_gone(self, game_id: str) -> list[Connection]:
        """The game left memory (evicted, withdrawn): its spectators' connections, forgotten here."""
        return list(self.watchers.pop(game_id, ()))

    # --- a subscriber of the game server ----------------------------------------------

    def game_changed(self, game: HostedGame, change: Change) -> None:
        for watcher in list(self.watchers.get(game.id, ())):
            send_state(watcher, game, None, None, SPECTATOR_UNDO)
            if game.host.is_over:
                watcher.send(GameOver(game.result_text))

    def seat_joined(self, game: HostedGame, side: Side) -> None:
        pass  # a spectator is not told who is connected

    def seat_left(self, game: HostedGame, side: Side) -> None:
        pass
