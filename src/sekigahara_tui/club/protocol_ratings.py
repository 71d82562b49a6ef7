"""The club's messages about ratings (docs/club.md, Ratings): `get_ratings`
from the client, `ratings` in answer: the club's table and one player's
history (hosting/club_ratings.py answers; hosting/ratings.py rates)."""

from __future__ import annotations

from attrs import field, frozen

from rules.surface import Side
from sekigahara_tui.club.protocol_fields import _bounded
from sekigahara_tui.net.protocol import MAX_ID_LENGTH

MAX_RATING_NAME = 64  # a member's name, or "computer:LEVEL"
MAX_TABLE = 500  # the highest rated, at most
MAX_HISTORY = 500  # a player's last rated games, at most


@frozen
class GetRatings:
    """Ask for the club's ratings and `player`'s history (None: the asker's own)."""

    id: str = field(validator=_bounded(MAX_ID_LENGTH))
    player: str | None = field(default=None, validator=_bounded(MAX_RATING_NAME))


@frozen
class RatingLine:
    """One player's rating now: games played, and played and won as each side."""

    player: str
    rating: int
    games: int
    ishida_games: int
    ishida_wins: int
    tokugawa_games: int
    tokugawa_wins: int


@frozen
class RatingPoint:
    """One rated game of a player's: the side played, the score (1 won, 0 lost),
    the rating after it. `game`: None for a private game the asker may not see."""

    game: str | None
    at: float
    side: Side
    score: float
    after: int


@frozen
class Ratings:
    """The answer to get_ratings: the table, highest first, and the player's
    history, oldest first, from `start` (every player's first rating)."""

    reply_to: str
    table: tuple[RatingLine, ...]
    player: str
    history: tuple[RatingPoint, ...]
    start: int
