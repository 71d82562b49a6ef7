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

A token is bound to the member's generation (generations.py) when it is
opened: the lobby checks it is still theirs at every club_hello, and a
removed member's tokens are dropped (`revoke`). A browser's session is also
bound to the web token its sign-in cookie was made with: a new web token drops
it (`sign_out`); an SSH session (signed in by key) has none and stays.
"""

from __future__ import annotations

import hmac
import secrets
import time

DEFAULT_LIFETIME = 24 * 60 * 60.0


class Sessions:
    def __init__(self, lifetime: float = DEFAULT_LIFETIME) -> None:
        self.lifetime = lifetime
        # token -> (member, generation, web token's generation or None, expires)
        self._tokens: dict[str, tuple[str, str, str | None, float]] = {}

    def open_session(self, member: str, generation: str, web_generation: str | None = None) -> str:
        """A fresh token that signs `member` (of `generation`) in until it
        expires, is closed, the member is revoked, or (web_generation: signed
        in with that web token) their web token is replaced."""
        self._forget_expired()
        token = secrets.token_urlsafe(32)
        self._tokens[token] = (member, generation, web_generation, time.monotonic() + self.lifetime)
        return token

    def close_session(self, token: str) -> None:
        self._tokens.pop(token, None)

    def member_for(self, token: str) -> tuple[str, str, str | None] | None:
        """(member, generation, web token's generation or None) the token signs
        in, None if it is unknown or expired."""
        found = None
        for known, (member, generation, web_generation, expires) in list(self._tokens.items()):
            # compare every token in constant time, not a dict lookup by the secret
            if hmac.compare_digest(known.encode(), token.encode()) and expires > time.monotonic():
                found = (member, generation, web_generation)
        return found

    def revoke(self, member: str) -> int:
        """Drop every token of the member; how many there were."""
        return self._drop(lambda name, _: name == member)

    def sign_out(self, member: str, web_generation: str) -> int:
        """Drop the member's tokens signed in with a web token other than
        `web_generation` (theirs now); how many there were."""
        return self._drop(lambda name, signed_with: name == member and signed_with not in (None, web_generation))

    def _drop(self, which) -> int:
        gone = [token for token, (name, _, signed_with, _) in self._tokens.items() if which(name, signed_with)]
        for token in gone:
            del self._tokens[token]
        return len(gone)

    def _forget_expired(self) -> None:
        now = time.monotonic()
        for token, (_, _, _, expires) in list(self._tokens.items()):
            if expires <= now:
                del self._tokens[token]

    def __len__(self) -> int:
        return len(self._tokens)
