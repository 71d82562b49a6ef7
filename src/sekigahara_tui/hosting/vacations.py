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
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Callable

from rules.surface import BOTH_SIDES
from sekigahara_tui.club.protocol_vacation import GetVacation, TakeVacation, Vacation
from sekigahara_tui.hosting.audit import AuditLog, NoAuditLog
from sekigahara_tui.hosting.catalog import Catalog
from sekigahara_tui.hosting.club_games import Refusal

if TYPE_CHECKING:
    from sekigahara_tui.hosting.game_clocks import GameClocks

GUESTS_TAKE_NO_VACATION = "guests have no clocks to stop: no vacation"


class Vacations:
    def __init__(
        self, clocks: GameClocks, catalog: Catalog, is_guest: Callable[[str], bool], push: Callable[[str], None],
        audit: AuditLog | NoAuditLog = NoAuditLog(),
    ) -> None:
        self.clocks = clocks
        self.catalog = catalog
        self.is_guest = is_guest
        self.push = push  # a member's lobby, pushed soon (lobby_push.py)
        self.audit = audit

    def answer(self, member: str, message: GetVacation | TakeVacation) -> Vacation:
        """The member's vacation, after taking `message.days` if asked; Refusal (nothing stored)."""
        if self.is_guest(member):
            raise Refusal("not-authorised", GUESTS_TAKE_NO_VACATION)
        store, now = self.clocks.store, self.clocks.now()
        if isinstance(message, TakeVacation):
            try:
                _start, end = store.take_vacation(member, message.days, now)
            except ValueError as error:
                raise Refusal("bad-message", str(error).replace("--days", "days")) from None
            self.audit.record("vacation", f"{message.days} days, until {time.strftime('%Y-%m-%d %H:%M', time.gmtime(end))} UTC",
                              front="club", member=member)
            self.clocks.vacation_taken(member)
            for player in self._opponents(member) | {member}:
                self.push(player)
        until, taken, allowed = store.vacation_of(member, now)
        return Vacation(message.id, until, taken, allowed)

    def _opponents(self, member: str) -> set[str]:
        found = set()
        for entry in self.catalog.entries.values():
            if entry.status == "playing" and member in entry.players.values():
                found.update(p for side in BOTH_SIDES if (p := entry.players[side]) not in (None, member))
        return found
