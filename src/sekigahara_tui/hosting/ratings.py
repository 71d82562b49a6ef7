"""The club's ratings (issue 26, docs/club.md "Ratings"): Elo as Rally the
Troops keeps it (its server.js, update_elo_ratings), pure: no store, no clock.

Every player starts at START; after a rated game each side's rating moves by
round(K * (score - expected)), where expected = 1 / (1 + 10 ** ((other - mine) / 400))
and score is 1 for a win, 0 for a loss (0.5 for a draw, should the rules ever
give one). Ratings are whole numbers, rounded half up as JavaScript's
Math.round does, so replaying the same games in the same order gives the
same table to the point (rating_store.py's --recompute relies on it).

Which games count (rated_game): a game both players agreed to rate (its
`rated` term), with both seats filled, ended by the rules, a resignation, a
time-out or a stand-in. A cancelled game counts for nobody. A time-out, and a
game finished by a stand-in (the computer playing on for a member out of
time), is a loss for the side that ran out of time, whatever the board says
after. A guest's game is not rated (a guest's name is anyone's). The
computer is rated too, one rating per level ("computer:planner"), from the
rated games members play against it.
"""

from __future__ import annotations

import math
from typing import Iterable

from attrs import evolve, frozen

from rules.surface import Side

START = 1500
K = 30
COMPUTER = "computer"  # hosting/members.py's COMPUTER: the seat the club plays
GUEST_PREFIX = "guest-"  # hosting/members.py's GUEST_PREFIX
NOT_RATED_KINDS = frozenset({"cancelled"})
# Kinds whose `seat` (who resigned, ran out of time, was stood in for) loses.
SEAT_LOSES_KINDS = frozenset({"resigned", "timed-out", "finished-by-stand-in"})


@frozen
class RatedGame:
    """One rated game's outcome: its players' rating names and the side that
    lost (None: a draw). `at`: when it ended; games are rated in (at, game) order."""

    game: str
    at: float
    ishida: str
    tokugawa: str
    loser: Side | None

    def player(self, side: Side) -> str:
        return self.ishida if side is Side.ISHIDA else self.tokugawa

    def score(self, side: Side) -> float:
        return 0.5 if self.loser is None else (0.0 if self.loser is side else 1.0)


@frozen
class Rating:
    """A player's rating now, with the games behind it: played and won as each side."""

    player: str
    rating: int = START
    games: int = 0
    ishida_games: int = 0
    ishida_wins: int = 0
    tokugawa_games: int = 0
    tokugawa_wins: int = 0
    last: float | None = None  # when their last rated game ended


@frozen
class RatingStep:
    """One player's rating before and after one rated game (their history)."""

    game: str
    at: float
    player: str
    side: Side
    score: float
    before: int
    after: int


def rating_name(player: str, computer_level: str | None) -> str:
    """The name a seat's player is rated under: a member's own, or the computer's level's."""
    return f"{COMPUTER}:{computer_level or 'heuristic'}" if player == COMPUTER else player


def rated_game(game: str, at: float, kind: str, winner: Side | None, seat: Side | None, rated: bool,
               ishida: str | None, tokugawa: str | None, computer_level: str | None = None) -> RatedGame | None:
    """The game's rated outcome from its stored result, or None if it is not rated."""
    if not rated or kind in NOT_RATED_KINDS or ishida is None or tokugawa is None:
        return None
    if any(player.startswith(GUEST_PREFIX) for player in (ishida, tokugawa)):
        return None
    if kind in SEAT_LOSES_KINDS and seat is not None:
        loser: Side | None = seat
    else:
        loser = winner.other if winner is not None else None
    return RatedGame(game, at, rating_name(ishida, computer_level), rating_name(tokugawa, computer_level), loser)


def expected(mine: int, other: int) -> float:
    """The score Elo expects of a player rated `mine` against one rated `other`."""
    return 1 / (1 + 10 ** ((other - mine) / 400))


def change(mine: int, other: int, score: float) -> int:
    """The whole points a rating moves by (rounded half up, like Math.round)."""
    return math.floor(K * (score - expected(mine, other)) + 0.5)


def rate(table: dict[str, Rating], game: RatedGame) -> tuple[RatingStep, RatingStep]:
    """Apply one game to `table` (changed in place); both players' steps."""
    now = {side: table.get(game.player(side)) or Rating(game.player(side)) for side in (Side.ISHIDA, Side.TOKUGAWA)}
    steps = []
    for side in (Side.ISHIDA, Side.TOKUGAWA):
        mine, other = now[side], now[side.other]
        score = game.score(side)
        after = mine.rating + change(mine.rating, other.rating, score)
        won = int(score == 1.0)
        if side is Side.ISHIDA:
            counts = {"ishida_games": mine.ishida_games + 1, "ishida_wins": mine.ishida_wins + won}
        else:
            counts = {"tokugawa_games": mine.tokugawa_games + 1, "tokugawa_wins": mine.tokugawa_wins + won}
        steps.append(RatingStep(game.game, game.at, mine.player, side, score, mine.rating, after))
        table[mine.player] = evolve(mine, rating=after, games=mine.games + 1, last=game.at, **counts)
    return steps[0], steps[1]


def rate_all(games: Iterable[RatedGame]) -> tuple[dict[str, Rating], list[RatingStep]]:
    """The table and the history that `games` leave, from nobody rated: in (at, game) order."""
    table: dict[str, Rating] = {}
    history: list[RatingStep] = []
    for game in sorted(games, key=lambda g: (g.at, g.game)):
        history.extend(rate(table, game))
    return table, history


def ranked(table: Iterable[Rating]) -> list[Rating]:
    """Highest rating first; ties by more games, then by name."""
    return sorted(table, key=lambda r: (-r.rating, -r.games, r.player))


def win_rate(wins: int, games: int) -> str:
    """'62%' (or '-' for no games), for the ratings list."""
    return f"{round(100 * wins / games)}%" if games else "-"
