"""The game server: one asyncio server holding games, each played by two seats.

For every command: parse it for the seat's side, check it is legal, work out
the step, commit it (its `Commits`: the store), and only then change the game
in memory and tell its subscribers, in the order it was given them: the
store, the seats' connections (seats.py: each its own new state, R55; the
submitter's copy names the message it answers), and whatever the composer
added (the club: the catalog, spectators, the computer seat). A failed commit
changes nothing. Stale versions are refused; a message id already applied is
answered with the current state and not applied again (docs/protocol.md).

It knows nothing of the club. It is given, at construction: where its games
come from (games.py), how a commit is made (store_commits.py), who else is
present in a seat (the club's computer), its subscribers, the doors a
connection's first message may open besides a seat's hello (connections.py:
one table), how a line is decoded, whether a hello takes over a connected
seat (seats.py), and the audit log its refusals go to (the club's).

Clients ping; a connection silent for `reap_after` seconds is dropped (so a
half-open one frees its seat). The server is done when every game is over and
nobody has been connected for `grace` seconds, or nobody has been connected
for `idle_timeout` seconds.
"""

from __future__ import annotations

import asyncio
import socket
import ssl
import struct
import time
from pathlib import Path
from typing import Awaitable, Callable, Mapping, Sequence

from rules import places
from rules.errors import IllegalCommand
from rules.notation import NotationError, format_command
from rules.surface import Side, printable
from sekigahara_tui.hosting.audit import AuditLog, NoAuditLog
from sekigahara_tui.hosting.chairs import listed, send_state
from sekigahara_tui.hosting.connections import Connection, Door, Doors
from sekigahara_tui.hosting.games import Change, Games, GamesInMemory, HostedGame, Subscriber
from sekigahara_tui.hosting.seats import SeatConnections, SeatDoor
from sekigahara_tui.hosting.store import Action, Store
from sekigahara_tui.hosting.store_commits import Commits, NotStored, StoreCommits
from sekigahara_tui.hosting.tls_door import listen_tls
from sekigahara_tui.net.protocol import (
    MAX_CLIENT_LINE,
    MESSAGE_TYPES,
    BadMessage,
    Hello,
    LineTooLong,
    Refused,
    Submit,
    Undo,
    decode_client_message,
    read_line,
)

# Clients ping every PING_INTERVAL seconds (client.py); three missed pings and
# the connection is taken for dead.
REAP_AFTER = 45.0
DEFAULT_GRACE = 10.0
DEFAULT_IDLE_TIMEOUT = 2 * 60 * 60.0


# A seat's request the composer handles: (connection, game, side, message).
SeatRequest = Callable[[Connection, HostedGame, Side, object], Awaitable[None]]


def nobody_else(game: HostedGame, side: Side) -> bool:
    """Nobody sits in a seat but its connection."""
    return False


class GameServer:
    def __init__(
        self,
        games: Games,
        commits: Commits,
        subscribers: Sequence[Subscriber],
        *,
        doors: Sequence[Door] = (),
        decode: Callable[[bytes], object] = decode_client_message,
        seat_requests: Mapping[type, SeatRequest] | None = None,
        seated: Callable[[HostedGame, Side], bool] = nobody_else,
        idle_timeout: float = DEFAULT_IDLE_TIMEOUT,
        grace: float = DEFAULT_GRACE,
        reap_after: float = REAP_AFTER,
        takeover: bool = False,
        audit: AuditLog | NoAuditLog = NoAuditLog(),
    ) -> None:
        # A server of many games holds their place indexes (issue 23; one game's process holds fewer, issue 25).
        places.hold_indexes(places.CLUB_INDEXES)
        self.games = games
        self.commits = commits
        self.subscribers = tuple(subscribers)
        # One table for the first message of every connection: a seat's hello, and the doors given.
        self.doors = Doors([Door(Hello, MESSAGE_TYPES[Hello], SeatDoor(self).hello), *doors])
        self.decode = decode
        # What a seat may ask besides submit and undo, by message type (the club's resign, cancel: results.py).
        self.seat_requests: Mapping[type, SeatRequest] = seat_requests or {}
        self.seated = seated  # who sits in a seat without a connection (the club's computer)
        self.idle_timeout = idle_timeout
        self.grace = grace
        self.reap_after = reap_after
        self.takeover = takeover  # a hello for a connected seat takes it over (seats.py), rather than being refused
        self.audit_log = audit
        self.done = asyncio.Event()
        self._servers: list[asyncio.base_events.Server] = []
        self._connections: set[Connection] = set()
        self._handlers: set[asyncio.Task] = set()
        self._quiet_since = time.monotonic()  # when the last connection went (or the start)
        self._watcher: asyncio.Task | None = None
        self.looked_at = float("-inf")  # when the watcher last looked (for a test that waits for a look)

    @classmethod
    def of_store(cls, store: Store, also_told: Sequence[Subscriber] = (), **options) -> GameServer:
        """The server of `sekigahara host`: games added by hand (`games.add`),
        committed to `store`, and nobody but the store, their seats and
        `also_told` told."""
        commits = StoreCommits(store)
        return cls(GamesInMemory(store), commits, [commits, SeatConnections(), *also_told], **options)

    def audit(self, event: str, reason: str, connection: Connection, **fields: object) -> None:
        """One line in the audit log (the club's; `sekigahara host` keeps none)."""
        self.audit_log.record(event, reason, **fields, address=connection.address)

    def present(self, game: HostedGame, side: Side) -> bool:
        """Whether `side`'s seat is taken: by a connection, or by whom `seated` says."""
        return side in game.connections or self.seated(game, side)

    # --- listening -----------------------------------------------------------------

    async def listen_unix(self, path: Path) -> None:
        server = await asyncio.start_unix_server(self._serve_unix, path=str(path), limit=MAX_CLIENT_LINE)
        self._servers.append(server)
        self._start_watcher()

    async def listen_tcp(self, host: str, port: int, tls: ssl.SSLContext | None = None) -> tuple[str, int]:
        """Listen on TCP, with TLS if given a context (tls_door.py); returns
        the address bound (port 0 picks a free port)."""
        if tls is not None:
            refused = lambda reason, address: self.audit_log.record("refused", reason, front="tcp", address=address)  # noqa: E731
            server = await listen_tls(host, port, tls, self._serve_tcp, MAX_CLIENT_LINE, refused)
        else:
            server = await asyncio.start_server(self._serve_tcp, host=host, port=port, limit=MAX_CLIENT_LINE)
        self._servers.append(server)
        self._start_watcher()
        bound = server.sockets[0].getsockname()
        return bound[0], bound[1]

    async def close(self) -> None:
        for server in self._servers:
            server.close()
        for connection in list(self._connections):
            connection.writer.transport.abort()
        await asyncio.gather(*self._handlers, return_exceptions=True)
        await self.commits.close()
        for server in self._servers:
            await server.wait_closed()
        if self._watcher is not None:
            self._watcher.cancel()
        self.done.set()

    def _start_watcher(self) -> None:
        if self._watcher is None:
            self._watcher = asyncio.get_running_loop().create_task(self._watch())

    async def _watch(self) -> None:
        """Reap silent connections; decide when the server is done."""
        tick = max(0.05, min(1.0, self.grace / 4, self.reap_after / 4))
        while not self.done.is_set():
            await asyncio.sleep(tick)
            now = self.looked_at = time.monotonic()  # what it decides at `now` is decided before it next awaits
            for connection in list(self._connections):
                if now - connection.last_heard > self.reap_after:
                    connection.writer.transport.abort()
            if self._connections:
                continue
            quiet = now - self._quiet_since
            games = self.games.loaded.values()
            all_over = bool(games) and all(game.host.is_over for game in games)
            if all_over and now - max(g.ended_at or 0.0 for g in games) >= self.grace and quiet >= self.grace:
                self.done.set()
            elif quiet >= self.idle_timeout:
                self.done.set()

    # --- connections ---------------------------------------------------------------

    async def _serve_unix(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        sock = writer.get_extra_info("socket")
        _pid, uid, _gid = struct.unpack("3i", sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")))
        await self._serve(reader, writer, uid)

    async def _serve_tcp(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        sock = writer.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        await self._serve(reader, writer, None)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, peer_uid: int | None) -> None:
        connection = Connection(writer, peer_uid, time.monotonic())
        self._connections.add(connection)
        handler = asyncio.current_task()
        assert handler is not None
        self._handlers.add(handler)
        try:
            await self._read_messages(reader, connection)
        except (ConnectionError, OSError):
            pass
        finally:
            self._connections.discard(connection)
            session, connection.session = connection.session, None  # a closed connection holds no game
            if session is not None:
                session.closed(connection)
            if not self._connections:
                self._quiet_since = time.monotonic()
            await _close_gently(reader, connection.writer)
            self._handlers.discard(handler)

    async def _read_messages(self, reader: asyncio.StreamReader, connection: Connection) -> None:
        while not connection.writer.is_closing():
            try:
                line = await read_line(reader)
            except LineTooLong as error:
                connection.send(Refused(None, "bad-message", f"a line longer than {MAX_CLIENT_LINE} bytes"))
                session = connection.session
                if not error.recoverable or session is None or not session.forgives_long_lines:
                    return
                continue
            if line is None:
                return
            connection.last_heard = time.monotonic()
            try:
                message = self.decode(line)
            except BadMessage as error:
                connection.send(Refused(error.id, "bad-message", str(error)))
                if connection.session is None:
                    return  # a connection must begin with a good first message
                continue
            if connection.session is None:
                if not self.doors.open(connection, message):
                    return
            elif not await connection.session.take(connection, message):
                return
            await connection.writer.drain()

    # --- commands and undos --------------------------------------------------------

    def _already_applied(self, connection: Connection, game: HostedGame, side: Side, message_id: str, version: int) -> bool:
        if not game.applied(side, message_id, version):
            return False
        send_state(connection, game, side, message_id, game.host.why_no_undo(side))  # a resend: answer it, apply nothing
        return True

    def _stale(self, connection: Connection, game: HostedGame, message_id: str, version: int, side: Side | None = None) -> bool:
        """Refuse a message sent at an old version. A command (`side` given)
        is let through when all that happened since is the other side's secret
        choice (R45): in a bid or a reinforcement discard both seats decide at
        once, and the second one's command is no less informed for arriving
        second. It is still checked against the state it will change."""
        if version == game.version or (side is not None and game.unseen_since(side, version)):
            return False
        connection.send(
            Refused(message_id, "stale", f"the game is at version {game.version}, not {version}: nothing was done; decide again")
        )
        return True

    async def submit(self, connection: Connection, game: HostedGame, side: Side, message: Submit) -> None:
        async with game.changing:
            if self._already_applied(connection, game, side, message.id, message.version) or self._stale(
                connection, game, message.id, message.version, side
            ):
                return
            known = listed(game, side, message.command)
            try:
                # A command exactly as the side's legal list gave it needs no
                # second check (rebuilding the list costs as much as the move).
                step = game.host.propose_listed(known) if known is not None else game.host.propose_text(message.command, side)
            except (NotationError, IllegalCommand) as error:
                connection.send(Refused(message.id, "illegal", printable(str(error), 300)))
                return
            assert step.command is not None
            # A listed command's text is its notation already (chairs.listed).
            text = message.command if known is not None else format_command(step.command)
            action = Action("command", side, text, message.id, time.time())

            def apply() -> None:
                game.host.accept(step, text)

            await self.commit(connection, game, action, apply)

    async def undo(self, connection: Connection, game: HostedGame, side: Side, message: Undo) -> None:
        async with game.changing:
            if self._already_applied(connection, game, side, message.id, message.version) or self._stale(connection, game, message.id, message.version):
                return
            reason = game.host.why_no_undo(side)
            if reason is not None:
                connection.send(Refused(message.id, "illegal", f"cannot undo: {reason}"))
                return

            def apply() -> None:
                game.host.undo(side)

            await self.commit(connection, game, Action("undo", side, None, message.id, time.time()), apply)

    async def commit(self, connection: Connection | None, game: HostedGame, action: Action, apply: Callable[[], None]) -> bool:
        """Store the action, then change the game and tell the subscribers:
        nothing is changed or said before the action is on disk (kill -9 loses
        nothing anyone saw). A refusal says so and changes nothing. The change
        runs even if `connection` has gone meanwhile, so memory follows the
        store. The caller holds `game.changing`."""

        def committed(version: int) -> None:
            game.actions.append(action)
            apply()
            if game.host.is_over:
                game.ended_at = time.monotonic()
            self.publish(game, Change(action, connection))

        try:
            await self.commits.commit(game, action, committed)
        except NotStored as refusal:
            if connection is not None:
                connection.send(Refused(action.client_id, refusal.kind, refusal.reason))
            return False
        return True

    def publish(self, game: HostedGame, change: Change) -> None:
        """Tell the subscribers, in order, of a change already stored and applied
        (an action's, or an end outside the rules: the club's results.py)."""
        for subscriber in self.subscribers:
            subscriber.game_changed(game, change)

    # --- seats coming and going (seats.py) -----------------------------------------

    def publish_seat_joined(self, game: HostedGame, side: Side) -> None:
        for subscriber in self.subscribers:
            subscriber.seat_joined(game, side)

    def publish_seat_left(self, game: HostedGame, side: Side) -> None:
        for subscriber in self.subscribers:
            subscriber.seat_left(game, side)


async def _close_gently(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Close after sending what is buffered (a refusal says why), but never
    wait long for a peer that does not read; then forget the traceback of the
    error the connection ended on, if any."""
    writer.close()  # nothing if it is closing already: it is waited for all the same
    try:
        await asyncio.wait_for(writer.wait_closed(), timeout=2.0)
    except (asyncio.TimeoutError, ConnectionError, OSError):
        writer.transport.abort()
    _forget_traceback(reader)


def _forget_traceback(reader: asyncio.StreamReader) -> None:
    """An error asyncio met on the connection (a write to a peer gone: a
    broken pipe) stays in its reader and its close waiter once the
    connection is lost, and its traceback keeps the frames it went through:
    the connection's writer, and its callers' (a seat leaving, holding its
    game). Writer, reader and traceback make a cycle that only a collection
    of the oldest generation frees, so a game whose last write failed
    outlived its eviction (issue 23, item 11). Without its traceback the
    error holds nothing."""
    error = reader.exception()
    if error is not None:
        error.__traceback__ = None
