"""The headless client: one seat of a hosted game, over a Unix socket or TCP.

A Client holds what its seat may know (rules.surface): the view, the version,
the events it has seen, why it may not undo. Each connection opens with the
seat's hello, or with the opening line it was given (the club's spectator,
club/client.py WatchClient, opens with watch_game). It sends commands as notation
with a fresh message id and the version it saw; after a dropped connection it
reconnects by itself (exponential back-off with jitter) and resends what was
not answered, which the host never applies twice (docs/protocol.md).

Used by the bot, the tests, the benchmark and the Textual app. Imports from
`rules` only the surface (and the notation, through the protocol).
"""

from __future__ import annotations

import asyncio
import random
import secrets
from pathlib import Path
from typing import Callable, Protocol, Sequence

from rules.surface import Event, PlayerView, Side
from sekigahara_tui.net.tls import connect_options
from sekigahara_tui.net.locations import Address, LocationError, address_of, game_of, read_token
from sekigahara_tui.net.protocol import (
    MAX_HOST_LINE,
    PROTOCOL_VERSION,
    ELSEWHERE,
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
    decode_host_message,
    encode,
    read_line,
)

PING_INTERVAL = 15.0
# No line from the host for this long (pongs answer pings): the connection is dead.
SILENCE_LIMIT = 45.0
FIRST_RETRY = 0.2
LONGEST_RETRY = 10.0
# Refusals that no retry can mend: the client stops for good. taken-over: another
# connection of the same player holds the seat now; retrying would take it back.
FATAL_KINDS = frozenset({"not-authorised", "unknown-game", "protocol", "taken-over"})

__all__ = [
    "Address",
    "Client",
    "ClientListener",
    "LocationError",
    "Refused",
    "address_of",
    "game_of",
    "read_token",
]


async def first_answering(hosts: Sequence[tuple[str, int]], open_one: Callable) -> tuple[int, object]:
    """Several club hosts: (index, what `await open_one(host, port)` gave) for
    the first host that answers, in order; the last host's error if none does.
    Only OSError and TimeoutError (unreachable) move on: a refusal does not."""
    for n, (host, port) in enumerate(hosts):
        try:
            return n, await open_one(host, port)
        except (OSError, TimeoutError):
            if n == len(hosts) - 1:
                raise
    raise OSError(0, "no host to connect to")


class ClientListener(Protocol):
    def on_state(self, client: Client) -> None: ...  # view, version, steps, log, why_no_undo changed

    def on_refused(self, client: Client, refusal: Refused) -> None: ...

    def on_presence(self, client: Client, connected: bool) -> None: ...  # the other seat

    def on_connection(self, client: Client, status: str) -> None: ...  # "connecting", "connected", "reconnecting in 1.3 s", "closed: <reason>"


class Client:
    def __init__(
        self,
        address: Address,
        game: str,
        side: Side,
        token: str,
        listener: ClientListener | None = None,
        *,
        stop_when_over: bool = False,
        ping_interval: float = PING_INTERVAL,
        silence_limit: float = SILENCE_LIMIT,
        opening: Callable[[int | None], bytes] | None = None,
        decode: Callable[[bytes], object] = decode_host_message,
        also: Sequence[Address] = (),
    ) -> None:
        self.address = address
        # Several club hosts: the others, tried in turn when one cannot be reached;
        # a host that does not play the game sends the client to the one that does (`elsewhere`).
        self._addresses = [address, *also]
        self._sent_to: Address | None = None
        self._redirected = False  # the last connection ended in `elsewhere`
        self.game = game
        self.side = side
        self._token = token
        self.listener = listener
        self.stop_when_over = stop_when_over
        self.ping_interval = ping_interval
        self.silence_limit = silence_limit
        # The first line of each connection, given the last version this client
        # holds (None: nothing yet); a seat's hello unless given another.
        self._opening = opening or self._hello
        self._decode = decode  # the club's seats read its messages too (club/client.py)
        # What the seat knows, from the last state.
        self.view: PlayerView | None = None
        self.version: int | None = None
        self.steps = 0
        self.why_no_undo: str | None = "not connected yet"  # R58; None when this seat may undo
        self.over = False
        self.result: str | None = None  # the game-over text
        self.log: list[Event] = []  # every event of the standing steps, oldest first
        self.reply_to: str | None = None
        self.connected = False
        self.other_connected: bool | None = None
        self.status = "not started"
        self.refusals: list[Refused] = []
        self.fatal: Refused | None = None  # the refusal that stopped the client
        self._step_sizes: list[int] = []  # events per step, to cut the log at an undo
        self._pending: dict[str, Submit | Undo] = {}  # sent (or queued), not yet answered
        self._writer: asyncio.StreamWriter | None = None
        self._welcomed = False  # on this connection
        self._welcomed_this_time = False  # this connection was welcomed (stays set after it ends)
        self._ever_welcomed = False
        self._closing = False
        self._wake = asyncio.Event()  # ends a back-off early (close)
        self._changed = asyncio.Event()
        self._running: asyncio.Future | None = None

    @classmethod
    def for_game_dir(cls, game_dir: Path, side: Side, listener: ClientListener | None = None, **options) -> Client:
        """A client for a seat of the game hosted in DIR (or a .join file);
        LocationError if the address or the token cannot be read."""
        return cls(address_of(game_dir), game_of(game_dir), side, read_token(game_dir, side), listener, **options)

    # --- sending -------------------------------------------------------------------

    @property
    def pending(self) -> tuple[str, ...]:
        """Ids of messages sent or queued and not answered yet."""
        return tuple(self._pending)

    def submit(self, text: str) -> str:
        """Send a command (notation) for the version this client holds; returns
        the message id. Queued while disconnected."""
        return self._send_request(Submit(self._fresh_id(), self.version or 0, text))

    def undo(self) -> str:
        """Ask to take back this seat's last command (R58)."""
        return self._send_request(Undo(self._fresh_id(), self.version or 0))

    def _hello(self, seen: int | None) -> bytes:
        return encode(Hello(PROTOCOL_VERSION, self.game, self.side, self._token, seen))

    @staticmethod
    def _fresh_id() -> str:
        # Ids are remembered for the whole game; random ones never collide with
        # those of an earlier client process for the same seat.
        return secrets.token_urlsafe(9)

    def _send_request(self, message: Submit | Undo) -> str:
        self._pending[message.id] = message
        if self._welcomed:
            self._write(message)
        return message.id

    def _write(self, message: object) -> None:
        self._write_line(encode(message))

    def _write_line(self, line: bytes) -> bool:
        """Write an encoded message; False if not connected (nothing sent)."""
        writer = self._writer
        if writer is None or writer.is_closing() or not self._welcomed:
            return False
        writer.write(line)
        return True

    # --- waiting -------------------------------------------------------------------

    async def wait_for(self, predicate: Callable[[Client], bool], timeout: float | None = None) -> None:
        """Wait until `predicate(client)` holds (checked after every change)."""
        async with asyncio.timeout(timeout):
            while not predicate(self):
                await self._changed.wait()

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    # --- running -------------------------------------------------------------------

    async def run(self) -> None:
        """Connect, say hello, read until closed; reconnect after a drop. Returns
        after close(), a fatal refusal, or (stop_when_over) the game's end."""
        self._running = asyncio.get_running_loop().create_future()
        delay = FIRST_RETRY
        reason = "closed"
        try:
            while not self._closing:
                self._set_status("connecting")
                try:
                    reader, writer = await self._connect()
                except OSError as error:
                    reason = f"cannot connect: {error.strerror or type(error).__name__}"
                    self._next_address()
                else:
                    reason = await self._session(reader, writer)
                    if self._welcomed_this_time:
                        delay = FIRST_RETRY  # it worked: the next drop retries soon
                    elif self._sent_to is None:
                        self._next_address()  # no welcome there (a host stopped, or not this game's): the next
                if self._finished():
                    break
                if self._sent_to is not None:  # `elsewhere`: straight there, unless sent on just before (no ping-pong)
                    self.address, self._sent_to = self._sent_to, None
                    redirected, self._redirected = self._redirected, True
                    if not redirected:
                        continue
                else:
                    self._redirected = False
                wait = delay * random.uniform(0.5, 1.0)
                delay = min(delay * 2, LONGEST_RETRY)
                self._set_status(f"reconnecting in {wait:.1f} s")
                try:  # asyncio.timeout, not wait_for: on 3.11 wait_for can swallow a cancel (club/client.py)
                    async with asyncio.timeout(wait):
                        await self._wake.wait()
                except TimeoutError:
                    pass
        finally:
            self.connected = False
            if self.fatal is not None:
                reason = self.fatal.reason
            elif self.over:
                reason = "the game is over"
            elif self._closing:
                reason = "closed by the player"
            self._set_status(f"closed: {reason}")
            self._running.set_result(None)

    def _next_address(self) -> None:
        """The next of the club's hosts, after one that could not be reached."""
        if self.address in self._addresses:
            self._addresses.remove(self.address)
        self._addresses.append(self.address)
        self.address = self._addresses[0]

    def _finished(self) -> bool:
        # stop_when_over: after the game_over message, which follows the last state
        return self._closing or self.fatal is not None or (self.stop_when_over and self.result is not None)

    async def close(self) -> None:
        self._closing = True
        self._wake.set()
        if self._writer is not None:
            self._writer.close()
        if self._running is not None:
            await self._running

    async def _connect(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if self.address.unix is not None:
            return await asyncio.open_unix_connection(self.address.unix, limit=MAX_HOST_LINE)
        if self.address.tcp is not None:
            host, port = self.address.tcp
            return await asyncio.open_connection(host, port, limit=MAX_HOST_LINE, **connect_options(host, self.address.tls_ca))
        raise OSError(0, "the address has neither a socket nor a TCP port")

    async def _session(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> str:
        """One connection, from its opening line to its end; returns why it ended."""
        self._writer = writer
        self._welcomed = self._welcomed_this_time = False
        pinger = asyncio.get_running_loop().create_task(self._ping())
        seen = self.version if self.view is not None else None
        try:
            writer.write(self._opening(seen))
            while not self._finished():
                try:
                    async with asyncio.timeout(self.silence_limit):  # not wait_for (3.11: a swallowed cancel)
                        line = await read_line(reader)
                except TimeoutError:
                    return f"no word from the host for {self.silence_limit:.0f} s"
                except LineTooLong:
                    return "the host sent a line too long to read"
                if line is None:
                    return "the host closed the connection"
                try:
                    message = self._decode(line)
                except BadMessage as error:
                    return f"the host sent a bad message: {error}"
                self._receive(message)
            return "closed"
        except (ConnectionError, OSError) as error:
            return f"connection lost: {error.strerror or type(error).__name__}"
        finally:
            pinger.cancel()
            self._writer = None
            self._welcomed = False
            if self.connected:
                self.connected = False
            writer.close()

    async def _ping(self) -> None:
        while True:
            await asyncio.sleep(self.ping_interval)
            if self._welcomed:
                self._write(Ping())

    # --- receiving -----------------------------------------------------------------

    def _receive(self, message: object) -> None:
        if isinstance(message, Welcome):
            self._welcomed = self._welcomed_this_time = self._ever_welcomed = True
            self.connected = True
            self._set_status("connected")
            for request in list(self._pending.values()):
                self._write(request)  # what the last connection left unanswered
        elif isinstance(message, State):
            self._take_state(message)
        elif isinstance(message, Refused):
            self._take_refusal(message)
        elif isinstance(message, Presence):
            if message.seat is not self.side:
                self.other_connected = message.connected
                if self.listener is not None:
                    self.listener.on_presence(self, message.connected)
                self._notify()
        elif isinstance(message, GameOver):
            self.over = True
            self.result = message.result
            self._notify()
        elif isinstance(message, Pong):
            pass

    def _take_state(self, state: State) -> None:
        if state.first_step > len(self._step_sizes):
            # The host thinks we hold steps we do not: start the log afresh.
            self._step_sizes, self.log = [], []
            self.version = None
            if self._writer is not None:
                self._writer.close()
            return
        cut = sum(self._step_sizes[: state.first_step])
        del self.log[cut:]
        del self._step_sizes[state.first_step :]
        for events in state.events:
            self.log.extend(events)
            self._step_sizes.append(len(events))
        self.view = state.view
        self.version = state.version
        self.steps = state.steps
        self.why_no_undo = state.undo
        self.over = state.over
        self.reply_to = state.reply_to
        if state.reply_to is not None:
            self._pending.pop(state.reply_to, None)
        if self.listener is not None:
            self.listener.on_state(self)
        self._notify()

    def _take_refusal(self, refusal: Refused) -> None:
        self.refusals.append(refusal)
        if refusal.kind == "elsewhere" and refusal.reason.startswith(ELSEWHERE):
            host, _, port = refusal.reason[len(ELSEWHERE):].rpartition(":")
            host = host.strip("[]")  # serve --advertise writes an IPv6 address in brackets
            if host and port.isdigit() and (host, int(port)) != self.address.tcp:
                # with the CA this club's hosts are checked with: a TLS club's owner is TLS too
                self._sent_to = Address(tcp=(host, int(port)), tls_ca=self.address.tls_ca)
        if refusal.id is not None:
            self._pending.pop(refusal.id, None)
        # seat-taken on a reconnect is most likely our own dead connection,
        # which the host drops after its silence limit: keep trying. On a first
        # connection someone else has the seat.
        if refusal.kind in FATAL_KINDS or (refusal.kind == "seat-taken" and not self._ever_welcomed):
            self.fatal = refusal
        if self.listener is not None:
            self.listener.on_refused(self, refusal)
        self._notify()

    def _set_status(self, status: str) -> None:
        self.status = status
        if self.listener is not None:
            self.listener.on_connection(self, status)
        self._notify()
