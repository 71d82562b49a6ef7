"""The club's lobby messages, beside the game protocol (docs/club.md).

A connection to the club socket begins with `club_hello` (a lobby session:
list games, make one, join one, withdraw one, enter one, watch one) or with
the game protocol's `hello` for a seat (docs/protocol.md), or `watch_game`
for a spectator. A seat's connection may also resign, and propose, accept or
decline cancelling its game (hosting/results.py). The lobby hands out the per-seat token a game connection needs
(`entry`). Read as strictly as the game protocol: exact types, no unknown
keys, bounded printable strings.

Client side too: imports from `rules` only the surface.
"""

from __future__ import annotations

import json
from typing import Any, Literal, Union

import cattrs
from attrs import field, frozen
from cattrs.gen import make_dict_unstructure_fn, override
from cattrs.strategies import configure_tagged_union
from cattrs.v import format_exception

from rules.surface import Side, printable
from sekigahara_tui.bots.base import LEVELS
from sekigahara_tui.net.protocol import (
    MAX_CLIENT_DEPTH,
    MAX_CLIENT_LINE,
    MAX_GAME_ID_LENGTH,
    MAX_HOST_DEPTH,
    MAX_ID_LENGTH,
    MAX_TOKEN_LENGTH,
    BadMessage,
    Ping,
    Pong,
    Refused,
    _parse,
    client_message_of,
    decode_host_message,
    make_wire_converter,
)
from sekigahara_tui.club.protocol_fields import _bounded
from sekigahara_tui.club.protocol_notices import GetNotices, Notices, SetNotices, YourMove
from sekigahara_tui.club.protocol_chat import (
    CHAT_CLIENT_MESSAGES, CHAT_HOST_MESSAGES, ChatDeleted, ChatLine, ChatLines, ChatSay, GetChat,
)
from sekigahara_tui.club.protocol_fronts import FRONT_PREFIX, front_request_of
from sekigahara_tui.club.protocol_vacation import GetVacation, TakeVacation, Vacation
from sekigahara_tui.club.protocol_ratings import GetRatings, Ratings
from sekigahara_tui.club.protocol_tournaments import (
    TOURNAMENT_CLIENT_MESSAGES, TOURNAMENT_HOST_MESSAGES, GetTournament, JoinTournament, NewTournament, StartTournament,
    TournamentList, TournamentShown,
)

MAX_MEMBER_NAME = 32
# A lobby lists at most this many games of each kind (the newest).
MAX_LISTED = 200


def _opponent(_instance: object, _attribute: Any, value: str) -> None:
    if value not in ("open", "computer"):
        raise ValueError("opponent must be 'open' or 'computer'")


def _level(instance: object, _attribute: Any, value: str | None) -> None:
    if value is None:
        return
    if value not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(LEVELS)}")
    if getattr(instance, "opponent", None) != "computer":
        raise ValueError("only a game against the computer has a level")


def _clock(_instance: object, _attribute: Any, value: str) -> None:
    from sekigahara_tui.hosting.clocks import preset_named

    preset_named(value)  # ValueError in one line for an unknown preset


def _on_time_out(_instance: object, _attribute: Any, value: str) -> None:
    from sekigahara_tui.hosting.clock_store import check_on_time_out

    check_on_time_out(value)


def _seconds(_instance: object, _attribute: Any, value: tuple[float, float]) -> None:
    if any(not 0 <= seconds < 1e10 for seconds in value):
        raise ValueError("a clock's seconds left must be between 0 and 1e10")


# --- client to club ----------------------------------------------------------------


@frozen
class ClubHello:
    """The first message of a lobby connection: a session token minted by a
    front end (SSH, web); or a member's name with the member's token (`sekigahara
    member web-token NAME`), the door over TCP; or a member's name alone over the
    Unix socket from the club's own Unix user (the socket's permission is the check)."""

    protocol: int
    session: str | None = field(validator=_bounded(MAX_TOKEN_LENGTH))
    member: str | None = field(validator=_bounded(MAX_MEMBER_NAME))
    token: str | None = field(default=None, validator=_bounded(MAX_TOKEN_LENGTH))


@frozen
class ListGames:
    """Ask for the lobby (answered by `lobby`). From then on the connection
    follows the lobby: the club pushes `lobby_changed` when its lines change."""


@frozen
class NewGame:
    """A new game: `side` to play (None: either), against an opponent who
    joins later ("open") or the computer, at `level` (one of bots/base.py's
    LEVELS; None: level 1, "heuristic", as before issue 25). `invite`: the
    member the open seat is for (an invitation: nobody else may join);
    `private`: only its players may watch it, and nobody else sees it listed;
    `rated`: it counts for both players' ratings (whoever joins agrees to that)."""

    id: str = field(validator=_bounded(MAX_ID_LENGTH))
    side: Side | None
    opponent: str = field(validator=_opponent)
    level: str | None = field(default=None, validator=_level)
    clock: str = field(default="none", validator=_clock)  # a preset (hosting/clocks.py); "none": no clock
    on_time_out: str = field(default="lose", validator=_on_time_out)  # "lose" or "stand-in:LEVEL"
    invite: str | None = field(default=None, validator=_bounded(MAX_MEMBER_NAME))
    private: bool = False
    rated: bool = False


@frozen
class JoinGame:
    """Take the open seat of someone else's game."""

    id: str = field(validator=_bounded(MAX_ID_LENGTH))
    game: str = field(validator=_bounded(MAX_GAME_ID_LENGTH))


@frozen
class WithdrawGame:
    """Withdraw an open game of mine that nobody has joined: it is deleted."""

    id: str = field(validator=_bounded(MAX_ID_LENGTH))
    game: str = field(validator=_bounded(MAX_GAME_ID_LENGTH))


@frozen
class DeclineGame:
    """Decline an invitation (a game made for this member): it is withdrawn,
    its maker is told in the lobby. Answered by `withdrawn`."""

    id: str = field(validator=_bounded(MAX_ID_LENGTH))
    game: str = field(validator=_bounded(MAX_GAME_ID_LENGTH))


@frozen
class Rematch:
    """After a game of the member's is over: a new game with the same
    opponent, sides swapped, as an invitation to them. Answered by `entry`."""

    id: str = field(validator=_bounded(MAX_ID_LENGTH))
    game: str = field(validator=_bounded(MAX_GAME_ID_LENGTH))


@frozen
class GetRecord:
    """The record of a finished game (its players; others if it was public),
    for the step-by-step replay. Answered by `record`."""

    id: str = field(validator=_bounded(MAX_ID_LENGTH))
    game: str = field(validator=_bounded(MAX_GAME_ID_LENGTH))


@frozen
class Enter:
    """Ask for the token of my seat in one of my games."""

    id: str = field(validator=_bounded(MAX_ID_LENGTH))
    game: str = field(validator=_bounded(MAX_GAME_ID_LENGTH))


@frozen
class Watch:
    """Ask for a spectator's token for a game (public information only)."""

    id: str = field(validator=_bounded(MAX_ID_LENGTH))
    game: str = field(validator=_bounded(MAX_GAME_ID_LENGTH))


@frozen
class WatchGame:
    """The first message of a spectator's game connection (like `hello`)."""

    protocol: int
    game: str = field(validator=_bounded(MAX_GAME_ID_LENGTH))
    token: str = field(validator=_bounded(MAX_TOKEN_LENGTH))
    seen: int | None


# --- a seat's requests about its game's end (hosting/results.py) --------------------


@frozen
class Resign:
    """On a seat's connection: this side gives up; the other side wins. Answered
    by the state that ends the game (replying to `id`) and game_over."""

    id: str = field(validator=_bounded(MAX_ID_LENGTH))


@frozen
class ProposeCancel:
    """On a seat's connection: propose to cancel the game (before week 2 only,
    6.1's calendar). Both seats are sent `cancel_proposal`."""

    id: str = field(validator=_bounded(MAX_ID_LENGTH))


@frozen
class AnswerCancel:
    """On a seat's connection: accept (the game is cancelled, no result) or
    decline the other side's proposal; the proposer's decline withdraws it."""

    id: str = field(validator=_bounded(MAX_ID_LENGTH))
    accept: bool


# --- club to client ----------------------------------------------------------------


@frozen
class CancelProposal:
    """To both seats of a game: the proposal to cancel it that stands (`side`
    proposed), or none any more (side None: declined or withdrawn), with one
    line to show. `reply_to`: the request it answers, on the asker's copy."""

    reply_to: str | None
    side: Side | None
    note: str


@frozen
class ClockLine:
    """To both seats of a clocked game, after each change and when a seat
    comes: seconds left to each side (Ishida's, Tokugawa's) as of sending,
    the sides whose clock runs, until when each side's member is on vacation
    (seconds since the epoch; None: not), and the seat the computer stands in for."""

    preset: str = field(validator=_bounded(40))
    left: tuple[float, float] = field(validator=_seconds)
    running: tuple[Side, ...]
    vacation_until: tuple[float | None, float | None] = (None, None)
    stood_in: Side | None = None


@frozen
class ClubWelcome:
    protocol: int
    member: str


@frozen
class GameLine:
    """One game in a lobby: players (None: open seat, "computer"), whose
    decision it is, status ("playing"/"over") and result."""

    game: str
    ishida: str | None
    tokugawa: str | None
    to_move: tuple[Side, ...]
    status: str
    result: str | None
    version: int
    updated: float
    invited: str | None = None  # the member its open seat is for (an invitation)
    private: bool = False  # watched by its players only
    where: str | None = None  # week, turn and phase ("week 2, turn 1, movement"); None: not known
    rated: bool = False  # it counts for its players' ratings
    ishida_rating: int | None = None  # each player's rating now; None: not rated yet
    tokugawa_rating: int | None = None
    # On the lines of my games in play only: both clocks as of sending (none: no clock),
    # and the sides whose players are signed in anywhere in the club (hosting/online.py).
    clocks: ClockLine | None = None
    online: tuple[Side, ...] = ()

    def player(self, side: Side) -> str | None:
        return self.ishida if side is Side.ISHIDA else self.tokugawa


@frozen
class Lobby:
    member: str
    mine: tuple[GameLine, ...]  # my games in play
    open: tuple[GameLine, ...]  # others' games waiting for an opponent
    watchable: tuple[GameLine, ...]  # others' games in play
    finished: tuple[GameLine, ...]  # my finished games
    warning: str | None = None  # about the member: their notices keep failing (notice_settings.py)
    invitations: tuple[GameLine, ...] = ()  # games made for me, to accept (join) or decline
    news: tuple[str, ...] = ()  # lines for me: an invitation of mine declined


@frozen
class LobbyChanged:
    """Pushed, unasked, to a lobby connection that has asked for the lobby
    once (list_games), when what that lobby shows changed: a game of the
    member's changed whose move it is or finished, a game was made, joined or
    finished. The whole lobby, as `lobby` says it; at most a few a second per
    member (a burst of changes is coalesced into one)."""

    member: str
    mine: tuple[GameLine, ...]
    open: tuple[GameLine, ...]
    watchable: tuple[GameLine, ...]
    finished: tuple[GameLine, ...]
    warning: str | None = None
    invitations: tuple[GameLine, ...] = ()
    news: tuple[str, ...] = ()

    @classmethod
    def of(cls, lobby: Lobby) -> LobbyChanged:
        return cls(lobby.member, lobby.mine, lobby.open, lobby.watchable, lobby.finished, lobby.warning, lobby.invitations, lobby.news)

    def lobby(self) -> Lobby:
        return Lobby(self.member, self.mine, self.open, self.watchable, self.finished, self.warning, self.invitations, self.news)


def _clock_key(clocks: ClockLine | None) -> tuple | None:
    """A clock's seconds left change every second: a lobby is told again when
    which clock runs changes (the client counts down meanwhile), not each second."""
    return None if clocks is None else (clocks.preset, clocks.running, clocks.vacation_until, clocks.stood_in)


def lobby_key(lobby: Lobby) -> tuple[frozenset, ...]:
    """What a lobby shows, to tell whether it changed: each section's lines
    without their version and time (a move that leaves whose move it is
    alone changes nothing shown), and without their order."""

    def shown(lines: tuple[GameLine, ...]) -> frozenset:
        return frozenset((line.game, line.ishida, line.tokugawa, line.to_move, line.status, line.result,
                          line.invited, line.private, line.where, line.rated, line.ishida_rating, line.tokugawa_rating,
                          line.online, _clock_key(line.clocks)) for line in lines)

    return (shown(lobby.mine), shown(lobby.open), shown(lobby.watchable), shown(lobby.finished), frozenset({lobby.warning}),
            shown(lobby.invitations), frozenset(lobby.news))


@frozen
class Entry:
    """The answer to new_game, join_game, enter (seat set) and watch (seat
    None): connect to the same socket with this token."""

    reply_to: str
    game: str
    seat: Side | None
    token: str


@frozen
class Record:
    """A finished game's record (rules.infra.record's JSON), replying to `get_record`."""

    reply_to: str
    game: str
    record: str


@frozen
class Withdrawn:
    """The answer to withdraw_game: the game is gone from the store and the club."""

    reply_to: str = field(validator=_bounded(MAX_ID_LENGTH))
    game: str = field(validator=_bounded(MAX_GAME_ID_LENGTH))


CLUB_CLIENT_MESSAGES: dict[type, str] = {
    ClubHello: "club_hello",
    ListGames: "list_games",
    NewGame: "new_game",
    JoinGame: "join_game",
    WithdrawGame: "withdraw_game",
    DeclineGame: "decline_game",
    Rematch: "rematch",
    GetRecord: "get_record",
    Enter: "enter",
    Watch: "watch",
    WatchGame: "watch_game",
    Resign: "resign",
    ProposeCancel: "propose_cancel",
    AnswerCancel: "answer_cancel",
    GetNotices: "get_notices",
    SetNotices: "set_notices",
    GetVacation: "get_vacation",
    TakeVacation: "take_vacation",
    **CHAT_CLIENT_MESSAGES,
    GetRatings: "get_ratings",
    Ping: "ping",
} | TOURNAMENT_CLIENT_MESSAGES
CLUB_HOST_MESSAGES: dict[type, str] = {
    ClubWelcome: "club_welcome",
    Lobby: "lobby",
    LobbyChanged: "lobby_changed",
    Entry: "entry",
    Withdrawn: "withdrawn",
    CancelProposal: "cancel_proposal",
    ClockLine: "clocks",
    Notices: "notices",
    Vacation: "vacation",
    YourMove: "your_move",
    Record: "record",
    **CHAT_HOST_MESSAGES,
    Ratings: "ratings",
    Refused: "refused",
    Pong: "pong",
} | TOURNAMENT_HOST_MESSAGES
ClubClientMessage = Union[
    ClubHello, ListGames, NewGame, JoinGame, WithdrawGame, DeclineGame, Rematch, GetRecord, Enter, Watch, WatchGame, Resign, ProposeCancel, AnswerCancel,
    GetNotices, SetNotices, GetVacation, TakeVacation, GetRatings, ChatSay, GetChat, Ping, NewTournament, JoinTournament, StartTournament,
    GetTournament,
]
ClubHostMessage = Union[
    ClubWelcome, Lobby, LobbyChanged, Entry, Withdrawn, CancelProposal, ClockLine, Notices, Vacation, YourMove, Record, Ratings, ChatLine,
    ChatLines, ChatDeleted, Refused, Pong, TournamentShown, TournamentList,
]
_TAGS = CLUB_CLIENT_MESSAGES | CLUB_HOST_MESSAGES

converter = make_wire_converter()
# A lobby's warning is left out when there is none: what a lobby said before
# notices is said the same way.
# So are the fields issue 24's invitations added, left at their defaults.
_OMITTED = override(omit_if_default=True)
converter.register_unstructure_hook(
    GameLine, make_dict_unstructure_fn(GameLine, converter, invited=_OMITTED, private=_OMITTED, where=_OMITTED, rated=_OMITTED,
                                       ishida_rating=_OMITTED, tokugawa_rating=_OMITTED, clocks=_OMITTED, online=_OMITTED))
for _lobby in (Lobby, LobbyChanged):
    converter.register_unstructure_hook(
        _lobby, make_dict_unstructure_fn(_lobby, converter, warning=_OMITTED, invitations=_OMITTED, news=_OMITTED))
# A new_game at its defaults says none of its later fields on the wire (a server
# older than levels, clocks or invitations refuses unknown keys).
converter.register_unstructure_hook(NewGame, make_dict_unstructure_fn(
    NewGame, converter, level=_OMITTED, clock=_OMITTED, on_time_out=_OMITTED, invite=_OMITTED, private=_OMITTED, rated=_OMITTED))
converter.register_unstructure_hook(GetRatings, make_dict_unstructure_fn(GetRatings, converter, player=_OMITTED))
# A chat line says whom it answers on the sayer's copy only.
converter.register_unstructure_hook(ChatLine, make_dict_unstructure_fn(ChatLine, converter, reply_to=_OMITTED))
configure_tagged_union(ClubClientMessage, converter, tag_name="type", tag_generator=lambda cls: _TAGS[cls])
configure_tagged_union(ClubHostMessage, converter, tag_name="type", tag_generator=lambda cls: _TAGS[cls])

_CLUB_NAMES = set(CLUB_CLIENT_MESSAGES.values()) - {"ping"}
_HOST_NAMES = set(CLUB_HOST_MESSAGES.values())


def encode(message: object) -> bytes:
    union = ClubClientMessage if type(message) in CLUB_CLIENT_MESSAGES else ClubHostMessage
    data = converter.unstructure(message, union)
    return (json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def _structure(data: dict[str, Any], union: object, kind: str) -> object:
    given = data.get("id")
    safe_id = given if isinstance(given, str) and 0 < len(given) <= MAX_ID_LENGTH and given.isprintable() else None
    try:
        return converter.structure(data, union)
    except cattrs.BaseValidationError as error:
        details = "; ".join(cattrs.transform_error(error, format_exception=lambda e, t: str(e) if type(e) is ValueError and str(e) else format_exception(e, t)))
        raise BadMessage(f"bad {kind} message: {printable(details, 200)}", safe_id) from None
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        raise BadMessage(f"bad {kind} message: {printable(str(error), 200)}", safe_id) from None


def decode_club_client_message(line: bytes) -> object:
    """A line from a client of the club: a lobby message, a spectator's
    watch_game, or a game-protocol message (hello, submit, undo, ping)."""
    if len(line) > MAX_CLIENT_LINE:
        raise BadMessage(f"a line of more than {MAX_CLIENT_LINE} bytes")
    data = _parse(line, MAX_CLIENT_DEPTH)
    kind = data.get("type")
    if isinstance(kind, str) and kind in _CLUB_NAMES:
        return _structure(data, ClubClientMessage, kind)
    if isinstance(kind, str) and kind.startswith(FRONT_PREFIX):  # a front on another machine (protocol_fronts.py)
        return front_request_of(data)
    return client_message_of(data)


def decode_club_host_message(line: bytes) -> object:
    """A line from the club on a lobby connection."""
    data = _parse(line, MAX_HOST_DEPTH)
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _HOST_NAMES:
        return decode_host_message(line)  # raises BadMessage for an unknown type
    return _structure(data, ClubHostMessage, kind)


Opponent = Literal["open", "computer"]
