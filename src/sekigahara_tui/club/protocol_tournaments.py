"""The club's tournament messages (docs/club.md, Tournaments): a lobby
connection makes a tournament, signs up for one (or, its maker or the
administrator, signs the computer up), starts one, and asks for one or for
the list; the club answers `tournament` or `tournaments`, or refuses in one
line. Registered in protocol.py's tag tables.

Only public facts (R55): who plays whom, each game's state and result, the
standings worked out from the results.
"""

from __future__ import annotations

from typing import Any

from attrs import field, frozen

from sekigahara_tui.bots.base import LEVELS
from sekigahara_tui.club.protocol_fields import _bounded
from sekigahara_tui.net.protocol import MAX_ID_LENGTH

MAX_TOURNAMENT_NAME = 40
MAX_ROUNDS = 16
FORMATS = ("round-robin", "swiss")


def _format(_instance: object, _attribute: Any, value: str) -> None:
    if value not in FORMATS:
        raise ValueError(f"format is one of {', '.join(FORMATS)}")


def _rounds(_instance: object, _attribute: Any, value: int | None) -> None:
    if value is not None and not 1 <= value <= MAX_ROUNDS:
        raise ValueError(f"rounds is between 1 and {MAX_ROUNDS}")


def _computer(_instance: object, _attribute: Any, value: str | None) -> None:
    if value is not None and value not in LEVELS:
        raise ValueError(f"computer is one of the levels {', '.join(LEVELS)}")


def _clock(_instance: object, _attribute: Any, value: str) -> None:
    from sekigahara_tui.hosting.clocks import preset_named

    preset_named(value)  # ValueError in one line for an unknown preset


def _name(_instance: object, attribute: Any, value: str | None) -> None:
    if value is not None and value != value.strip():
        raise ValueError(f"{attribute.name} begins or ends with a space")


_NAME = _bounded(MAX_TOURNAMENT_NAME) + [_name]


@frozen
class NewTournament:
    """A tournament that members sign up for until it starts: a round-robin
    (`rounds` None: every pair twice, sides swapped) or a Swiss of `rounds`
    rounds; its games on `clock` (a preset, hosting/clocks.py; a time-out loses)."""

    id: str = field(validator=_bounded(MAX_ID_LENGTH))
    name: str = field(validator=_NAME)
    format: str = field(validator=_format)
    clock: str = field(validator=_clock)
    rounds: int | None = field(default=None, validator=_rounds)


@frozen
class JoinTournament:
    """Sign me up; with `computer` (a level), sign the computer up instead
    (the tournament's maker or the administrator only)."""

    id: str = field(validator=_bounded(MAX_ID_LENGTH))
    name: str = field(validator=_NAME)
    computer: str | None = field(default=None, validator=_computer)


@frozen
class StartTournament:
    """Close the sign-up and make the games (the maker or the administrator only)."""

    id: str = field(validator=_bounded(MAX_ID_LENGTH))
    name: str = field(validator=_NAME)


@frozen
class GetTournament:
    """Ask for a tournament (`tournament`), or with `name` None the list (`tournaments`)."""

    id: str = field(validator=_bounded(MAX_ID_LENGTH))
    name: str | None = field(default=None, validator=_NAME)


@frozen
class StandingLine:
    rank: int
    entrant: str
    points: float
    played: int
    wins: int
    sonneborn_berger: float
    buchholz: float


@frozen
class BoardLine:
    """A game of a round: `state` is bye, unmade, playing or over; `result` its words once over."""

    round: int
    board: int
    ishida: str
    tokugawa: str | None
    game: str | None
    state: str
    result: str | None


@frozen
class TournamentShown:
    """A tournament (the answer to new, join, start and get): `status` is
    sign-up, playing or over; `rounds` its number of rounds (a round-robin's
    from its entrants once started)."""

    reply_to: str
    name: str
    format: str
    clock: str
    rounds: int | None
    created_by: str
    status: str
    entrants: tuple[str, ...]
    standings: tuple[StandingLine, ...]
    boards: tuple[BoardLine, ...]


@frozen
class TournamentSummary:
    name: str
    format: str
    clock: str
    status: str
    entrants: int


@frozen
class TournamentList:
    reply_to: str
    tournaments: tuple[TournamentSummary, ...]


TOURNAMENT_CLIENT_MESSAGES: dict[type, str] = {
    NewTournament: "new_tournament",
    JoinTournament: "join_tournament",
    StartTournament: "start_tournament",
    GetTournament: "get_tournament",
}
TOURNAMENT_HOST_MESSAGES: dict[type, str] = {TournamentShown: "tournament", TournamentList: "tournaments"}
