"""What the game store holds, as values (store.py reads and writes them):
a game's row, its actions, its end and standing cancel offer, its terms,
and a game as the lobby lists it; and the store's errors."""

from __future__ import annotations

from typing import Literal

from attrs import field, frozen

from rules.surface import Side
from sekigahara_tui.hosting.clocks import Clocks

ActionKind = Literal["command", "undo"]
EndKind = Literal["rules", "resigned", "cancelled", "timed-out", "finished-by-stand-in"]
END_KINDS: tuple[str, ...] = ("rules", "resigned", "cancelled", "timed-out", "finished-by-stand-in")


class StoreError(Exception):
    """The store cannot be opened or written; the message says why in one line."""


class NotOwner(StoreError):
    """Fenced (several hosts): this host no longer owns the game, nothing was stored."""




@frozen
class GameEnd:
    """How a game ended (hosting/results.py words it): by the rules, or outside
    them. `seat`: the side it concerns (who resigned, ran out of time, was
    stood in for); `by`: the member who ended it (None: the rules, the clock)."""

    kind: str  # one of END_KINDS
    winner: Side | None  # None: cancelled
    seat: Side | None
    at: float
    by: str | None


@frozen
class CancelOffer:
    """A standing proposal to cancel a game: `side` proposed it."""

    side: Side
    by: str | None
    at: float


@frozen
class GameInfo:
    id: str
    seed: int
    data_version: str
    position: str | None
    created: float
    status: str  # "playing" or "over"
    result: str | None
    end: GameEnd | None = None
    cancel_offer: CancelOffer | None = None


# The start of an append's error when the game's row in the store may not be
# what the host holds in memory: the row was taken (by a commit whose answer
# never came back, or another writer), or the answer of this commit was lost.
# The host then reads the game again (store_commits.py) rather than go on
# from a memory the store no longer follows.
BEHIND = "the store may hold more of this game than the host"


@frozen
class Action:
    kind: ActionKind
    side: Side
    text: str | None
    client_id: str | None
    at: float
    # The game's clocks charged to `at`, before its hand-over (game_clocks.py):
    # stored in the action's transaction, so a restart recomputes them exactly.
    clock: Clocks | None = field(default=None, eq=False)


@frozen
class GameTerms:
    """A game's terms besides its seats: the only member who may take its open seat
    (None: anyone), watched by its players only, the game it is a rematch of,
    rated (its players agreed at its creation: ratings.py)."""

    invited: str | None = None
    private: bool = False
    rematch_of: str | None = None
    rated: bool = False


@frozen
class GameSummary:
    """A game as a lobby lists it: who plays each seat (None: open), its
    status and result, when it began and last changed, its version."""

    id: str
    players: tuple[str | None, str | None]  # (ishida, tokugawa)
    status: str
    result: str | None
    created: float
    updated: float
    version: int
    terms: GameTerms | None = None  # None: open to all, public

    def player(self, side: Side) -> str | None:
        return self.players[0] if side is Side.ISHIDA else self.players[1]
