"""The client side of the club: the lobby connection, and the tables a game
screen plays through (a seat, or a spectator's chair).

`sekigahara club` reads SEKIGAHARA_CLUB (the club's socket) and
SEKIGAHARA_SESSION (a token a front end minted for the member), or is given
the club's DATA_DIR and a member's name (the club's own Unix user only), or
the club's TCP address and a member's name, the member's token in
SEKIGAHARA_TOKEN (`sekigahara member web-token NAME`).

Client side: imports from `rules` only the surface.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import time
from pathlib import Path
from typing import Callable

from rules.surface import Side
from sekigahara_tui.club.protocol import (
    AnswerCancel,
    CancelProposal,
    ClockLine,
    ClubHello,
    ClubWelcome,
    DeclineGame,
    Enter,
    Entry,
    GetNotices,
    GetRecord,
    JoinGame,
    ListGames,
    Lobby,
    LobbyChanged,
    NewGame,
    ProposeCancel,
    Rematch,
    Resign,
    Notices,
    Record,
    SetNotices,
    Watch,
    WatchGame,
    WithdrawGame,
    Withdrawn,
    YourMove,
    decode_club_host_message,
)
from sekigahara_tui.club.protocol import encode as club_encode
from sekigahara_tui.club.protocol_vacation import GetVacation, TakeVacation, Vacation
from sekigahara_tui.club.chat_feed import ChatFeed
from sekigahara_tui.club.protocol_chat import ChatDeleted, ChatLine, ChatLines, ChatSay, GetChat
from sekigahara_tui.club.protocol_ratings import GetRatings, Ratings
from sekigahara_tui.net.client import Client, first_answering
from sekigahara_tui.net.locations import Address
from sekigahara_tui.net.tls import connect_options
from sekigahara_tui.club.protocol_tournaments import TournamentList, TournamentShown
from sekigahara_tui.net.protocol import MAX_HOST_LINE, PROTOCOL_VERSION, BadMessage, Pong, Refused, encode, read_line_pinging

CLUB_ENV = "SEKIGAHARA_CLUB"
SESSION_ENV = "SEKIGAHARA_SESSION"
TLS_CA_ENV = "SEKIGAHARA_TLS_CA"  # set: SEKIGAHARA_CLUB is HOST:PORT, reached over TLS checked with this CA file
TOKEN_ENV = "SEKIGAHARA_TOKEN"  # a member's token, for `sekigahara club --connect HOST:PORT --member NAME`
REPLY_TIMEOUT = 30.0
# A quiet lobby connection pings this often: the club reaps connections
# silent for 45 s (hosting/game_server.py REAP_AFTER).
PING_EVERY = 15.0


class ClubRefused(Exception):
    """The club refused a request; str() is its one-line reason."""

    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind


class ClubClient:
    """A member's lobby connection. Requests are answered in order; a dropped
    connection (the club reaps silent ones) is opened again on the next one.

    Once the lobby has been asked for (`lobby()`), the club pushes the new
    lobby whenever it changes: `on_lobby(lobby)` is called with it, and
    `on_lost(reason)` when the connection drops (ask for the lobby again to
    follow it again). A reader task reads every line the club sends, and pings
    while nothing else is said, so the club does not reap a quiet lobby."""

    def __init__(
        self,
        socket_path: str | Path | None,
        session: str | None = None,
        member: str | None = None,
        *,
        token: str | None = None,
        tcp: tuple[str, int] | None = None,
        tls_ca: str | None = None,
        also: list[tuple[str, int]] | tuple = (),
    ) -> None:
        if (session is None) == (member is None):
            raise ValueError("give a session token or a member's name")
        if (socket_path is None) == (tcp is None):
            raise ValueError("give the club's socket or its TCP address")
        if tcp is not None and token is None and session is None:
            raise ValueError("over TCP a member's name needs the member's token")
        self.socket_path = None if socket_path is None else str(socket_path)
        self.tcp = tcp
        self.tls_ca = tls_ca  # over TCP with TLS: the CA file the club's certificate is checked against
        self.also = list(also)  # the club's other hosts (TCP): tried in turn, and known to the seats
        self._session = session
        self._member = member
        self._token = token
        self.member: str | None = None  # as the club names us, after connect()
        self.on_lobby: Callable[[Lobby], None] | None = None
        self.on_your_move: Callable[[YourMove], None] | None = None  # a decision passed to me in a game I am not in
        self.on_lost: Callable[[str], None] | None = None
        self.channel = ChatFeed()  # the club's chat channel, once asked for (channel_history)
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None
        self._reading: asyncio.Task | None = None
        self._waiting: tuple[Callable[[object], bool], str | None, asyncio.Future] | None = None
        self._farewell: str | None = None  # a refusal the club sent unasked: why it closes the connection
        self._lock = asyncio.Lock()

    @classmethod
    def from_environment(cls) -> ClubClient:
        """SEKIGAHARA_CLUB and SEKIGAHARA_SESSION, as a front end sets them (ValueError if missing)."""
        club, session = os.environ.get(CLUB_ENV), os.environ.get(SESSION_ENV)
        if not club or not session:
            raise ValueError(f"{CLUB_ENV} and {SESSION_ENV} must both be set (or give --data DIR --member NAME)")
        tls_ca = os.environ.get(TLS_CA_ENV)
        if tls_ca:  # a front on another machine: the club's HOST:PORT, over TLS (club/front_command.py)
            from sekigahara_tui.net.host_command import HostingError, parse_listen

            try:  # several hosts (HOST:PORT,HOST:PORT): the first opened the session
                hosts = [parse_listen(one) for one in club.split(",")]
            except HostingError:
                raise ValueError(f"{CLUB_ENV} must be HOST:PORT[,HOST:PORT...] with {TLS_CA_ENV}, not {club!r}") from None
            return cls(None, session=session, tcp=hosts[0], tls_ca=tls_ca, also=hosts[1:])
        return cls(club, session=session)

    @property
    def address(self) -> Address:
        """Where the lobby, the seats and the spectators connect."""
        return Address(unix=self.socket_path) if self.tcp is None else Address(tcp=self.tcp, tls_ca=self.tls_ca)

    @property
    def where(self) -> str:
        return self.socket_path if self.tcp is None else f"{self.tcp[0]}:{self.tcp[1]}"

    @property
    def connected(self) -> bool:
        return self._writer is not None and not self._writer.is_closing()

    async def connect(self) -> str:
        """Open the lobby connection; the member's name. ClubRefused, OSError."""
        await self._close_connection()
        if self.tcp is None:
            reader, writer = await asyncio.open_unix_connection(self.socket_path, limit=MAX_HOST_LINE)
        else:
            reader, writer = await self._open_tcp()
        self._reader, self._writer = reader, writer
        try:
            writer.write(club_encode(ClubHello(PROTOCOL_VERSION, self._session, self._member, self._token)))
            reply = await self._receive(reader)
            if not isinstance(reply, ClubWelcome):
                raise ClubRefused("protocol", f"unexpected answer from the club: {type(reply).__name__}")
        except BaseException:
            await self._close_connection()
            raise
        self.member = reply.member
        self._farewell = None
        self._reading = asyncio.get_running_loop().create_task(self._read(reader, writer))
        return reply.member

    async def _open_tcp(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """The first of the club's hosts that answers (it becomes `tcp`); the last one's OSError if none."""
        n, opened = await first_answering(hosts := [self.tcp, *self.also], lambda host, port: asyncio.open_connection(
            host, port, limit=MAX_HOST_LINE, **connect_options(host, self.tls_ca)))
        self.tcp, self.also = hosts[n], hosts[:n] + hosts[n + 1:]
        return opened

    @staticmethod
    async def _receive(reader: asyncio.StreamReader) -> object:
        async with asyncio.timeout(REPLY_TIMEOUT):  # not wait_for (3.11: a swallowed cancel)
            line = await reader.readline()
        if not line:
            raise ConnectionResetError("the club closed the connection")
        try:
            message = decode_club_host_message(line)
        except BadMessage as error:
            raise ClubRefused("protocol", f"the club sent a bad message: {error}") from None
        if isinstance(message, Refused):
            raise ClubRefused(message.kind, message.reason)
        return message

    async def _read(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Every line after the welcome: pushes to on_lobby, replies to the
        request waiting for them; a ping after PING_EVERY of silence, and the
        connection given up after a second silence (the club answers pings)."""
        reason = "the club closed the connection"
        try:
            while True:
                try:
                    line = await read_line_pinging(reader, writer, PING_EVERY)
                except TimeoutError:
                    reason = f"no word from the club for {PING_EVERY * 2:.0f} s"
                    break
                if not line:
                    reason = self._farewell or reason
                    break
                try:
                    message = decode_club_host_message(line)
                except BadMessage as error:
                    reason = f"the club sent a bad message: {error}"
                    break
                self._take(message)
        except (ConnectionError, OSError) as error:
            reason = f"connection lost: {error.strerror or type(error).__name__}"
        except asyncio.CancelledError:
            reason = "closed"
            raise
        finally:
            writer.close()
            if self._writer is writer:
                self._writer = self._reader = None
            self._fail_waiting(ConnectionResetError(reason))
            if reason != "closed" and self.on_lost is not None:
                self.on_lost(reason)

    def _take(self, message: object) -> None:
        if isinstance(message, Refused) and message.id is None:
            self._farewell = message.reason  # why the club is about to close (the member was removed, say)
        if isinstance(message, LobbyChanged):
            if self.on_lobby is not None:
                self.on_lobby(message.lobby())
            return
        if isinstance(message, YourMove):
            if self.on_your_move is not None:
                self.on_your_move(message)
            return
        if isinstance(message, (ChatLine, ChatDeleted)) and message.game is None:
            self.channel.take(message)  # a reply to say() is its future's too
        if self._waiting is None or isinstance(message, Pong):
            return  # an answer to a request given up (timed out, cancelled)
        answers, request_id, future = self._waiting
        if future.done():
            return
        if isinstance(message, Refused):
            if message.id is None or message.id == request_id:  # not another request's
                future.set_exception(ClubRefused(message.kind, message.reason))
        elif answers(message):
            future.set_result(message)

    def _fail_waiting(self, error: Exception) -> None:
        if self._waiting is not None and not self._waiting[2].done():
            self._waiting[2].set_exception(error)

    async def _request(self, message: object, answers: Callable[[object], bool]) -> object:
        """Send `message` and return the reply that `answers` it. A reply to an
        earlier request (one that timed out or was cancelled) is skipped, and a
        timeout closes the connection, so no late reply is ever taken for another's."""
        async with self._lock:
            for attempt in (1, 2):
                try:
                    if not self.connected:
                        await self.connect()
                    assert self._writer is not None
                    future = asyncio.get_running_loop().create_future()
                    self._waiting = (answers, getattr(message, "id", None), future)
                    try:
                        self._writer.write(club_encode(message))
                        await self._writer.drain()
                        async with asyncio.timeout(REPLY_TIMEOUT):  # not wait_for (3.11: a swallowed cancel)
                            return await future
                    finally:
                        self._waiting = None
                except asyncio.TimeoutError:
                    await self._close_connection()
                    raise
                except (ConnectionError, OSError, asyncio.IncompleteReadError):
                    await self._close_connection()
                    if attempt == 2:
                        raise
            raise AssertionError("unreachable")

    async def lobby(self) -> Lobby:
        """The lobby; from then on this connection follows it (on_lobby)."""
        reply = await self._request(ListGames(), lambda reply: isinstance(reply, Lobby))
        assert isinstance(reply, Lobby)
        return reply

    async def new_game(self, side: Side | None, opponent: str, level: str | None = None,
                       clock: str = "none", on_time_out: str = "lose", *,
                       invite: str | None = None, private: bool = False, rated: bool = False) -> Entry:
        """A new game; against the computer, at `level` (None: level 1); with a clock preset, and what a
        side out of time meets; `invite`: the member its open seat is for; `private`: watched by its players only;
        `rated`: it counts for both players' ratings."""
        return await self._entry(NewGame(_fresh_id(), side, opponent, level, clock, on_time_out, invite, private, rated))

    async def ratings(self, player: str | None = None) -> Ratings:
        """The club's ratings, and `player`'s history (None: mine)."""
        message = GetRatings(_fresh_id(), player)
        return await self._request(message, lambda reply: isinstance(reply, Ratings) and reply.reply_to == message.id)

    async def rematch(self, game: str) -> Entry:
        """After my finished game: the same opponent invited to a new one, sides swapped."""
        return await self._entry(Rematch(_fresh_id(), game))

    async def record(self, game: str) -> str:
        """A finished game's record (JSON), for its replay."""
        message = GetRecord(_fresh_id(), game)
        reply = await self._request(message, lambda reply: isinstance(reply, Record) and reply.reply_to == message.id)
        return reply.record

    async def decline(self, game: str) -> None:
        """Decline an invitation to me: the game is withdrawn, its maker told."""
        message = DeclineGame(_fresh_id(), game)
        await self._request(message, lambda reply: isinstance(reply, Withdrawn) and reply.reply_to == message.id)

    async def join(self, game: str) -> Entry:
        return await self._entry(JoinGame(_fresh_id(), game))

    async def withdraw(self, game: str) -> None:
        """Withdraw an open game of mine nobody has joined (ClubRefused if it
        cannot be: joined meanwhile, not mine, unknown)."""
        message = WithdrawGame(_fresh_id(), game)
        await self._request(message, lambda reply: isinstance(reply, Withdrawn) and reply.reply_to == message.id)

    async def enter(self, game: str) -> Entry:
        return await self._entry(Enter(_fresh_id(), game))

    async def watch(self, game: str) -> Entry:
        return await self._entry(Watch(_fresh_id(), game))

    async def notices(self) -> Notices:
        """My notice settings."""
        message = GetNotices(_fresh_id())
        return await self._request(message, lambda reply: isinstance(reply, Notices) and reply.reply_to == message.id)

    async def set_notices(self, webhook: str | None, webhook_format: str, mail: str | None, kinds: tuple[str, ...]) -> Notices:
        """Set my notice settings, all at once (ClubRefused, one line, if the club will not take them)."""
        message = SetNotices(_fresh_id(), webhook, webhook_format, mail, tuple(kinds))
        return await self._request(message, lambda reply: isinstance(reply, Notices) and reply.reply_to == message.id)

    async def vacation(self, days: int | None = None) -> Vacation:
        """My vacation; with `days`, take that many days away first (ClubRefused, one line, if not allowed)."""
        message = GetVacation(_fresh_id()) if days is None else TakeVacation(_fresh_id(), days)
        return await self._request(message, lambda reply: isinstance(reply, Vacation) and reply.reply_to == message.id)

    async def tournament(self, message: object) -> object:
        """A tournament request (club/protocol_tournaments.py; its `id` fresh) and its answer:
        `tournament`, or for GetTournament without a name `tournaments`; ClubRefused, one line."""
        return await self._request(message, lambda reply: isinstance(reply, (TournamentShown, TournamentList))
                                   and reply.reply_to == message.id)
    async def channel_history(self) -> ChatLines:
        """The club channel's newest lines; from then on this connection follows the channel (`channel`)."""
        message = GetChat(_fresh_id())
        reply = await self._request(message, lambda reply: isinstance(reply, ChatLines) and reply.reply_to == message.id)
        self.channel.take(reply)
        return reply

    async def game_chat(self, game: str) -> ChatLines:
        """The chat of a game I play or played (its replay; ClubRefused for another's)."""
        message = GetChat(_fresh_id(), game)
        return await self._request(message, lambda reply: isinstance(reply, ChatLines) and reply.reply_to == message.id)

    async def say(self, text: str) -> ChatLine:
        """A line in the club's channel (ClubRefused, one line, if the club will not take it)."""
        message = ChatSay(_fresh_id(), text)
        return await self._request(message, lambda reply: isinstance(reply, ChatLine) and reply.reply_to == message.id)

    async def _entry(self, message: NewGame | JoinGame | Enter | Watch | Rematch) -> Entry:
        reply = await self._request(message, lambda reply: isinstance(reply, Entry) and reply.reply_to == message.id)
        return reply

    def seat_client(self, entry: Entry, listener=None, **options) -> ClubSeatClient:
        assert entry.seat is not None
        return ClubSeatClient(self.address, entry.game, entry.seat, entry.token, listener, **self._others(options))

    def watch_client(self, entry: Entry, listener=None, **options) -> WatchClient:
        return WatchClient(self.address, entry.game, entry.token, listener, **self._others(options))

    def _others(self, options: dict) -> dict:
        """A seat or spectator knows the club's other hosts too: a host lost, it reconnects to another."""
        return {"also": [Address(tcp=host, tls_ca=self.tls_ca) for host in self.also], **options}

    async def _close_connection(self) -> None:
        writer, self._writer, self._reader = self._writer, None, None
        reading, self._reading = self._reading, None
        if reading is not None and reading is not asyncio.current_task():
            reading.cancel()
            await asyncio.gather(reading, return_exceptions=True)
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


class WatchClient(Client):
    """A spectator: a Client whose every connection opens with watch_game (its
    own first line, with the last version it holds). It receives the public
    view (Ishida's chair, nothing hidden of either side), the events both
    sides see and the count-only twins of private ones (rules.view.events_for);
    it cannot play."""

    def __init__(self, address: Address, game: str, token: str, listener=None, **options) -> None:
        def watch_game(seen: int | None) -> bytes:
            return club_encode(WatchGame(PROTOCOL_VERSION, game, token, seen))

        super().__init__(address, game, Side.ISHIDA, token, listener, opening=watch_game, **options)


# What a seat hears of its requests to end the game early: (one line, an
# error?, a proposal of the other side's to answer?).
EndingFollower = Callable[[str, bool, bool], None]


class ClubSeatClient(Client):
    """A club seat: a Client that also reads the club's messages, and may
    resign, or propose, accept or decline cancelling its game (hosting/results.py).
    These are not resent after a reconnect: an end is asked for once, by hand."""

    def __init__(self, address: Address, game: str, side: Side, token: str, listener=None, **options) -> None:
        super().__init__(address, game, side, token, listener, decode=decode_club_host_message, **options)
        self.proposal: CancelProposal | None = None  # the proposal to cancel that stands (its side proposed)
        self.clocks: ClockLine | None = None  # both clocks, as last told (hosting/game_clocks.py)
        self.clocks_at = 0.0  # when they were told (time.monotonic): a running clock counts down from it
        self._end_requests: set[str] = set()
        self.follower: EndingFollower | None = None
        self.chat = ChatFeed()  # the game's chat with the other player (screens/chat.py)

    def resign(self) -> str | None:
        """Give up: the other side wins. The message id; None if not connected."""
        return self._ask(Resign(self._fresh_id()))

    def propose_cancel(self) -> str | None:
        return self._ask(ProposeCancel(self._fresh_id()))

    def answer_cancel(self, accept: bool) -> str | None:
        return self._ask(AnswerCancel(self._fresh_id(), accept))

    def say(self, text: str) -> str | None:
        """A line to the other player; the message id, None if not connected."""
        message = ChatSay(self._fresh_id(), text)
        if not self._write_line(club_encode(message)):
            return None
        self.chat.said(message.id)
        return message.id

    def ask_chat(self) -> bool:
        """Ask for the game chat's newest lines (they come to `chat`); False if not connected."""
        return self._write_line(club_encode(GetChat(self._fresh_id())))

    def _ask(self, message: Resign | ProposeCancel | AnswerCancel) -> str | None:
        if not self._write_line(club_encode(message)):
            return None
        self._end_requests.add(message.id)
        return message.id

    def _receive(self, message: object) -> None:
        if isinstance(message, ClockLine):
            self.clocks, self.clocks_at = message, time.monotonic()
            self._notify()
            return
        if self.chat.take(message):
            self._notify()
            return
        if not isinstance(message, CancelProposal):
            super()._receive(message)
            return
        self._end_requests.discard(message.reply_to or "")
        self.proposal = message if message.side is not None else None
        if self.follower is not None:
            self.follower(message.note, False, message.side is self.side.other)
        self._notify()

    def _take_refusal(self, refusal: Refused) -> None:
        if self.chat.refused(refusal.id, refusal.reason):
            self._notify()
            return
        if refusal.id is not None and refusal.id in self._end_requests:
            self._end_requests.discard(refusal.id)
            if self.follower is not None:
                self.follower(refusal.reason, True, False)
        super()._take_refusal(refusal)


__all__ = ["CLUB_ENV", "SESSION_ENV", "ClubClient", "ClubRefused", "ClubSeatClient", "WatchClient", "encode"]
