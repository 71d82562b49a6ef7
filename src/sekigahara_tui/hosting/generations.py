"""Who is a member now: each member's generation (members.py) as the running
club sees it, and the revocation of a member removed (issue 23, item 3).

The members table is changed by another process (`sekigahara member remove`,
`member add`, on any machine of a club over PostgreSQL) while the club runs.
The club keeps the generations in memory and reads them again whenever the
store says it changed (SQLite's `PRAGMA data_version` moves when another
connection commits; on PostgreSQL, the counter `member_changes` a trigger
bumps in every transaction that changes the members or the web tokens:
member_store.py), so a look costs one small query on either. Every check of a token
looks first (a seat's hello, a spectator's watch_game, a lobby's club_hello
and each of its requests), so a removed member's tokens are refused from the
moment the removal is committed.

A member whose generation went (removed) or changed (removed and added again)
is *revoked*: every CHECK_EVERY seconds the club looks, and tells its
followers (the lobby, the seats and spectators, the SSH and web fronts), which
close that member's connections and end their client processes.

A member's web token replaced (`member web-token NAME --rotate`) signs out
every session signed in with the old one, and only those (issue 23): the
club reads the tokens' generations (the `web_tokens` table) with the
members', and at the same look tells its sign-out followers `sign_out(member, new_generation)`; each
closes what was signed in with another generation (a browser's page, a TCP
lobby connection) and leaves the member's SSH sessions, signed in by key.

Guests (`serve --guest`) are not members: a name beginning GUEST_PREFIX has
the generation GUEST while the club lets guests in, and none otherwise.
"""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import Callable

from sekigahara_tui.hosting import database
from sekigahara_tui.hosting.member_store import changes_version, make_change_triggers
from sekigahara_tui.hosting.members import GUEST_PREFIX, MemberError, generations, open_members
from sekigahara_tui.hosting.web_tokens import token_generations

CHECK_EVERY = 0.25  # seconds between two looks for a removed member
GUEST = "guest"

log = logging.getLogger("sekigahara_tui.generations")


class NotAMember(Exception):
    """A session asked for a name that is no member (removed, or never one); one line."""


class MemberGenerations:
    def __init__(self, data_dir: Path, guests: bool = False) -> None:
        self.guests = guests
        self._db = open_members(Path(data_dir))
        try:
            make_change_triggers(self._db)
        except database.Error as error:
            self._db.close()
            raise MemberError(f"cannot prepare the club store: {error}") from None
        self._seen_version: int | None = None
        self._generations: dict[str, str] = {}
        self._revoked: list[str] = []  # members whose generation went or changed, followers not yet told
        self._followers: list[Callable[[str], None]] = []
        self._signing_out: list[Callable[[str, str], None]] = []
        self._web: dict[str, str] = {}  # each member's web token's generation
        self._watching: asyncio.Task | None = None
        self.refresh()
        self._web_told = dict(self._web)  # as the club started: nothing replaced yet

    def generation_of(self, name: str | None) -> str | None:
        """The generation a token of `name` is bound to now; None if `name` may
        hold none (not a member, removed, a guest when guests are not let in)."""
        if name is None:
            return None
        if name.startswith(GUEST_PREFIX):
            return GUEST if self.guests else None
        self.refresh()
        return self._generations.get(name)

    def web_generation_of(self, name: str) -> str | None:
        """The generation of the member's web token now (read again if the store changed)."""
        self.refresh()
        return self._web.get(name)

    def is_guest(self, name: str) -> bool:
        return name.startswith(GUEST_PREFIX)

    def refresh(self) -> None:
        """Read the members again if another process changed the store."""
        try:
            version = changes_version(self._db)
            if version is not None and version == self._seen_version:
                return
            with self._db.read():  # one view of both tables
                now, web = generations(self._db), token_generations(self._db)
        except database.Error as error:  # the store busy or failing: the last view stands, looked at again soon
            log.warning("cannot read the members: %s", error)
            return
        self._seen_version = version
        self._revoked += [name for name, generation in self._generations.items() if now.get(name) != generation]
        self._generations = now
        self._web = web

    # --- revocation ---------------------------------------------------------------------

    def follow(self, revoke: Callable[[str], None]) -> None:
        """`revoke(member)` is called once for each member removed from now on."""
        self._followers.append(revoke)

    def unfollow(self, revoke: Callable[[str], None]) -> None:
        if revoke in self._followers:
            self._followers.remove(revoke)

    def follow_sign_outs(self, sign_out: Callable[[str, str], None]) -> None:
        """`sign_out(member, generation)` is called once for each web token
        replaced from now on, with the new token's generation."""
        self._signing_out.append(sign_out)

    def unfollow_sign_outs(self, sign_out: Callable[[str, str], None]) -> None:
        if sign_out in self._signing_out:
            self._signing_out.remove(sign_out)

    def revoke_removed(self) -> list[str]:
        """Look now; tell the followers of each member removed since the last
        look (or whose name was added again meanwhile), then the sign-out
        followers of each web token replaced. Returns the members removed."""
        self.refresh()
        revoked, self._revoked = list(dict.fromkeys(self._revoked)), []
        for member in revoked:
            _tell(self._followers, "revoking", member)
        for member, generation in self._replaced().items():
            _tell(self._signing_out, "signing out", member, generation)
        return revoked

    def _replaced(self) -> dict[str, str]:
        """{member: their new token's generation} for each token replaced by
        another since the last call. A token gone is not here: only a removal
        deletes one, and the removal revokes the member."""
        replaced = {member: generation for member, generation in self._web.items()
                    if member in self._web_told and self._web_told[member] != generation}
        self._web_told = dict(self._web)
        return replaced

    def start(self) -> None:
        if self._watching is None:
            self._watching = asyncio.get_running_loop().create_task(self._watch())

    async def _watch(self) -> None:
        while True:
            await asyncio.sleep(CHECK_EVERY)
            self.revoke_removed()

    async def close(self) -> None:
        if self._watching is not None:
            self._watching.cancel()
            await asyncio.gather(self._watching, return_exceptions=True)
            self._watching = None
        self._db.close()


def _tell(followers: list[Callable], doing: str, member: str, *more: str) -> None:
    for follower in list(followers):
        try:
            follower(member, *more)
        except Exception:  # one follower failing must not spare the member the others
            log.exception("%s %s", doing, member)
