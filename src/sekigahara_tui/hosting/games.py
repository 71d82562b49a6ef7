"""A hosted game, where games come from, and what a game server tells its
subscribers.

A game server (game_server.py) plays the games a games source gives it: the
in-memory one here for `sekigahara host` (games added by hand), or the club's
(store_games.py: loaded from the store on first use, evicted when idle).
After a change is stored and applied it tells its subscribers, in the order
it was given them: `game_changed`, and `seat_joined` / `seat_left` when a
seat's connection comes or goes.
"""

from __future__ import annotations

import asyncio
import time
from operator import attrgetter
from typing import TYPE_CHECKING, Protocol

from attrs import define, field, frozen

from rules.surface import OpponentDecided, Side
from sekigahara_tui.hosting.host import GameHost
from sekigahara_tui.hosting.result_words import OUTSIDE_CAUSES, end_words, rules_words
from sekigahara_tui.hosting.store import Action, CancelOffer, GameEnd, GameInfo, Store, record_of

if TYPE_CHECKING:
    from sekigahara_tui.hosting.chairs import Chair
    from sekigahara_tui.hosting.connections import Connection


# How far back an id sent again at another version than its own is recognised (games.py, applied).
RECENT_ROWS = 16
_CLIENT_ID = attrgetter("client_id")


@frozen
class SeatAccess:
    """Who may take a seat: the token's holder, or (uid set) only that Unix
    user over the Unix socket, checked by its peer credential. `holder` names
    the seat's player where there is one (the club's member), for the audit log."""

    token: str
    uid: int | None = None
    holder: str | None = None


@define(eq=False)
class HostedGame:
    info: GameInfo
    host: GameHost
    actions: list[Action]
    seats: dict[Side, SeatAccess]
    connections: dict[Side, Connection]  # the seats' connections
    ended_at: float | None = None
    # One change at a time: a command is checked against the state it will
    # change, and the next waits until it is stored and applied.
    changing: asyncio.Lock = field(factory=asyncio.Lock)
    chairs: dict[Side | None, Chair] = field(factory=dict)  # None: the spectators'
    # How it ended outside the rules (results.py; None: in play, or ended by the rules).
    end: GameEnd | None = None
    cancel_offer: CancelOffer | None = None  # a standing proposal to cancel it
    # The seat the computer stands in for (the clocks, issue 24): its rules' end
    # is then stored as finished-by-stand-in (store_commits.py).
    stood_in: Side | None = None

    @property
    def id(self) -> str:
        return self.info.id

    @property
    def version(self) -> int:
        return len(self.actions)

    def applied(self, side: Side, message_id: str, version: int) -> bool:
        """Whether `side`'s message `message_id`, sent at `version`, was
        applied. A message is applied at the version it carries (bar a
        simultaneous decision's, unseen_since), so its row is nearly always
        the record's row `version`: a resend (the very message, as a
        client keeps it) is found there however long ago it was applied,
        without a scan of the record or a table of every id (issue 23, item
        11). An id applied at another version is recognised among the last
        RECENT_ROWS rows; an older one is refused by the store (one id a seat
        per game), and nothing is applied twice either way."""
        actions = self.actions
        if 0 <= version < len(actions):
            row = actions[version]
            if row.client_id == message_id and row.side is side:
                return True
        recent = actions[-RECENT_ROWS:]
        # A new id (nearly every message) is looked for in C; only a hit is looked at row by row.
        if message_id not in map(_CLIENT_ID, recent):
            return False
        return any(action.client_id == message_id and action.side is side for action in recent)

    def unseen_since(self, side: Side, version: int) -> bool:
        """Whether `side` saw nothing change since `version`: every row since is
        a command of the other side whose every event `side` may see is "the
        other side made a secret choice" (R45: a bid or a reinforcement discard,
        6.2, 6.3). A command `side` decided at `version` is then decided on all
        it may know now, so it need not be refused as stale (game_server.py)."""
        actions = self.actions
        if not 0 <= version < len(actions) or len(actions) - version > RECENT_ROWS:
            return False
        since = actions[version:]
        if any(action.kind != "command" or action.side is side for action in since):
            return False
        # No undo among them: each row is one step, the host's last ones.
        steps = self.host.step_events(side, self.host.step_count - len(since))
        return len(steps) == len(since) and all(
            events and all(type(event) is OpponentDecided for event in events) for events in steps
        )

    @property
    def result_text(self) -> str:
        """The result of a game that is over, in one line."""
        result = self.host.state.result
        assert result is not None
        return end_words(self.end, result) if self.end is not None else rules_words(result)


def load_hosted_game(store: Store, game_id: str, seats: dict[Side, SeatAccess]) -> HostedGame:
    """A game of the store, replayed (StoreError, RecordError)."""
    info, actions = store.load_game(game_id)
    # A host of many games keeps only the states undo may need (hosting/host.py).
    host = GameHost.from_record(record_of(info, actions), keep_states=False)
    game = HostedGame(info, host, actions, dict(seats), {}, cancel_offer=info.cancel_offer)
    if info.end is not None and info.end.kind in OUTSIDE_CAUSES:
        host.end_outside_rules(info.end.winner, OUTSIDE_CAUSES[info.end.kind])
        game.end = info.end
    if host.is_over:
        game.ended_at = time.monotonic()
    return game


class Games(Protocol):
    """Where a game server's games come from."""

    loaded: dict[str, HostedGame]  # the games in memory, by id

    def find(self, game_id: str) -> HostedGame | None:
        """The game a hello names, None if there is none."""
        ...

    def seat_access(self, game: HostedGame, side: Side) -> SeatAccess | None:
        """Who may take the seat now; None: nobody may."""
        ...


class GamesInMemory:
    """The games added to it, loaded from the store when added (`sekigahara host`)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.loaded: dict[str, HostedGame] = {}

    def add(self, game_id: str, seats: dict[Side, SeatAccess]) -> HostedGame:
        """Load a game from the store and replay it (StoreError, RecordError)."""
        game = self.loaded[game_id] = load_hosted_game(self.store, game_id, seats)
        return game

    def find(self, game_id: str) -> HostedGame | None:
        return self.loaded.get(game_id)

    def seat_access(self, game: HostedGame, side: Side) -> SeatAccess | None:
        return game.seats[side]


@frozen
class Change:
    """What was stored and applied to a game: the action (None: the game
    ended outside the rules, results.py), the seat's connection that asked
    for it (None: the computer, the clock), and that request's message id."""

    action: Action | None
    by: Connection | None
    message_id: str | None = None

    def reply_to(self, connection: Connection) -> str | None:
        """The message id a connection's copy of the new state answers: its own request's."""
        if connection is not self.by:
            return None
        return self.action.client_id if self.action is not None else self.message_id


class Subscriber(Protocol):
    """Told by the game server of what happened, in the order it was given them."""

    def game_changed(self, game: HostedGame, change: Change) -> None: ...

    def seat_joined(self, game: HostedGame, side: Side) -> None: ...

    def seat_left(self, game: HostedGame, side: Side) -> None: ...
