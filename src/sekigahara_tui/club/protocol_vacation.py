"""The club's messages about a member's vacation (docs/club.md, Vacation):
`get_vacation` and `take_vacation` from the client, `vacation` in answer.
Days away stop the member's correspondence clocks (hosting/vacations.py),
within the administrator's yearly allowance (serve --vacation-days-per-year)."""

from __future__ import annotations

from typing import Any

from attrs import field, frozen

from sekigahara_tui.club.protocol_fields import _bounded
from sekigahara_tui.net.protocol import MAX_ID_LENGTH

MAX_VACATION_DAYS = 366


def _days(_instance: object, _attribute: Any, value: int) -> None:
    if type(value) is not int or not 1 <= value <= MAX_VACATION_DAYS:
        raise ValueError(f"days is a whole number from 1 to {MAX_VACATION_DAYS}")


@frozen
class GetVacation:
    """Ask for my vacation (answered by `vacation`)."""

    id: str = field(validator=_bounded(MAX_ID_LENGTH))


@frozen
class TakeVacation:
    """`days` away from now (or from the end of the vacation under way):
    answered by `vacation`, or refused with one line and nothing stored
    (more days than are left this year, a guest)."""

    id: str = field(validator=_bounded(MAX_ID_LENGTH))
    days: int = field(validator=_days)


@frozen
class Vacation:
    """A member's vacation (the answer to get_vacation and take_vacation):
    until when they are away (seconds since the epoch; None: not away), the
    days taken and the days allowed this calendar year (UTC)."""

    reply_to: str
    until: float | None
    days_taken: int
    days_allowed: int
