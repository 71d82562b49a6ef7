"""The host: one asyncio server holding games, each played by two seats.

For every command: parse it for the seat's side, check it is legal, work out
the step, commit it to the store, and only then change the game in memory and
send each connected seat its own new state (R55: its view and the events it
may see; the submitter's copy names the message it answers). A failed commit
changes nothing. Stale versions are refused; a message id already applied is
answered with the current state and not applied again (docs/protocol.md).

Per change, each chair (a side, or the spectators') has its view made and
encoded once for all its connections, reusing the JSON of the fields that did
not change (Chair, protocol.ViewEncoder); a command sent exactly as one of the
side's listed legal commands is not checked again (GameHost.propose_listed).

One connection per seat at a time. Clients ping; a connection silent for
`reap_after` seconds is dropped (so a half-open one frees its seat). The
server is done when every game is over and nobody has been connected for
`grace` seconds, or nobody has been connected for `idle_timeout` seconds.
"""

from __future__ import annotations

import asyncio
import hmac
import socket
import struct
import time
from typing import Callable
from pathlib import Path

from attrs import define, field, frozen

from rules.commands import Command
from rules.errors import IllegalCommand
from rules.notation import NotationError, format_command
from rules.infra.record import RecordError
from rules.sides import Side
from rules.state import GameState
from rules.view import PlayerView
from rules.infra.untrusted import printable
from sekigahara_tui.hosting.host import GameHost
from sekigahara_tui.net.protocol import (
    MAX_CLIENT_LINE,
    PROTOCOL_VERSION,
    BadMessage,
    GameOver,
    Hello,
    LineTooLong,
    Ping,
    Pong,
    Presence,
    Refused,
    State,
    Submit,
    Undo,
    Welcome,
    decode_client_message,
    encode,
    read_line,
)
from sekigahara_tui.net.state_encoding import ViewEncoder, encode_events, encode_state, notation
from sekigahara_tui.hosting.group_commit import GroupCommit
from sekigahara_tui.hosting.store import Action, GameInfo, Store, StoreError, commands_standing, record_of

# Clients ping every PING_INTERVAL seconds (client.py); three missed pings and
# the connection is taken for dead.
REAP_AFTER = 45.0
DEFAULT_GRACE = 10.0
DEFAULT_IDLE_TIMEOUT = 2 * 60 * 60.0
# A client that stops reading gets its messages buffered up to this much, then
# its connection is dropped (a whole game's state is at most 46 KB over 200
# random games: benchmarks/protocol.py).
MAX_WRITE_BUFFER = 16 * 1024 * 1024


@frozen
class SeatAccess:
    """Who may take a seat: the token's holder, or (uid set) only that Unix
    user over the Unix socket, checked by its peer credential."""

    token: str
    uid: int | None = None


def result_text(state: GameState) -> str:
    result = state.result
    assert result is not None
    how = f"VP {result.vp.ishida}-{result.vp.tokugawa}" if result.vp is not None else result.cause
    return f"{result.winner.value} wins ({how})"


@define(eq=False)
class Connection:
    writer: asyncio.StreamWriter
    peer_uid: int | None  # None over TCP
    last_heard: float
    side: Side | None = None
    game: HostedGame | None = None
    synced: int = 0  # steps of the current game this client holds events for
    # Set by a subclass for a connection that is not a seat (the club server's
    # lobby or a spectator): its messages go to _session_message.
    session: object | None = None

    def send(self, message: object) -> None:
        if not self.writer.is_closing():
            self.send_line(encode(message))

    def send_line(self, line: bytes) -> None:
        """A message already encoded (a state shared by a chair's connections)."""
        if self.writer.is_closing():
            return
        self.writer.write(line)
        if self.writer.transport.get_write_buffer_size() > MAX_WRITE_BUFFER:
            self.writer.transport.abort()  # it stopped reading: let it reconnect

    def close(self) -> None:
        if not self.writer.is_closing():
            self.writer.close()


@define(eq=False)
class Chair:
    """One chair of a game: a side, or the spectators'. Its view of the game's
    current state is made and encoded once per change, however many
    connections sit in it (a seat, or every spectator), and its encoder
    re-encodes only what changed since the chair's last view."""

    encoder: ViewEncoder = field(factory=ViewEncoder)
    state: GameState | None = None  # the state `view` and `json` were made from
    view: PlayerView | None = None
    json: str = ""
    events: dict[int, str] = field(factory=dict)  # first step -> the events' JSON, for `state`
    legal: dict[str, Command] | None = None  # the view's legal commands by notation, once asked for


@define(eq=False)
class HostedGame:
    info: GameInfo
    host: GameHost
    actions: list[Action]
    seats: dict[Side, SeatAccess]
    connections: dict[Side, Connection]
    applied: dict[tuple[Side, str], int]  # (seat, client message id) -> version it made
    ended_at: float | None = None
    # One change at a time: a command is checked against the state it will
    # change, and the next waits until it is stored and applied.
    changing: asyncio.Lock = field(factory=asyncio.Lock)
    chairs: dict[Side | None, Chair] = field(factory=dict)  # None: the spectators'

    @property
    def id(self) -> str:
        return self.info.id

    @property
    def version(self) -> int:
        return len(self.actions)


class GameServer:
    def __init__(
        self,
        store: Store,
        *,
        idle_timeout: float = DEFAULT_IDLE_TIMEOUT,
        grace: float = DEFAULT_GRACE,
        reap_after: float = REAP_AFTER,
    ) -> None:
        self.store = store
        self.writer = GroupCommit(store.path)  # commands and undos, many games to an fsync
        self.games: dict[str, HostedGame] = {}
        self.idle_timeout = idle_timeout
        self.grace = grace
        self.reap_after = reap_after
        self.done = asyncio.Event()
        self._servers: list[asyncio.base_events.Server] = []
        self._connections: set[Connection] = set()
        self._handlers: set[asyncio.Task] = set()
        self._quiet_since = time.monotonic()  # when the last connection went (or the start)
        self._watcher: asyncio.Task | None = None
        self.looked_at = float("-inf")  # when the watcher last looked (for a test that waits for a look)

    # --- games -------------------------------------------------------------------

    def add_game(self, game_id: str, seats: dict[Side, SeatAccess]) -> HostedGame:
        """Load a game from the store and replay it (StoreError, RecordError)."""
        info, actions = self.store.load_game(game_id)
        # A host of many games keeps only the states undo may need (hosting/host.py).
        host = GameHost.from_record(record_of(info, actions), keep_states=False)
        game = HostedGame(info, host, actions, dict(seats), {}, {})
        for version, action in enumerate(actions, start=1):
            if action.client_id is not None:
                game.applied[(action.side, action.client_id)] = version
        if host.is_over:
            game.ended_at = time.monotonic()
        self.games[game_id] = game
        return game

    # --- listening -----------------------------------------------------------------

    async def listen_unix(self, path: Path) -> None:
        server = await asyncio.start_unix_server(self._serve_unix, path=str(path), limit=MAX_CLIENT_LINE)
        self._servers.append(server)
        self._start_watcher()

    async def listen_tcp(self, host: str, port: int) -> tuple[str, int]:
        """Listen on TCP; returns the address bound (port 0 picks a free port)."""
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
        await self.writer.close()
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
            all_over = bool(self.games) and all(game.host.is_over for game in self.games.values())
            if all_over and now - max(g.ended_at or 0.0 for g in self.games.values()) >= self.grace and quiet >= self.grace:
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
            self._detach(connection)
            if not self._connections:
                self._quiet_since = time.monotonic()
            await _close_gently(connection.writer)
            self._handlers.discard(handler)

    async def _read_messages(self, reader: asyncio.StreamReader, connection: Connection) -> None:
        while not writer_closing(connection):
            try:
                line = await read_line(reader)
            except LineTooLong as error:
                connection.send(Refused(None, "bad-message", f"a line longer than {MAX_CLIENT_LINE} bytes"))
                if not error.recoverable or connection.side is None:
                    return
                continue
            if line is None:
                return
            connection.last_heard = time.monotonic()
            try:
                message = self._decode(line)
            except BadMessage as error:
                connection.send(Refused(error.id, "bad-message", str(error)))
                if connection.side is None and connection.session is None:
                    return  # a connection must begin with a good hello
                continue
            if connection.session is not None:
                if not self._session_message(connection, message):
                    return
            elif connection.side is None:
                if not self._first_message(connection, message):
                    return
            elif isinstance(message, Ping):
                connection.send(Pong())
            elif isinstance(message, Hello):
                connection.send(Refused(None, "bad-message", "hello was already said on this connection"))
            elif isinstance(message, Submit):
                await self._submit(connection, message)
            elif isinstance(message, Undo):
                await self._undo(connection, message)
            await connection.writer.drain()

    # --- hooks for a server with more to say (the club server) -------------------

    def _decode(self, line: bytes) -> object:
        return decode_client_message(line)

    def _first_message(self, connection: Connection, message: object) -> bool:
        """The first message of a connection; False closes it."""
        return self._hello(connection, message)

    def _session_message(self, connection: Connection, message: object) -> bool:
        """A message on a connection that is not a seat; False closes it."""
        return False

    def _find_game(self, game_id: str) -> HostedGame | None:
        """The game a hello names (a club server loads it on first use)."""
        return self.games.get(game_id)

    def _present(self, game: HostedGame, side: Side) -> bool:
        """Whether `side`'s seat is taken (the club's computer always sits)."""
        return side in game.connections

    def _detach(self, connection: Connection) -> None:
        game, side = connection.game, connection.side
        if game is None or side is None or game.connections.get(side) is not connection:
            return
        del game.connections[side]
        other = game.connections.get(side.other)
        if other is not None:
            other.send(Presence(side, False))

    # --- hello ---------------------------------------------------------------------

    def _hello(self, connection: Connection, message: object) -> bool:
        """Take a seat, or refuse (the caller closes the connection)."""

        def refuse(kind: str, reason: str) -> bool:
            connection.send(Refused(None, kind, reason))
            return False

        if not isinstance(message, Hello):
            return refuse("protocol", "the first message must be hello")
        if message.protocol != PROTOCOL_VERSION:
            return refuse(
                "protocol", f"this host speaks protocol {PROTOCOL_VERSION}, not {message.protocol}: use the same version of sekigahara"
            )
        game = self._find_game(message.game)
        if game is None:
            return refuse("unknown-game", f"no game {printable(message.game, 64)!r} is hosted here")
        side = message.seat
        problem = self._not_authorised(game.seats[side], side, message.token, connection.peer_uid)
        if problem is not None:
            return refuse("not-authorised", problem)
        if side in game.connections:
            return refuse(
                "seat-taken",
                f"the {side.value} seat is already connected; a dead connection is dropped after {self.reap_after:.0f} s of silence",
            )
        connection.side, connection.game = side, game
        connection.synced = self._steps_held(game, message.seen)
        game.connections[side] = connection
        connection.send(Welcome(PROTOCOL_VERSION, game.id, side))
        self._send_state(connection, None)
        connection.send(Presence(side.other, self._present(game, side.other)))
        if game.host.is_over:
            connection.send(GameOver(result_text(game.host.state)))
        other = game.connections.get(side.other)
        if other is not None:
            other.send(Presence(side, True))
        return True

    @staticmethod
    def _not_authorised(access: SeatAccess, side: Side, token: str, peer_uid: int | None) -> str | None:
        token_ok = hmac.compare_digest(token.encode("utf-8"), access.token.encode("utf-8"))
        if access.uid is None:
            return None if token_ok else f"wrong token for the {side.value} seat"
        if peer_uid is None:
            return f"the {side.value} seat is bound to a Unix user: join over the Unix socket"
        if peer_uid != access.uid:
            return f"the {side.value} seat is bound to another Unix user"
        if token and not token_ok:
            return f"wrong token for the {side.value} seat"
        return None

    @staticmethod
    def _steps_held(game: HostedGame, seen: int | None) -> int:
        """How many of the current steps a client that saw version `seen` holds:
        the setup step and the commands its history shares with the game's
        (a step is determined by the commands before it)."""
        if seen is None or not 0 <= seen <= game.version:
            return 0
        held, now = commands_standing(game.actions[:seen]), commands_standing(game.actions)
        common = 0
        for old, new in zip(held, now):
            if old != new:
                break
            common += 1
        return 1 + common

    # --- commands and undos --------------------------------------------------------

    def _already_applied(self, connection: Connection, game: HostedGame, side: Side, message_id: str) -> bool:
        if (side, message_id) not in game.applied:
            return False
        self._send_state(connection, message_id)  # a resend: answer it, apply nothing
        return True

    def _stale(self, connection: Connection, game: HostedGame, message_id: str, version: int) -> bool:
        if version == game.version:
            return False
        connection.send(
            Refused(message_id, "stale", f"the game is at version {game.version}, not {version}: nothing was done; decide again")
        )
        return True

    async def _submit(self, connection: Connection, message: Submit) -> None:
        game, side = connection.game, connection.side
        assert game is not None and side is not None
        async with game.changing:
            if self._already_applied(connection, game, side, message.id) or self._stale(connection, game, message.id, message.version):
                return
            listed = self._listed(game, side, message.command)
            try:
                # A command exactly as the side's legal list gave it needs no
                # second check (rebuilding the list costs as much as the move).
                step = game.host.propose_listed(listed) if listed is not None else game.host.propose_text(message.command, side)
            except (NotationError, IllegalCommand) as error:
                connection.send(Refused(message.id, "illegal", printable(str(error), 300)))
                return
            assert step.command is not None
            action = Action("command", side, format_command(step.command), message.id, time.time())

            def apply() -> None:
                game.host.accept(step)

            await self._commit(connection, game, action, apply)

    async def _undo(self, connection: Connection, message: Undo) -> None:
        game, side = connection.game, connection.side
        assert game is not None and side is not None
        async with game.changing:
            if self._already_applied(connection, game, side, message.id) or self._stale(connection, game, message.id, message.version):
                return
            reason = game.host.why_no_undo(side)
            if reason is not None:
                connection.send(Refused(message.id, "illegal", f"cannot undo: {reason}"))
                return

            def apply() -> None:
                game.host.undo(side)

            await self._commit(connection, game, Action("undo", side, None, message.id, time.time()), apply)

    async def _commit(self, connection: Connection | None, game: HostedGame, action: Action, apply: Callable[[], None]) -> bool:
        """Store the action, then change the game and tell everyone: nothing is
        changed or said before the action is on disk (kill -9 loses nothing
        anyone saw). A failure says so and changes nothing. The change runs
        even if `connection` has gone meanwhile, so memory follows the store."""

        def committed(version: int) -> None:
            game.actions.append(action)
            if action.client_id is not None:
                game.applied[(action.side, action.client_id)] = version
            apply()
            self._changed(game, connection, action.client_id)

        try:
            await self.writer.append(game.id, action, game.version, committed)
        except StoreError as error:
            if connection is not None:
                connection.send(Refused(action.client_id, "host-error", f"the host could not store it, nothing changed: {printable(str(error), 200)}"))
            return False
        return True

    def _changed(self, game: HostedGame, submitter: Connection | None, message_id: str | None) -> None:
        over = game.host.is_over
        if over:
            game.ended_at = time.monotonic()
            try:
                self.store.finish(game.id, result_text(game.host.state))
            except StoreError:
                pass  # the status is derived from the actions anyway
        for connection in list(game.connections.values()):
            self._send_state(connection, message_id if connection is submitter else None)
            if over:
                connection.send(GameOver(result_text(game.host.state)))

    def _send_state(self, connection: Connection, reply_to: str | None) -> None:
        game, side = connection.game, connection.side
        assert game is not None and side is not None
        host = game.host
        chair = self._chair(game, side)
        first = min(connection.synced, host.step_count)
        events = tuple(tuple(step) for step in host.step_events(side, first))
        connection.synced = host.step_count
        message = State(
            version=game.version,
            steps=host.step_count,
            reply_to=reply_to,
            view=chair.view,
            first_step=first,
            events=events,
            undo=host.why_no_undo(side),
            over=host.is_over,
        )
        connection.send_line(encode_state(message, chair.json, self._events_json(chair, first, events)))

    @staticmethod
    def _chair(game: HostedGame, side: Side | None) -> Chair:
        """The chair of `side` (None: the spectators'), its view made for the
        game's current state if it is not yet (a view is a function of the
        state: after an undo too)."""
        chair = game.chairs.get(side)
        if chair is None:
            chair = game.chairs[side] = Chair()
        state = game.host.state
        if chair.state is not state:
            chair.view = game.host.view(side) if side is not None else game.host.spectator_view()
            chair.json = chair.encoder.encode(chair.view)
            chair.state = state
            chair.events.clear()
            chair.legal = None
        return chair

    @staticmethod
    def _listed(game: HostedGame, side: Side, text: str) -> Command | None:
        """The command of `side`'s legal list whose notation is exactly `text`,
        if the side's view of the current state was made (the list is the
        engine's legal_commands of that state); None if not listed or not known."""
        chair = game.chairs.get(side)
        if chair is None or chair.state is not game.host.state or chair.view is None:
            return None
        if chair.legal is None:
            chair.legal = {notation(command): command for command in chair.view.legal}
        return chair.legal.get(text)

    @staticmethod
    def _events_json(chair: Chair, first: int, events: tuple) -> str:
        """The JSON of the chair's events from step `first` on (made once for
        all the chair's connections that hold the same steps)."""
        text = chair.events.get(first)
        if text is None:
            text = chair.events[first] = encode_events(events)
        return text


def writer_closing(connection: Connection) -> bool:
    return connection.writer.is_closing()


async def _close_gently(writer: asyncio.StreamWriter) -> None:
    """Close after sending what is buffered (a refusal says why), but never
    wait long for a peer that does not read."""
    if writer.transport.is_closing():
        return
    writer.close()
    try:
        await asyncio.wait_for(writer.wait_closed(), timeout=2.0)
    except (asyncio.TimeoutError, ConnectionError, OSError):
        writer.transport.abort()


__all__ = ["GameServer", "HostedGame", "SeatAccess", "RecordError", "StoreError", "result_text"]
