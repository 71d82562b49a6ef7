"""How many client processes the club runs: in all, and for each member,
counted over the SSH and web fronts together (issue 23). A session takes its
place before its process starts and gives it back when the process ends."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from attrs import frozen

# Each under 80 columns: one line on the smallest terminal the club takes.
BUSY_MESSAGE = "The club is full right now (too many sessions): try again later."
MEMBER_CAP_MESSAGE = "You have {count} sessions open, at most {cap} a member: close one, then connect."


@frozen
class SessionLimits:
    sessions: int = 64  # client processes in all (each 27-45 MB)
    per_member: int = 4


class SessionCaps:
    def __init__(self, limits: SessionLimits = SessionLimits()) -> None:
        self.limits = limits
        self.of_member: dict[str, int] = {}

    @property
    def total(self) -> int:
        return sum(self.of_member.values())

    def refusal(self, member: str) -> str | None:
        """Why `member` may not open another session now, or None."""
        if self.total >= self.limits.sessions:
            return BUSY_MESSAGE
        count = self.of_member.get(member, 0)
        if count >= self.limits.per_member:
            return MEMBER_CAP_MESSAGE.format(count=count, cap=self.limits.per_member)
        return None

    def take(self, member: str) -> str | None:
        """Why not (refusal()), or None and a place taken until give_back(member)."""
        refusal = self.refusal(member)
        if refusal is None:
            self.of_member[member] = self.of_member.get(member, 0) + 1
        return refusal

    def give_back(self, member: str) -> None:
        self.of_member[member] -= 1
        if not self.of_member[member]:
            del self.of_member[member]

    @contextlib.contextmanager
    def held(self, member: str) -> Iterator[None]:
        """A session's place, from before its process starts until it ends."""
        self.of_member[member] = self.of_member.get(member, 0) + 1
        try:
            yield
        finally:
            self.give_back(member)
