"""A front on another machine asks the club over TLS (issue 28): the same
questions as LocalLink (club/front_link.py), as the requests of
club/protocol_fronts.py on one connection that begins with the front's
credential.

Requests are answered in the order asked (each waits for its reply_to); the
club's pushes (a member removed, a web token replaced) are passed to the
fronts that follow them. A connection lost is opened again with back-off,
to the first of the club's hosts (`hosts`: serve processes over one
PostgreSQL) that answers, the one lost last; meanwhile a sign-in is refused
and a session cannot open ("the club is not answering"). A credential the
club refuses ends the link for good (`ended`). The sessions' client
processes connect to the club themselves, over TLS, with the session the
club opened, and know every host (`child_env`): no member's key or token is
kept here. Sessions live in the memory of the host that opened them, so a
host lost ends the lobby connections of the sessions opened there; their
seats reconnect to another host with their seat tokens (docs/club.md).
"""

from __future__ import annotations

import asyncio
import itertools
import random
from typing import Callable

from sekigahara_tui.club.client import CLUB_ENV, PING_EVERY, TLS_CA_ENV, ClubClient
from sekigahara_tui.club.protocol_fronts import (
    FrontAudit,
    FrontClose,
    FrontGuest,
    FrontHello,
    FrontHold,
    FrontKey,
    FrontOpen,
    FrontRelease,
    FrontRevoked,
    FrontSignedOut,
    FrontWebGeneration,
    FrontWebSignIn,
    FrontWelcome,
    decode_front_answer,
    encode,
)
from sekigahara_tui.hosting.web_tokens import MEMBER_NAME
from sekigahara_tui.net.protocol import MAX_HOST_LINE, PROTOCOL_VERSION, BadMessage, Refused, read_line_pinging
from sekigahara_tui.net.client import first_answering
from sekigahara_tui.net.tls import connect_options

REPLY_TIMEOUT = 30.0
FIRST_RETRY, LONGEST_RETRY = 0.5, 10.0
NOT_ANSWERING = "the club is not answering"


class FrontRefused(Exception):
    """The club refused this front (its credential) or a request; one line."""


class RemoteLink:
    def __init__(self, hosts: list[tuple[str, int]], ca_file: str, credential: str) -> None:
        if not hosts:
            raise ValueError("a front needs at least one of the club's hosts")
        self.hosts = list(hosts)  # tried in this order; the one that answered is first
        self.ca_file = ca_file
        self._credential = credential
        self.name: str | None = None
        self.guests = False
        self.ended: str | None = None  # why the club will not have this front any more
        self.done = asyncio.Event()  # set when it has ended
        self._writer: asyncio.StreamWriter | None = None
        self._ids = itertools.count(1)
        self._waiting: dict[str, asyncio.Future] = {}
        self._revokes: list[Callable[[str], None]] = []
        self._sign_outs: list[Callable[[str, str], None]] = []
        self._running: asyncio.Task | None = None

    # --- the connection ---------------------------------------------------------

    async def connect(self) -> str:
        """The first connection: the front's name as the club knows it.
        FrontRefused (the credential), OSError (unreachable, TLS) in one line."""
        reader = await self._open()
        self._running = asyncio.get_running_loop().create_task(self._run(reader))
        return self.name or ""

    @property
    def host(self) -> str:
        return self.hosts[0][0]

    @property
    def port(self) -> int:
        return self.hosts[0][1]

    async def _open(self) -> asyncio.StreamReader:
        """The first host that answers, in order, moved to the front; the last
        host's error if none does (a refusal of the credential is not tried further)."""
        n, reader = await first_answering(list(self.hosts), self._open_one)
        self.hosts.insert(0, self.hosts.pop(n))
        return reader

    async def _open_one(self, host: str, port: int) -> asyncio.StreamReader:
        reader, writer = await asyncio.open_connection(host, port, limit=MAX_HOST_LINE, **connect_options(host, self.ca_file))
        try:
            writer.write(encode(FrontHello(PROTOCOL_VERSION, self._credential)))
            async with asyncio.timeout(REPLY_TIMEOUT):
                line = await reader.readline()
            if not line:
                raise ConnectionResetError("the club closed the connection")
            welcome = decode_front_answer(line)
            if isinstance(welcome, Refused):
                raise FrontRefused(welcome.reason)
            if not isinstance(welcome, FrontWelcome):
                raise FrontRefused(f"unexpected answer from the club: {type(welcome).__name__}")
        except BadMessage as error:
            writer.close()
            raise FrontRefused(f"the club sent a bad message: {error}") from None
        except BaseException:
            writer.close()
            raise
        self.name, self.guests, self._writer = welcome.name, welcome.guests, writer
        return reader

    async def _run(self, reader: asyncio.StreamReader) -> None:
        """Read, then open again after a loss, until the club refuses this front or close()."""
        retry = FIRST_RETRY
        while True:
            reason = await self._read(reader)
            self._writer = None
            for future in self._waiting.values():
                if not future.done():
                    future.set_exception(ConnectionResetError(NOT_ANSWERING))
            self._waiting.clear()
            if reason is not None:
                return self._end(reason)
            while True:
                await asyncio.sleep(retry * random.uniform(0.5, 1.0))
                try:
                    reader = await self._open()
                    retry = FIRST_RETRY
                    break
                except FrontRefused as refusal:
                    return self._end(str(refusal))
                except (OSError, TimeoutError):
                    retry = min(LONGEST_RETRY, retry * 2)

    def _end(self, reason: str) -> None:
        self.ended = reason
        self.done.set()

    async def _read(self, reader: asyncio.StreamReader) -> str | None:
        """Lines until the connection ends: None if lost, the club's reason if it refused this front."""
        while True:
            try:
                line = await read_line_pinging(reader, self._writer, PING_EVERY)
            except (TimeoutError, ConnectionError, OSError):
                return None
            if not line:
                return None
            try:
                message = decode_front_answer(line)
            except BadMessage:
                return None
            if isinstance(message, Refused) and message.id is None:
                return message.reason  # the credential revoked: the club closes this front's connection
            self._take(message)

    def _take(self, message: object) -> None:
        if isinstance(message, FrontRevoked):
            for revoke in list(self._revokes):
                revoke(message.member)
        elif isinstance(message, FrontSignedOut):
            for sign_out in list(self._sign_outs):
                sign_out(message.member, message.generation)
        else:
            future = self._waiting.pop(str(getattr(message, "reply_to", None) or getattr(message, "id", None)), None)
            if future is not None and not future.done():
                if isinstance(message, Refused):
                    future.set_exception(FrontRefused(message.reason))
                else:
                    future.set_result(message)

    async def _ask(self, make: Callable[[str], object]) -> object:
        if self._writer is None or self._writer.is_closing():
            raise ConnectionResetError(NOT_ANSWERING)
        request_id = str(next(self._ids))
        line = encode(make(request_id))  # ValueError if a field cannot go on the wire
        future = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = future
        self._writer.write(line)
        try:
            async with asyncio.timeout(REPLY_TIMEOUT):
                return await future
        finally:
            self._waiting.pop(request_id, None)

    def _note(self, message: object) -> None:
        if self._writer is not None and not self._writer.is_closing():
            self._writer.write(encode(message))

    async def close(self) -> None:
        if self._running is not None:
            self._running.cancel()
            await asyncio.gather(self._running, return_exceptions=True)
        if self._writer is not None:
            self._writer.close()

    # --- what the fronts ask (LocalLink's questions) --------------------------------

    async def _member(self, make: Callable[[str], object]) -> object | None:
        try:
            return await self._ask(make)
        except (OSError, TimeoutError, FrontRefused, ValueError):  # no answer signs nobody in
            return None

    async def member_for_key(self, key: str, user: str) -> str | None:
        answer = await self._member(lambda i: FrontKey(i, key, user[:64]))
        return getattr(answer, "member", None)

    async def guest_for(self, user: str) -> str | None:
        answer = await self._member(lambda i: FrontGuest(i, user[:64]))
        return getattr(answer, "member", None)

    async def web_sign_in(self, member: str, token: str) -> str | None:
        if not MEMBER_NAME.fullmatch(member) or not token or len(token) > 200 or not token.isprintable():
            return None
        answer = await self._member(lambda i: FrontWebSignIn(i, member, token))
        return getattr(answer, "generation", None)

    async def web_generation(self, member: str) -> str | None:
        if not MEMBER_NAME.fullmatch(member):
            return None
        answer = await self._member(lambda i: FrontWebGeneration(i, member))
        return getattr(answer, "generation", None)

    async def hold(self, member: str) -> str | None:
        try:
            answer = await self._ask(lambda i: FrontHold(i, member))
        except (OSError, TimeoutError):
            return "The club is not answering: try again in a moment."
        return answer.refusal

    def release(self, member: str) -> None:
        self._note(FrontRelease(member))

    async def open_session(self, member: str, web_generation: str | None = None) -> str:
        answer = await self._ask(lambda i: FrontOpen(i, member, web_generation))
        return answer.session

    async def close_session(self, token: str) -> None:
        self._note(FrontClose(token))

    def child_env(self) -> dict[str, str]:
        """Every host, the one this front is connected to first (it opened the session)."""
        return {CLUB_ENV: ",".join(f"{host}:{port}" for host, port in self.hosts), TLS_CA_ENV: str(self.ca_file)}

    def client(self, session: str) -> ClubClient:
        return ClubClient(None, session=session, tcp=self.hosts[0], tls_ca=str(self.ca_file), also=self.hosts[1:])

    def audit(self, event: str, reason: str = "", **fields: object) -> None:
        """A line of the club's audit log (the club adds this front's name)."""
        given = {name: str(value)[:300] for name, value in fields.items() if value is not None and name.isidentifier()}
        self._note(FrontAudit(event[:40], reason[:300], dict(list(given.items())[:8])))

    def follow_revocations(self, revoke: Callable[[str], None]) -> None:
        self._revokes.append(revoke)

    def unfollow_revocations(self, revoke: Callable[[str], None]) -> None:
        if revoke in self._revokes:
            self._revokes.remove(revoke)

    def follow_sign_outs(self, sign_out: Callable[[str, str], None]) -> None:
        self._sign_outs.append(sign_out)

    def unfollow_sign_outs(self, sign_out: Callable[[str, str], None]) -> None:
        if sign_out in self._sign_outs:
            self._sign_outs.remove(sign_out)
