"""A tournament's pure logic (issue 26): who plays whom, on which side, and
the standings. No I/O: the store (tournament_store.py) and the club
(tournaments.py) pass in what was played.

Round-robin, as Rally the Troops' Mini Cup: every pair plays twice, sides
swapped. The first cycle is the circle method (the first entrant stays, the
others turn one place a round); the second cycle is the first again with
every game's sides swapped. With an odd number of entrants one sits out
each round (no point for it: each sits out twice, the same for all).

Swiss: a number of rounds, each paired when the one before is over, by the
Monrad ("Danish") rule: the entrants ordered by points, then sign-up order;
the first still unpaired plays the next one below it whom they have not
met (backtracking when the rest cannot then be paired), nor who has
played the same side as often more as they (two or more games more Ishida
than Tokugawa, or the other way: if it can be avoided). A Swiss has at
most half as many rounds as entrants (most_swiss_rounds), so a pairing
without a rematch always exists; should none, rematches are allowed. With an odd number, the
lowest in that order who has had no bye sits out and scores a point (a bye).
Sides: the one who has played Ishida less often (Ishida games minus
Tokugawa games) plays Ishida; if equal, the one who played Tokugawa last;
if still equal, the higher-placed plays Ishida on odd boards, Tokugawa on even.

Scores: a win 1, a loss 0 (a time-out is a loss), a cancelled game half a
point each (cancelling needs both players' consent, results.py: neither is
punished), a bye 1. Tie-breaks: Sonneborn-Berger (the points of the
opponents one beat, plus half the points of those one drew with, counted
per game) in a round-robin; Buchholz (the opponents' points, per game),
then Sonneborn-Berger, in a Swiss; then sign-up order. Games not yet over
count for nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from attrs import frozen

ROUND_ROBIN = "round-robin"
SWISS = "swiss"
FORMATS = (ROUND_ROBIN, SWISS)


@frozen
class Pairing:
    """One board of a round: `ishida` plays Ishida against `tokugawa`; a
    `tokugawa` of None is a bye for `ishida` (Swiss only)."""

    ishida: str
    tokugawa: str | None


@frozen
class Played:
    """A board of a round as it stands: `score` is Ishida's points (1, 0, or
    0.5 for a cancelled game; a bye's 1), None while the game is not over."""

    round: int
    ishida: str
    tokugawa: str | None
    score: float | None


@frozen
class Standing:
    entrant: str
    points: float
    played: int  # games over (not byes)
    wins: int
    ishida: int  # games (made) as Ishida
    tokugawa: int
    sonneborn_berger: float
    buchholz: float


# --- round-robin ------------------------------------------------------------------------


def round_robin(entrants: Sequence[str]) -> list[list[Pairing]]:
    """The rounds of a double round-robin: 2(n-1) rounds (2n with an odd n);
    each pair meets once as each side. Sit-outs are left out of the rounds."""
    if len(entrants) < 2:
        raise ValueError("a round-robin needs at least 2 entrants")
    first, others = entrants[0], list(entrants[1:]) + ([None] if len(entrants) % 2 else [])
    size = len(others) + 1
    cycle: list[list[Pairing]] = []
    for r in range(size - 1):
        turned = others[len(others) - r:] + others[:len(others) - r]
        places = [first] + turned
        boards = []
        for k in range(size // 2):
            a, b = places[k], places[size - 1 - k]
            if a is None or b is None:
                continue  # sits out this round
            # the first entrant's board changes sides every round; the others by board and round
            ishida_first = (r % 2 == 0) if k == 0 else ((r + k) % 2 == 1)
            boards.append(Pairing(a, b) if ishida_first else Pairing(b, a))
        cycle.append(boards)
    return cycle + [[Pairing(p.tokugawa, p.ishida) for p in boards] for boards in cycle]  # type: ignore[arg-type]


# --- standings --------------------------------------------------------------------------


def _points(entrants: Sequence[str], played: Sequence[Played]) -> dict[str, float]:
    points = {e: 0.0 for e in entrants}
    for p in played:
        if p.score is None:
            continue
        points[p.ishida] += p.score
        if p.tokugawa is not None:
            points[p.tokugawa] += 1 - p.score
    return points


def standings(entrants: Sequence[str], played: Sequence[Played], format: str) -> list[Standing]:
    """Each entrant's standing, best first (module docstring: scores and tie-breaks)."""
    points = _points(entrants, played)
    rows = {e: dict(played=0, wins=0, ishida=0, tokugawa=0, sb=0.0, buchholz=0.0) for e in entrants}
    for p in played:
        if p.tokugawa is None:
            continue  # a bye: a point, no opponent
        rows[p.ishida]["ishida"] += 1
        rows[p.tokugawa]["tokugawa"] += 1
        if p.score is None:
            continue
        for me, other, mine in ((p.ishida, p.tokugawa, p.score), (p.tokugawa, p.ishida, 1 - p.score)):
            row = rows[me]
            row["played"] += 1
            row["wins"] += mine == 1
            row["sb"] += mine * points[other]
            row["buchholz"] += points[other]
    table = [
        Standing(e, points[e], r["played"], r["wins"], r["ishida"], r["tokugawa"], r["sb"], r["buchholz"])
        for e, r in rows.items()
    ]
    order = {e: i for i, e in enumerate(entrants)}
    if format == ROUND_ROBIN:
        return sorted(table, key=lambda s: (-s.points, -s.sonneborn_berger, order[s.entrant]))
    return sorted(table, key=lambda s: (-s.points, -s.buchholz, -s.sonneborn_berger, order[s.entrant]))


# --- Swiss ------------------------------------------------------------------------------


def swiss_round(entrants: Sequence[str], played: Sequence[Played]) -> list[Pairing]:
    """The next Swiss round's boards (module docstring), given every board of
    the rounds before (all over). A bye, if any, is the last board."""
    points = _points(entrants, played)
    order = sorted(entrants, key=lambda e: (-points[e], entrants.index(e)))
    met = {frozenset((p.ishida, p.tokugawa)) for p in played if p.tokugawa is not None}
    bye = None
    if len(order) % 2:
        had_bye = {p.ishida for p in played if p.tokugawa is None}
        bye = next(e for e in reversed(order) if e not in had_bye) if len(had_bye) < len(order) else order[-1]
        order.remove(bye)
    balance = {e: _balance(e, played) for e in order}
    # Two who both played one side twice more than the other would leave one 3 off: avoided if it can be.
    clash = {frozenset((a, b)) for a, b in combinations(order, 2) if abs(balance[a]) >= 2 and balance[a] * balance[b] > 0}
    pairs = _pair(order, met | clash) or _pair(order, met) or _pair(order, set())
    assert pairs is not None  # without the rematch rule, adjacent pairs always do
    boards = [_sides(a, b, board, played) for board, (a, b) in enumerate(pairs, start=1)]
    return boards + ([Pairing(bye, None)] if bye is not None else [])


def _pair(order: list[str], met: set[frozenset]) -> list[tuple[str, str]] | None:
    """The first (in Monrad order) pairing of `order` with no pair in `met`; None if none."""
    if not order:
        return []
    first, rest = order[0], order[1:]
    for i, other in enumerate(rest):
        if frozenset((first, other)) in met:
            continue
        tail = _pair(rest[:i] + rest[i + 1:], met)
        if tail is not None:
            return [(first, other)] + tail
    return None


def _balance(e: str, played: Sequence[Played]) -> int:
    """Ishida games minus Tokugawa games."""
    return sum((p.ishida == e) - (p.tokugawa == e) for p in played if p.tokugawa is not None)


def _sides(higher: str, lower: str, board: int, played: Sequence[Played]) -> Pairing:
    def balance(e: str) -> int:
        return _balance(e, played)

    def last(e: str) -> str | None:
        games = [p for p in played if p.tokugawa is not None and e in (p.ishida, p.tokugawa)]
        return None if not games else ("ishida" if max(games, key=lambda p: p.round).ishida == e else "tokugawa")

    if balance(higher) != balance(lower):
        return Pairing(higher, lower) if balance(higher) < balance(lower) else Pairing(lower, higher)
    if last(higher) != last(lower) and "tokugawa" in (last(higher), last(lower)):
        return Pairing(higher, lower) if last(higher) == "tokugawa" else Pairing(lower, higher)
    return Pairing(higher, lower) if board % 2 else Pairing(lower, higher)


def most_swiss_rounds(entrants: int) -> int:
    """The most rounds a Swiss of that many may have: half the entrants. Then
    a pairing without a rematch always exists, whatever the results (those
    not yet met form a graph in which each has at least half the others:
    Dirac's theorem gives it a Hamiltonian cycle, so a perfect matching); with
    more rounds the pairing can be stuck (6 entrants, round 5: seen)."""
    return max(1, entrants // 2)
