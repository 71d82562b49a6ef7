"""The club's door for fronts on other machines (issue 28): a connection over
TLS that begins with `front_hello` and a front's credential
(hosting/front_credentials.py), then asks what the club decides
(club/protocol_fronts.py, docs/protocol.md).

Every question is answered by the same LocalLink the fronts inside `serve`
ask (club/front_link.py): the keys, web tokens, guests, caps and sessions
are the club's, and a front's audit lines go into the club's log, with the
front's name. The credential is looked up again before every request, so a
revoked front is refused (and disconnected) at its next question; when a
front's connection ends, the caps' places and the sessions it held are
given back. A member removed or a web token replaced is pushed to every
front connected (`front_revoked`, `front_signed_out`).
"""

from __future__ import annotations

from sekigahara_tui.club.front_link import LocalLink
from sekigahara_tui.club.protocol_fronts import (
    FrontAudit,
    FrontClose,
    FrontGuest,
    FrontHeld,
    FrontHello,
    FrontHold,
    FrontKey,
    FrontMember,
    FrontOpen,
    FrontRelease,
    FrontRevoked,
    FrontSession,
    FrontSignedOut,
    FrontWebGeneration,
    FrontWebSignIn,
    FrontWelcome,
    encode,
)
from sekigahara_tui.hosting import front_credentials
from sekigahara_tui.hosting.connections import Connection
from sekigahara_tui.net.protocol import PROTOCOL_VERSION, Ping, Pong, Refused

WRONG_CREDENTIAL = "wrong or revoked front credential"
REVOKED_CREDENTIAL = "this front's credential was revoked"
TLS_ONLY = "a front connects over TLS only (serve --listen with --tls-cert and --tls-key)"


def _send(connection: Connection, message: object) -> None:
    if not connection.writer.is_closing():
        connection.send_line(encode(message))


class FrontDoor:
    """Opens a FrontConnection for a front whose credential is good."""

    def __init__(self, link: LocalLink) -> None:
        self.link = link

    def refuse(self, connection: Connection, reason: str, front: str | None = None) -> bool:
        connection.send(Refused(None, "not-authorised", reason))
        self.link.audit("refused", reason, front="front", name=front, address=connection.address)
        return False

    def open(self, connection: Connection, message: FrontHello) -> bool:
        if connection.writer.get_extra_info("ssl_object") is None:
            return self.refuse(connection, TLS_ONLY)
        if message.version != PROTOCOL_VERSION:
            connection.send(Refused(None, "protocol", f"protocol version {message.version}; the club speaks {PROTOCOL_VERSION}"))
            return False
        name = front_credentials.front_of(self.link.data_dir, message.credential)
        if name is None:
            return self.refuse(connection, WRONG_CREDENTIAL, message.credential.partition(":")[0][:32] or None)
        connection.session = FrontConnection(self.link, name, front_credentials.fingerprint(self.link.data_dir, name))
        _send(connection, FrontWelcome(name, self.link.guests))
        self.link.audit("front-connected", front="front", name=name, address=connection.address)
        connection.session.follow(connection)
        return True


class FrontConnection:
    """One front's connection: its requests answered, what it holds given back at its end."""

    forgives_long_lines = False

    def __init__(self, link: LocalLink, name: str, fingerprint: bytes | None) -> None:
        self.link = link
        self.name = name
        self.fingerprint = fingerprint  # of the credential it said: revoked or replaced, it is refused
        self.held: dict[str, int] = {}  # member -> caps' places this front holds
        self.sessions: set[str] = set()
        self._revoke = self._sign_out = None

    def follow(self, connection: Connection) -> None:
        self._revoke = lambda member: _send(connection, FrontRevoked(member))
        self._sign_out = lambda member, generation: _send(connection, FrontSignedOut(member, generation))
        self.link.follow_revocations(self._revoke)
        self.link.follow_sign_outs(self._sign_out)

    async def take(self, connection: Connection, message: object) -> bool:
        if front_credentials.fingerprint(self.link.data_dir, self.name) != self.fingerprint:  # a ping too: an idle front goes within 15 s
            connection.send(Refused(None, "not-authorised", REVOKED_CREDENTIAL))
            self.link.audit("refused", REVOKED_CREDENTIAL, front="front", name=self.name, address=connection.address)
            return False
        if isinstance(message, Ping):
            connection.send(Pong())
            return True
        answer = await self._answer(message)
        if answer is not None:
            _send(connection, answer)
        return True

    async def _answer(self, message: object) -> object | None:
        link = self.link
        if isinstance(message, FrontKey):
            return FrontMember(message.id, await link.member_for_key(message.key, message.user))
        if isinstance(message, FrontGuest):
            return FrontMember(message.id, await link.guest_for(message.user))
        if isinstance(message, FrontWebSignIn):
            generation = await link.web_sign_in(message.member, message.token)
            return FrontMember(message.id, message.member if generation else None, generation)
        if isinstance(message, FrontWebGeneration):
            return FrontMember(message.id, message.member, await link.web_generation(message.member))
        if isinstance(message, FrontHold):
            refusal = await link.hold(message.member)
            if refusal is None:
                self.held[message.member] = self.held.get(message.member, 0) + 1
            return FrontHeld(message.id, refusal)
        if isinstance(message, FrontRelease):
            if self.held.get(message.member):  # only what this front holds
                self.held[message.member] -= 1
                link.release(message.member)
            return None
        if isinstance(message, FrontOpen):
            try:
                session = await link.open_session(message.member, message.web_generation)
            except Exception as error:  # the club's refusal (NotAMember), in one line
                return Refused(message.id, "not-authorised", str(error))
            self.sessions.add(session)
            return FrontSession(message.id, session)
        if isinstance(message, FrontClose):
            if message.session in self.sessions:  # only a session this front opened
                self.sessions.discard(message.session)
                await link.close_session(message.session)
            return None
        if isinstance(message, FrontAudit):
            fields = {name: value for name, value in message.fields.items() if name not in ("event", "reason", "via")}
            link.audit(message.event, message.reason, **fields, via=self.name)
            return None
        return Refused(getattr(message, "id", None), "protocol", "a front's connection takes front_* requests only")

    def closed(self, connection: Connection) -> None:
        self.link.unfollow_revocations(self._revoke)
        self.link.unfollow_sign_outs(self._sign_out)
        for member, count in self.held.items():
            for _ in range(count):
                self.link.release(member)
        for session in self.sessions:
            self.link.club.close_session(session)
        self.link.audit("front-disconnected", f"{len(self.sessions)} sessions closed", front="front", name=self.name,
                        address=connection.address)
