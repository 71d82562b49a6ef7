"""The seats of a game server's games: the hello that takes one, a seat's
session (its commands and undos), and what its connection is told.

One connection per seat at a time. A seat is taken by the holder of its
token or (a seat bound to a Unix user) by that user over the Unix socket.
A hello for a seat already connected is refused (`sekigahara host`), or,
where the game server allows it (the club, issue 23 item 8: a tab left open
in a browser must not lock its member out over SSH), takes the seat over:
the old connection is told (`taken-over`, TAKEN_OVER) and closed.
`SeatConnections` is a subscriber of the game server: after each change
every seat's connection gets its chair's new state (the submitter's copy
names the message it answers), and a seat hears the other come and go.
"""

from __future__ import annotations

import hmac
from typing import TYPE_CHECKING

from attrs import define

from rules.surface import Side
from sekigahara_tui.hosting.chairs import send_state, steps_held
from sekigahara_tui.hosting.connections import Connection
from sekigahara_tui.hosting.games import Change, HostedGame, SeatAccess
from sekigahara_tui.net.protocol import ELSEWHERE, PROTOCOL_VERSION, GameOver, Hello, Ping, Pong, Presence, Refused, Submit, Undo, Welcome

if TYPE_CHECKING:
    from sekigahara_tui.hosting.game_server import GameServer

TAKEN_OVER = "this seat was taken over by another connection of yours"


def elsewhere(address: str | None) -> Refused:
    """The answer to a hello for a game another host plays (several hosts,
    ownership.py): where it listens, or (none known, or its lease just
    running out) to try again shortly."""
    if address is None:
        return Refused(None, "host-error", "another host of this club plays that game now; try again in a few seconds")
    return Refused(None, "elsewhere", ELSEWHERE + address)


@define(eq=False)
class Seat:
    """The session of a seat's connection: a side of a game."""

    server: GameServer
    game: HostedGame
    side: Side
    forgives_long_lines = True  # a seat's client resends; a skipped line is refused, not fatal

    async def take(self, connection: Connection, message: object) -> bool:
        if isinstance(message, Ping):
            connection.send(Pong())
        elif isinstance(message, Hello):
            connection.send(Refused(None, "bad-message", "hello was already said on this connection"))
        elif isinstance(message, Submit):
            await self.server.submit(connection, self.game, self.side, message)
        elif isinstance(message, Undo):
            await self.server.undo(connection, self.game, self.side, message)
        elif (request := self.server.seat_requests.get(type(message))) is not None:
            await request(connection, self.game, self.side, message)
        else:
            reason = "a seat's connection takes submit, undo, ping and what this host offers seats only"
            self.server.audit("refused", reason, connection, game=self.game.id, seat=self.side.value)
            connection.send(Refused(getattr(message, "id", None), "bad-message", reason))
        return True

    def closed(self, connection: Connection) -> None:
        if self.game.connections.get(self.side) is connection:
            del self.game.connections[self.side]
            self.server.publish_seat_left(self.game, self.side)


class SeatDoor:
    """The game server's door for `hello`: take a seat, or refuse (the
    caller closes the connection)."""

    def __init__(self, server: GameServer) -> None:
        self.server = server

    def hello(self, connection: Connection, message: object) -> bool:
        assert isinstance(message, Hello)

        def refuse(kind: str, reason: str) -> bool:
            connection.send(Refused(None, kind, reason))
            return False

        server = self.server
        if message.protocol != PROTOCOL_VERSION:
            return refuse(
                "protocol", f"this host speaks protocol {PROTOCOL_VERSION}, not {message.protocol}: use the same version of sekigahara"
            )
        game = server.games.find(message.game)
        side = message.seat
        # Several hosts: a game another host plays (store_games.py) is sent there, once the token is good.
        away = game is None and getattr(server.games, "ownership", None) is not None
        # An unknown game is answered exactly as a wrong token is, byte for
        # byte: a stranger cannot tell which game ids exist (issue 23, item 7).
        access = server.games.seat_access(game, side) if game is not None else \
            server.games.seat_access_of(message.game, side) if away else None
        problem = not_authorised(access, side, message.token, connection.peer_uid)
        if problem is not None:
            server.audit("refused", problem, connection, game=message.game, seat=side.value)
            return refuse("not-authorised", problem)
        if game is None:
            connection.send(elsewhere(server.games.owner_address(message.game)))
            return False
        held = game.connections.get(side)
        if held is not None:
            if not server.takeover:
                return refuse(
                    "seat-taken",
                    f"the {side.value} seat is already connected; a dead connection is dropped after {server.reap_after:.0f} s of silence",
                )
            # The same token's holder (in the club, the same member): the newer connection wins.
            held.send(Refused(None, "taken-over", TAKEN_OVER))
            held.close()
            assert access is not None
            server.audit("taken-over", "", connection, member=access.holder, game=game.id, seat=side.value)
        connection.session = Seat(server, game, side)
        connection.synced = steps_held(game, message.seen)
        game.connections[side] = connection
        connection.send(Welcome(PROTOCOL_VERSION, game.id, side))
        send_state(connection, game, side, None, game.host.why_no_undo(side))
        connection.send(Presence(side.other, server.present(game, side.other)))
        if game.host.is_over:
            connection.send(GameOver(game.result_text))
        server.publish_seat_joined(game, side)
        return True


def wrong_token(side: Side) -> str:
    """A wrong token's refusal, which an unknown game's is too."""
    return f"wrong token for the {side.value} seat, or no such game here"


def not_authorised(access: SeatAccess | None, side: Side, token: str, peer_uid: int | None) -> str | None:
    """Why this token (over this connection) may not take the seat; None if it may."""
    if access is None:  # nobody may (an unknown game, a removed member's seat): said as a wrong token is
        return wrong_token(side)
    token_ok = hmac.compare_digest(token.encode("utf-8"), access.token.encode("utf-8"))
    if access.uid is None:
        return None if token_ok else wrong_token(side)
    if peer_uid is None:
        return f"the {side.value} seat is bound to a Unix user: join over the Unix socket"
    if peer_uid != access.uid:
        return f"the {side.value} seat is bound to another Unix user"
    if token and not token_ok:
        return wrong_token(side)
    return None


class SeatConnections:
    """A subscriber of the game server: what the seats' connections are told."""

    def game_changed(self, game: HostedGame, change: Change) -> None:
        over = game.host.is_over
        for side, connection in list(game.connections.items()):
            send_state(connection, game, side, change.reply_to(connection), game.host.why_no_undo(side))
            if over:
                connection.send(GameOver(game.result_text))

    def seat_joined(self, game: HostedGame, side: Side) -> None:
        other = game.connections.get(side.other)
        if other is not None:
            other.send(Presence(side, True))

    def seat_left(self, game: HostedGame, side: Side) -> None:
        other = game.connections.get(side.other)
        if other is not None:
            other.send(Presence(side, False))
