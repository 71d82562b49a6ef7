"""What the SSH and web fronts ask of the club, in one small interface with
two implementations (issue 28):

- LocalLink, here: the fronts inside `serve`, and the club's side of a front
  on another machine (hosting/front_door.py answers such a front's requests
  with a LocalLink), so every decision is made by this one piece of code;
- RemoteLink (club/remote_link.py): a front on another machine asks the club
  the same questions over its TLS connection.

Who a key or a web token signs in (a guest too, if the club lets guests
in), the session caps (club/session_caps.py), the session a client process
carries (SEKIGAHARA_SESSION), the audit line of each refusal, and the news
of a member removed or a web token replaced are all the club's.
"""

from __future__ import annotations

import asyncio
import inspect
import re
from pathlib import Path
from typing import Any, Callable

from sekigahara_tui.club.client import ClubClient
from sekigahara_tui.club.session_caps import SessionCaps
from sekigahara_tui.hosting import web_tokens
from sekigahara_tui.hosting.audit import AuditLog
from sekigahara_tui.hosting.members import member_for_key

_GUEST_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,15}")


def guest_name(username: str) -> str | None:
    """A guest's name from an SSH user name (a guest can never take a member's: members have no `guest-`)."""
    return f"guest-{username}" if _GUEST_NAME.fullmatch(username) else None


async def maybe_await(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value


class LocalLink:
    """The club in this process: `club` gives open_session(member,
    web_generation=...), close_session(token), follow_ and unfollow_
    revocations and sign_outs, and socket_path (ClubServer, or a test's
    stand-in); data_dir's club database holds the members' keys and web tokens."""

    def __init__(self, club: Any, data_dir: Path, caps: SessionCaps | None = None, audit: AuditLog | None = None,
                 guests: bool = False) -> None:
        self.club = club
        self.data_dir = Path(data_dir)
        self.caps = caps if caps is not None else SessionCaps()
        self.audit_log = audit
        self.guests = guests

    # --- who signs in --------------------------------------------------------

    async def member_for_key(self, key: str, user: str) -> str | None:
        """The member whose key this is (the club's database read anew: no
        restart for a new key), else a guest named after `user` if guests are let in."""
        member = member_for_key(self.data_dir, key)
        if member is None and self.guests:
            member = guest_name(user)
        return member

    async def guest_for(self, user: str) -> str | None:
        return guest_name(user) if self.guests else None

    async def web_sign_in(self, member: str, token: str) -> str | None:
        """The generation of the member's web token if `token` is it, else None."""
        if not web_tokens.MEMBER_NAME.fullmatch(member):
            return None
        return await asyncio.to_thread(web_tokens.signed_in_generation, self.data_dir, member, token)

    async def web_generation(self, member: str) -> str | None:
        return web_tokens.token_generation(self.data_dir, member)

    # --- sessions ------------------------------------------------------------

    async def hold(self, member: str) -> str | None:
        """A place among the club's sessions for the member (None), or why not."""
        return self.caps.take(member)

    def release(self, member: str) -> None:
        self.caps.give_back(member)

    async def open_session(self, member: str, web_generation: str | None = None) -> str:
        """A session token for a client process; the club's refusal (an exception) in one line."""
        opened = self.club.open_session(member, web_generation=web_generation) if web_generation is not None \
            else self.club.open_session(member)
        return str(await maybe_await(opened))

    async def close_session(self, token: str) -> None:
        close = getattr(self.club, "close_session", None)
        if close is not None:
            await maybe_await(close(token))

    def child_env(self) -> dict[str, str]:
        """Where a session's client process finds the club (with its SEKIGAHARA_SESSION)."""
        return {"SEKIGAHARA_CLUB": str(getattr(self.club, "socket_path", ""))}

    def client(self, session: str) -> ClubClient:
        """A lobby connection with a session of the member's own."""
        return ClubClient(self.club.socket_path, session=session)

    # --- the audit log and the club's news -------------------------------------

    def audit(self, event: str, reason: str = "", **fields: object) -> None:
        if self.audit_log is not None:
            self.audit_log.record(event, reason, **fields)

    def follow_revocations(self, revoke: Callable[[str], None]) -> None:
        self.club.follow_revocations(revoke)

    def unfollow_revocations(self, revoke: Callable[[str], None]) -> None:
        self.club.unfollow_revocations(revoke)

    def follow_sign_outs(self, sign_out: Callable[[str, str], None]) -> None:
        follow = getattr(self.club, "follow_sign_outs", None)
        if follow is not None:
            follow(sign_out)

    def unfollow_sign_outs(self, sign_out: Callable[[str, str], None]) -> None:
        unfollow = getattr(self.club, "unfollow_sign_outs", None)
        if unfollow is not None:
            unfollow(sign_out)
