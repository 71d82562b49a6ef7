"""The client side of the club: the lobby connection, and the tables a game
screen plays through (a seat, or a spectator's chair).

`sekigahara club` reads SEKIGAHARA_CLUB (the club's socket) and
SEKIGAHARA_SESSION (a token a front end minted for the member), or is given
the club's DATA_DIR and a member's name (the club's own Unix user only).

Client side: imports from `rules` only the surface.
"""

from __future__ import annotations

import asyncio
import os
import secrets
from pathlib import Path
from typing import Callable

from rules.surface import Side
from sekigahara_tui.club.protocol import (
    ClubHello,
    ClubWelcome,
    Enter,
    Entry,
    JoinGame,
    ListGames,
    Lobby,
    NewGame,
    Watch,
    WatchGame,
    decode_club_host_message,
)
from sekigahara_tui.club.protocol import encode as club_encode
from sekigahara_tui.net.client import Client
from sekigahara_tui.net.locations import Address
from sekigahara_tui.net.protocol import MAX_HOST_LINE, PROTOCOL_VERSION, BadMessage, Refused, encode
from sekigahara_tui.labels import side_name
from sekigahara_tui.remote import OneSeatTable, RemoteSeat

CLUB_ENV = "SEKIGAHARA_CLUB"
SESSION_ENV = "SEKIGAHARA_SESSION"
REPLY_TIMEOUT = 30.0


class ClubRefused(Exception):
    """The club refused a request; str() is its one-line reason."""

    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind


class ClubClient:
    """A member's lobby connection. Requests are answered in order; a dropped
    connection (the club reaps silent ones) is opened again on the next one."""

    def __init__(self, socket_path: str | Path, session: str | None = None, member: str | None = None) -> None:
        if (session is None) == (member is None):
            raise ValueError("give a session token or a member's name")
        self.socket_path = str(socket_path)
        self._session = session
        self._member = member
        self.member: str | None = None  # as the club names us, after connect()
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._lock = asyncio.Lock()

    @classmethod
    def from_environment(cls) -> ClubClient:
        """SEKIGAHARA_CLUB and SEKIGAHARA_SESSION, as a front end sets them (ValueError if missing)."""
        club, session = os.environ.get(CLUB_ENV), os.environ.get(SESSION_ENV)
        if not club or not session:
            raise ValueError(f"{CLUB_ENV} and {SESSION_ENV} must both be set (or give --data DIR --member NAME)")
        return cls(club, session=session)

    @property
    def address(self) -> Address:
        return Address(unix=self.socket_path)

    async def connect(self) -> str:
        """Open the lobby connection; the member's name. ClubRefused, OSError."""
        await self._close_connection()
        reader, writer = await asyncio.open_unix_connection(self.socket_path, limit=MAX_HOST_LINE)
        self._reader, self._writer = reader, writer
        writer.write(club_encode(ClubHello(PROTOCOL_VERSION, self._session, self._member)))
        reply = await self._receive()
        if not isinstance(reply, ClubWelcome):
            await self._close_connection()
            raise ClubRefused("protocol", f"unexpected answer from the club: {type(reply).__name__}")
        self.member = reply.member
        return reply.member

    async def _receive(self) -> object:
        assert self._reader is not None
        line = await asyncio.wait_for(self._reader.readline(), REPLY_TIMEOUT)
        if not line:
            raise ConnectionResetError("the club closed the connection")
        try:
            message = decode_club_host_message(line)
        except BadMessage as error:
            raise ClubRefused("protocol", f"the club sent a bad message: {error}") from None
        if isinstance(message, Refused):
            raise ClubRefused(message.kind, message.reason)
        return message

    async def _request(self, message: object, answers: Callable[[object], bool]) -> object:
        """Send `message` and return the reply that `answers` it. A reply to an
        earlier request (one that timed out) is skipped, and a timeout closes
        the connection, so no late reply is ever taken for another's."""
        async with self._lock:
            for attempt in (1, 2):
                try:
                    if self._writer is None or self._writer.is_closing():
                        await self.connect()
                    assert self._writer is not None
                    self._writer.write(club_encode(message))
                    await self._writer.drain()
                    while not answers(reply := await self._receive()):
                        pass
                    return reply
                except asyncio.TimeoutError:
                    await self._close_connection()
                    raise
                except (ConnectionError, OSError, asyncio.IncompleteReadError):
                    await self._close_connection()
                    if attempt == 2:
                        raise
            raise AssertionError("unreachable")

    async def lobby(self) -> Lobby:
        reply = await self._request(ListGames(), lambda reply: isinstance(reply, Lobby))
        assert isinstance(reply, Lobby)
        return reply

    async def new_game(self, side: Side | None, opponent: str) -> Entry:
        return await self._entry(NewGame(_fresh_id(), side, opponent))

    async def join(self, game: str) -> Entry:
        return await self._entry(JoinGame(_fresh_id(), game))

    async def enter(self, game: str) -> Entry:
        return await self._entry(Enter(_fresh_id(), game))

    async def watch(self, game: str) -> Entry:
        return await self._entry(Watch(_fresh_id(), game))

    async def _entry(self, message: NewGame | JoinGame | Enter | Watch) -> Entry:
        reply = await self._request(message, lambda reply: isinstance(reply, Entry) and reply.reply_to == message.id)
        return reply

    def seat_client(self, entry: Entry, listener=None, **options) -> Client:
        assert entry.seat is not None
        return Client(self.address, entry.game, entry.seat, entry.token, listener, **options)

    def watch_client(self, entry: Entry, listener=None, **options) -> WatchClient:
        return WatchClient(self.address, entry.game, entry.token, listener, **options)

    async def _close_connection(self) -> None:
        writer, self._writer, self._reader = self._writer, None, None
        if writer is not None:
            writer.close()
            try:
                await writer.wait_closed()
            except (ConnectionError, OSError):
                pass

    async def close(self) -> None:
        await self._close_connection()


def _fresh_id() -> str:
    return secrets.token_urlsafe(9)


class _FirstLineSwapped:
    """A stream writer whose first line (the client's hello) is replaced."""

    def __init__(self, writer: asyncio.StreamWriter, first: bytes) -> None:
        self._writer = writer
        self._first: bytes | None = first

    def write(self, data: bytes) -> None:
        if self._first is not None:
            data, self._first = self._first, None
        self._writer.write(data)

    def __getattr__(self, name: str):
        return getattr(self._writer, name)


class WatchClient(Client):
    """A spectator: a Client whose connection begins with watch_game instead
    of a seat's hello. It receives the public view (Ishida's chair, nothing
    hidden of either side) and the events both sides see; it cannot play."""

    def __init__(self, address: Address, game: str, token: str, listener=None, **options) -> None:
        super().__init__(address, game, Side.ISHIDA, token, listener, **options)
        self._watch_token = token

    async def _session(self, reader, writer):  # type: ignore[override]
        seen = self.version if self.view is not None else None
        first = club_encode(WatchGame(PROTOCOL_VERSION, self.game, self._watch_token, seen))
        return await super()._session(reader, _FirstLineSwapped(writer, first))


# --- tables for the game screen ---------------------------------------------------


class ClubTable(OneSeatTable):
    """One seat of a club game, or a spectator's chair (no legal commands)."""

    def __init__(self, club: ClubClient, entry: Entry) -> None:
        self.entry = entry
        seat = RemoteSeat(entry.seat or Side.ISHIDA)
        self.spectating = entry.seat is None
        super().__init__(seat, club.watch_client(entry, seat) if self.spectating else club.seat_client(entry, seat))

    def describe(self) -> str:
        if self.spectating:
            return f"watching game {self.entry.game}"
        return f"{side_name(self.seat.side)} in club game {self.entry.game}"


__all__ = ["CLUB_ENV", "SESSION_ENV", "ClubClient", "ClubRefused", "ClubTable", "WatchClient", "encode"]
