"""The tournament's pure logic (hosting/tournament_pairing.py), each case
worked out by hand in the comments."""

from __future__ import annotations

import random

import pytest

from sekigahara_tui.hosting.tournament_pairing import (
    ROUND_ROBIN, SWISS, Pairing as P, Played, most_swiss_rounds, round_robin, standings, swiss_round,
)

SIX = ["a", "b", "c", "d", "e", "f"]


def test_round_robin_of_four_by_hand():
    # Circle method: a stays, [b, c, d] turn one place a round; a changes sides each round.
    # r1 [a b c d]: a-d, b-c; r2 [a d b c]: c-a, b-d; r3 [a c d b]: a-b, c-d; then sides swapped.
    assert round_robin(["a", "b", "c", "d"]) == [
        [P("a", "d"), P("b", "c")],
        [P("c", "a"), P("b", "d")],
        [P("a", "b"), P("c", "d")],
        [P("d", "a"), P("c", "b")],
        [P("a", "c"), P("d", "b")],
        [P("b", "a"), P("d", "c")],
    ]


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 8])
def test_round_robin_every_pair_twice_sides_swapped(n):
    entrants = [f"p{i}" for i in range(n)]
    rounds = round_robin(entrants)
    assert len(rounds) == 2 * (n - 1 + n % 2)
    games = [(p.ishida, p.tokugawa) for boards in rounds for p in boards]
    assert sorted(games) == sorted((a, b) for a in entrants for b in entrants if a != b)  # each ordered pair once
    for boards in rounds:
        seated = [e for p in boards for e in (p.ishida, p.tokugawa)]
        assert len(seated) == len(set(seated)) == n - n % 2  # once a round; one sits out if odd
    for e in entrants:
        assert sum(p.ishida == e for b in rounds for p in b) == n - 1 == sum(p.tokugawa == e for b in rounds for p in b)


def test_round_robin_standings_with_sonneborn_berger_by_hand():
    # Ishida's score per game, in the schedule above:
    # r1 a-d 1, b-c 0 | r2 c-a 1, b-d 1 | r3 a-b 0, c-d 1 | r4 d-a 0, c-b 1 | r5 a-c 1, d-b 0 | r6 b-a 0, d-c 1
    scores = [[1, 0], [1, 1], [0, 1], [0, 1], [1, 0], [0, 1]]
    played = [Played(r + 1, p.ishida, p.tokugawa, s) for r, (boards, row) in enumerate(zip(round_robin("abcd"), scores))
              for p, s in zip(boards, row)]
    # a: W L L W W W = 4; b: L W W L W L = 3; c: W W W W L L = 4; d: L L L L L W = 1.
    # SB a: beat d, d, c, b = 1+1+4+3 = 9; c: beat b, a, d, b = 3+4+1+3 = 11 (so c above a);
    # b: beat d, a, d = 1+4+1 = 6; d: beat c = 4.
    table = standings(list("abcd"), played, ROUND_ROBIN)
    assert [(s.entrant, s.points, s.sonneborn_berger, s.wins, s.played) for s in table] == [
        ("c", 4, 11, 4, 6), ("a", 4, 9, 4, 6), ("b", 3, 6, 3, 6), ("d", 1, 4, 1, 6),
    ]
    assert all((s.ishida, s.tokugawa) == (3, 3) for s in table)


def test_games_not_over_count_for_nothing_and_a_tie_falls_to_sign_up_order():
    played = [Played(1, "b", "a", None), Played(1, "c", "d", None)]
    table = standings(list("abcd"), played, ROUND_ROBIN)
    assert [(s.entrant, s.points, s.played) for s in table] == [("a", 0, 0), ("b", 0, 0), ("c", 0, 0), ("d", 0, 0)]
    assert (table[0].tokugawa, table[1].ishida) == (1, 1)  # made games count for the sides


def test_swiss_of_six_three_rounds_by_hand():
    # Round 1: all on 0, sign-up order; board 1 the higher plays Ishida, board 2 Tokugawa, board 3 Ishida.
    r1 = swiss_round(SIX, [])
    assert r1 == [P("a", "b"), P("d", "c"), P("e", "f")]
    played = [Played(1, "a", "b", 1), Played(1, "d", "c", 0), Played(1, "e", "f", 0)]  # a, c, f win
    # Order: a c f (1) b d e (0). a-c; f-b; d-e.
    # Sides: a +1 vs c -1: c Ishida. f -1, b -1, both last Tokugawa: board 2, b (lower) Ishida.
    # d +1, e +1, both last Ishida: board 3, d (higher) Ishida.
    r2 = swiss_round(SIX, played)
    assert r2 == [P("c", "a"), P("b", "f"), P("d", "e")]
    played += [Played(2, "c", "a", 0), Played(2, "b", "f", 0.5), Played(2, "d", "e", 1)]  # a wins, b-f cancelled, d wins
    # Points: a 2, f 1.5, c 1, d 1, b 0.5, e 0. a-f; c-d met, c-b leaves d-e (met): c-e, d-b.
    # Sides: a 0 vs f -2: f Ishida. c 0 vs e 0, c last Ishida, e last Tokugawa: e Ishida. d +2 vs b 0: b Ishida.
    r3 = swiss_round(SIX, played)
    assert r3 == [P("f", "a"), P("e", "c"), P("b", "d")]
    played += [Played(3, "f", "a", 1), Played(3, "e", "c", 0), Played(3, "b", "d", 1)]
    # Points: f 2.5, a 2, c 2, b 1.5, d 1, e 0.
    # Buchholz: a b+c+f = 1.5+2+2.5 = 6; c d+a+e = 1+2+0 = 3 (a above c);
    # b a+f+d = 2+2.5+1 = 5.5; e f+d+c = 2.5+1+2 = 5.5; d c+e+b = 2+0+1.5 = 3.5; f e+b+a = 0+1.5+2 = 3.5.
    # Sonneborn-Berger: f beat e, drew b, beat a = 0+0.75+2 = 2.75; a beat b, c = 1.5+2 = 3.5; c beat d, e = 1;
    # b drew f, beat d = 1.25+1 = 2.25; d beat e = 0; e 0.
    table = standings(SIX, played, SWISS)
    assert [(s.entrant, s.points, s.buchholz, s.sonneborn_berger) for s in table] == [
        ("f", 2.5, 3.5, 2.75), ("a", 2, 6, 3.5), ("c", 2, 3, 1), ("b", 1.5, 5.5, 2.25), ("d", 1, 3.5, 0), ("e", 0, 5.5, 0),
    ]


def test_swiss_bye_goes_to_the_lowest_without_one_and_scores_a_point():
    five = list("abcde")
    r1 = swiss_round(five, [])
    assert r1 == [P("a", "b"), P("d", "c"), P("e", None)]
    played = [Played(1, p.ishida, p.tokugawa, 1 if p.tokugawa is None else 0) for p in r1]  # b, c win; e's bye
    table = standings(five, played, SWISS)
    assert [(s.entrant, s.points, s.played) for s in table][:3] == [("b", 1, 1), ("c", 1, 1), ("e", 1, 0)]
    # Order b c e (1) a d (0): e had the bye, so d (lowest without one) sits out; b-c, e-a.
    r2 = swiss_round(five, played)
    assert r2[-1] == P("d", None) and {frozenset((p.ishida, p.tokugawa)) for p in r2[:-1]} == {frozenset("bc"), frozenset("ea")}


@pytest.mark.parametrize("n", range(2, 17))
def test_swiss_never_rematches_within_its_most_rounds(n):
    """Whatever the results (200 random sequences a size, seeded), within
    most_swiss_rounds nobody meets anyone twice, everyone plays or sits out
    each round, nobody sits out twice, and each one's sides differ by at most 2."""
    rng = random.Random(n)
    entrants = [f"p{i:02}" for i in range(n)]
    assert most_swiss_rounds(n) == max(1, n // 2)
    for _ in range(200):
        played: list[Played] = []
        for r in range(1, most_swiss_rounds(n) + 1):
            boards = swiss_round(entrants, played)
            seated = [e for p in boards for e in (p.ishida, p.tokugawa) if e is not None]
            assert sorted(seated) == entrants
            played += [Played(r, p.ishida, p.tokugawa, 1 if p.tokugawa is None else rng.choice((0, 0.5, 1))) for p in boards]
        pairs = [frozenset((p.ishida, p.tokugawa)) for p in played if p.tokugawa is not None]
        assert len(pairs) == len(set(pairs))
        byes = [p.ishida for p in played if p.tokugawa is None]
        assert len(byes) == len(set(byes))
        for e in entrants:
            balance = sum((p.ishida == e) - (p.tokugawa == e) for p in played if p.tokugawa is not None)
            assert abs(balance) <= 2, (e, balance, played)


def test_a_swiss_past_its_most_rounds_can_be_stuck_then_rematches():
    """Why most_swiss_rounds is half the entrants: 6 entrants, the higher
    number winning each game, round 5 has no pairing without a rematch."""
    entrants = [f"p{i}" for i in range(6)]
    played: list[Played] = []
    for r in range(1, 6):
        boards = swiss_round(entrants, played)
        played += [Played(r, p.ishida, p.tokugawa, float(p.ishida > p.tokugawa)) for p in boards]
    pairs = [frozenset((p.ishida, p.tokugawa)) for p in played]
    assert len(set(pairs)) < len(pairs) and len(set(pairs[:9])) == 9
