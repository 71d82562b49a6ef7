"""A member's vacation, declared from the lobby (issue 24; get_vacation and
take_vacation: club/protocol_vacation.py): days away during which their
correspondence clocks stop (game_clocks.py charges nobody for them), within
the administrator's yearly allowance (serve --vacation-days-per-year). The
same store and the same check as `sekigahara member vacation`.

Taken while the club runs, it is seen at once: every seat of the member's
clocked games is sent the clocks again (the opponent reads "on vacation
until ..."), the clocks' timer is set again, and the lobbies of the
member and their opponents are pushed (their lines' clocks say it). A
refusal (a guest, more days than are left) is one line to the member and
one in the audit log (the lobby's `_refuse`), and stores nothing.

The write is made off the event loop, in a worker thread on a connection of
its own (as the clocks' heartbeat: a connection is not shared between
threads), check and insert in one transaction; the clocks are told,
the lobbies pushed and the member answered only once it is on disk.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Callable

from rules.surface import BOTH_SIDES
from sekigahara_tui.club.protocol_vacation import GetVacation, TakeVacation, Vacation
from sekigahara_tui.hosting.audit import AuditLog, NoAuditLog
from sekigahara_tui.hosting.catalog import Catalog
from sekigahara_tui.hosting.clock_store import ClockStore
from sekigahara_tui.hosting.clocks import Interval
from sekigahara_tui.hosting.database import Error as DatabaseError, Location
from sekigahara_tui.hosting.club_games import Refusal

if TYPE_CHECKING:
    from sekigahara_tui.hosting.game_clocks import GameClocks

GUESTS_TAKE_NO_VACATION = "guests have no clocks to stop: no vacation"


class Vacations:
    def __init__(
        self, clocks: GameClocks, store: Location, catalog: Catalog, is_guest: Callable[[str], bool], push: Callable[[str], None],
        audit: AuditLog | NoAuditLog = NoAuditLog(),
    ) -> None:
        self.clocks = clocks
        self.store_location = store  # the game store (a SQLite file, a PostgreSQL URL), written by take() from a worker thread
        self.catalog = catalog
        self.is_guest = is_guest
        self.push = push  # a member's lobby, pushed soon (lobby_push.py)
        self.audit = audit

    def answer(self, member: str, message: GetVacation) -> Vacation:
        """The member's vacation; Refusal for a guest."""
        self._no_guest(member)
        return self._vacation(member, message.id)

    async def take(self, member: str, message: TakeVacation) -> Vacation:
        """Take `message.days` away, then the member's vacation; Refusal (nothing stored)."""
        self._no_guest(member)
        try:
            _start, end = await asyncio.to_thread(
                take_on_own_connection, self.store_location, member, message.days, self.clocks.now())
        except ValueError as error:
            raise Refusal("bad-message", str(error).replace("--days", "days")) from None
        except DatabaseError as error:
            raise Refusal("host-error", f"could not store the vacation: {error}") from None
        self.audit.record("vacation", f"{message.days} days, until {time.strftime('%Y-%m-%d %H:%M', time.gmtime(end))} UTC",
                          front="club", member=member)
        self.clocks.vacation_taken(member)
        for player in self._opponents(member) | {member}:
            self.push(player)
        return self._vacation(member, message.id)

    def _no_guest(self, member: str) -> None:
        if self.is_guest(member):
            raise Refusal("not-authorised", GUESTS_TAKE_NO_VACATION)

    def _vacation(self, member: str, reply_to: str) -> Vacation:
        until, taken, allowed = self.clocks.store.vacation_of(member, self.clocks.now())
        return Vacation(reply_to, until, taken, allowed)

    def _opponents(self, member: str) -> set[str]:
        found = set()
        for entry in self.catalog.entries.values():
            if entry.status == "playing" and member in entry.players.values():
                found.update(p for side in BOTH_SIDES if (p := entry.players[side]) not in (None, member))
        return found


def take_on_own_connection(location: Location, member: str, days: int, now: float) -> Interval:
    """ClockStore.take_vacation in a worker thread, on a connection opened and
    closed here (PostgreSQL: a pooled one); committed when this returns."""
    store = ClockStore(location)
    try:
        return store.take_vacation(member, days, now)
    finally:
        store.close()
