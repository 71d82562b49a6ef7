"""Signing in to the club's web front (issue 23, item 1): a plain HTML form,
answered in the server's process, so a stranger costs no client process.

A good name and web token (hosting/web_tokens.py) get a cookie: the member's
name and their token's generation, signed with the club's secret and dated
(itsdangerous), HttpOnly, SameSite=Strict, Secure behind TLS, good for
COOKIE_DAYS. A new token (`member web-token NAME --rotate`) or the member's
removal changes the generation, and every browser of theirs is signed out:
its cookie signs nobody in, and a page open is closed (web_front.py).
Failed sign-ins are slowed (web_tokens.FAILED_SIGN_IN_DELAY) and counted per
address (hosting/limits.py, FailedSignIns): past FAILURES_ALLOWED in
FAILURE_WINDOW seconds that address is refused without a check until the
window has passed.
"""

from __future__ import annotations

import html
from typing import Awaitable, Callable

from itsdangerous import BadSignature, URLSafeTimedSerializer

from sekigahara_tui.hosting import web_tokens

COOKIE_NAME = "sekigahara_session"
COOKIE_DAYS = 14

SIGN_IN_PAGE = """<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>Sign in: Sekigahara club</title>
    <style>
      body {{ background: #0c181f; color: rgba(255, 255, 255, 0.95); font-family: menlo, monospace;
        display: flex; align-items: center; justify-content: center; height: 100vh; margin: 0; }}
      form {{ background: #12232d; padding: 32px; width: 420px; }}
      label, input, button {{ display: block; width: 100%; box-sizing: border-box; margin-top: 8px; }}
      input {{ padding: 8px; font-family: inherit; }}
      button {{ padding: 12px; margin-top: 20px; background: #5e0ba7; color: white; border: none; font-family: inherit; }}
      .error {{ color: #ff8a80; }}
    </style>
  </head>
  <body>
    <form method="post" action="{action}">
      <h1>Sekigahara club</h1>
      <p>Sign in with your member name and the web token your club gave you
      (<code>sekigahara member web-token NAME</code>).</p>
      <p class="error" role="alert">{error}</p>
      <label for="member">Member name</label>
      <input id="member" name="member" autocomplete="username" required maxlength="32" value="{member}" autofocus />
      <label for="token">Web token</label>
      <input id="token" name="token" type="password" autocomplete="current-password" required maxlength="200" />
      <button type="submit">Sign in</button>
    </form>
  </body>
</html>
"""


def sign_in_page(action: str, error: str = "", member: str = "") -> str:
    return SIGN_IN_PAGE.format(action=html.escape(action), error=html.escape(error), member=html.escape(member))


class Cookies:
    """Signed, dated sign-in cookies bound to the member's current token.
    generation_of(member): the club's answer, their web token's generation now
    (front_link.py: in this process, or over a front's TLS connection)."""

    def __init__(self, secret: bytes, generation_of: Callable[[str], Awaitable[str | None]]) -> None:
        self.generation_of = generation_of
        self._serializer = URLSafeTimedSerializer(secret, salt="sekigahara web sign-in")

    def make(self, member: str, generation: str) -> str:
        """The cookie of a sign-in with the web token of that generation."""
        return self._serializer.dumps({"member": member, "generation": generation})

    async def member(self, cookie: str | None) -> str | None:
        """The member a cookie signs in, or None: forged, expired, or their token changed since."""
        signed_in = await self.signed_in(cookie)
        return signed_in[0] if signed_in is not None else None

    async def signed_in(self, cookie: str | None) -> tuple[str, str] | None:
        """(member, their web token's generation) a cookie signs in, or None (as member())."""
        if not cookie or len(cookie) > 1000:
            return None
        try:
            data = self._serializer.loads(cookie, max_age=COOKIE_DAYS * 86400)
        except BadSignature:  # SignatureExpired is one
            return None
        if not isinstance(data, dict):
            return None
        member, generation = data.get("member"), data.get("generation")
        if not isinstance(member, str) or not isinstance(generation, str) or not web_tokens.MEMBER_NAME.fullmatch(member):
            return None
        if await self.generation_of(member) != generation:
            return None
        return member, generation
