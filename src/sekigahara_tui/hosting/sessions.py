"""Session tokens: how a front end (SSH, web) vouches for a member.

The front end runs inside the club server's process. When a member signs in
it calls `club.open_session(member)` (ClubServer, or Sessions.open_session)
and starts the client process (`sekigahara club`) with the token in
SEKIGAHARA_SESSION and the club socket in SEKIGAHARA_CLUB. The client says
`club_hello` with the token; the server looks it up here. Tokens live in
memory only (a restarted server forgets them, and its front ends' sessions
with it), expire after `lifetime` seconds, and should be closed by the front
end when its session ends (`close_session`). A token may be used for several
connections while it lives: the client reconnects after a dropped connection.
"""

from __future__ import annotations

import hmac
import secrets
import time

DEFAULT_LIFETIME = 24 * 60 * 60.0


class Sessions:
    def __init__(self, lifetime: float = DEFAULT_LIFETIME) -> None:
        self.lifetime = lifetime
        self._tokens: dict[str, tuple[str, float]] = {}  # token -> (member, expires)

    def open_session(self, member: str) -> str:
        """A fresh token that signs `member` in until it expires or is closed."""
        self._forget_expired()
        token = secrets.token_urlsafe(32)
        self._tokens[token] = (member, time.monotonic() + self.lifetime)
        return token

    def close_session(self, token: str) -> None:
        self._tokens.pop(token, None)

    def member_for(self, token: str) -> str | None:
        """The member the token signs in, None if it is unknown or expired."""
        found = None
        for known, (member, expires) in list(self._tokens.items()):
            # compare every token in constant time, not a dict lookup by the secret
            if hmac.compare_digest(known.encode(), token.encode()) and expires > time.monotonic():
                found = member
        return found

    def _forget_expired(self) -> None:
        now = time.monotonic()
        for token, (_, expires) in list(self._tokens.items()):
            if expires <= now:
                del self._tokens[token]

    def __len__(self) -> int:
        return len(self._tokens)
