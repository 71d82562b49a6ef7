"""Issue 14, level 2 ("planner"): successive halving spends its playouts on the
leading candidates; level 1's ranked candidates start with level 1's own
choice and leave it unchanged; the evaluation; the planner's choices at big
decisions are level 1's candidates. (Whole games and the no-cheat test:
test_bots.py, which covers every level.)"""

from __future__ import annotations

import copy
import random

from rules.engine import start_game
from rules.sides import Side
from rules.surface import DecisionKind
from rules.view import view
from bot_helpers import level_1_decisions
from sekigahara_tui.bots.play import play_game
from sekigahara_tui.bots.planner import BIG, WIN, OutOfTime, PlannerBot, evaluate, successive_halving


def noisy(means, seed=0):
    rng = random.Random(seed)
    calls = []

    def evaluate_(i, j):
        calls.append((i, j))
        return means[i] + rng.gauss(0.0, 0.3)

    return evaluate_, calls


def test_successive_halving_spends_more_playouts_on_the_leading_candidates():
    evaluate_, calls = noisy([0.0, 3.0, 1.0, 2.0])
    best, pulls, means = successive_halving(4, evaluate_, 64)
    # Two rounds of 32 playouts: 8 each, then 16 more for each of the better two.
    assert best == 1
    assert pulls == [8, 24, 8, 24]
    assert sum(pulls) == len(calls) == 64
    assert means[1] > means[3] > means[2] > means[0]


def test_successive_halving_with_eight_candidates_halves_each_round():
    evaluate_, _ = noisy([0, 1, 2, 3, 4, 5, 6, 7], seed=1)
    best, pulls, _ = successive_halving(8, evaluate_, 96)
    # Three rounds of 32: 4 each for eight, 8 more for four, 16 more for two.
    assert best == 7
    assert sorted(pulls) == [4, 4, 4, 4, 12, 12, 28, 28]
    assert pulls[7] == pulls[6] == 28


def test_successive_halving_plays_every_candidate_on_the_same_samples():
    evaluate_, calls = noisy([1.0, 0.0, 2.0])
    successive_halving(3, evaluate_, 12)
    for i in range(3):
        assert [j for k, j in calls if k == i] == list(range(len([1 for k, _ in calls if k == i])))


def test_a_bonus_keeps_level_1_s_choice_against_a_close_alternative():
    evaluate_, _ = noisy([1.0, 1.1], seed=2)
    best, _, _ = successive_halving(2, evaluate_, 40, bonus=[0.5, 0.0])
    assert best == 0


def test_successive_halving_out_of_time_in_the_first_round_keeps_level_1_s_choice():
    ticks = iter(range(1000))  # a clock that advances by one per read (one read per playout)
    evaluate_, calls = noisy([0.0, 1.0, 2.0, 3.0])
    best, pulls, _ = successive_halving(4, evaluate_, 1000, deadline=2.5, clock=lambda: next(ticks))
    assert pulls == [1, 1, 1, 0] and len(calls) == 3  # the round was not finished: dropped
    assert best == 0


def test_successive_halving_out_of_time_later_compares_the_survivors_on_their_common_samples():
    def evaluate_(i, j):
        if (i, j) == (1, 4):
            raise OutOfTime  # the deadline passed in this playout
        return {0: 0.0, 1: 1.0, 2: 2.0, 3: -1.0}[i] - (50.0 if (i, j) == (2, 4) else 0.0)

    best, pulls, _ = successive_halving(4, evaluate_, 32)
    # Round one: 4 each; round two (2 and 1 survive): 2 has a fifth sample, 1 has not.
    assert pulls == [4, 4, 5, 4]
    assert best == 2  # on the four samples both have: 2 > 1 (its fifth, -50, is not counted)


decisions = level_1_decisions


def test_level_1_candidates_start_with_its_choice_are_legal_and_change_nothing():
    kinds = set()
    for state, side, bot in decisions(4):
        seen = view(state, side)
        if seen.decision.kind not in BIG or len(seen.legal) < 2:
            continue
        before = copy.deepcopy(bot)
        found = bot.candidates(seen, 4)
        assert found[0] == copy.deepcopy(bot).choose(seen, 0.0)
        assert all(c in seen.legal for c in found) and len(set(found)) == len(found) <= 4
        assert (bot.plan, bot.claimed, bot.phase_key) == (before.plan, before.claimed, before.phase_key)
        if len(found) > 1:
            kinds.add(seen.decision.kind)
    assert {DecisionKind.MOVE, DecisionKind.BID, DecisionKind.DEPLOY, DecisionKind.CHOOSE_MOVEMENT} <= kinds


def test_the_evaluation_is_zero_sum_at_the_start_and_decisive_at_the_end():
    state, _ = start_game(1)
    assert evaluate(state, Side.ISHIDA) == -evaluate(state, Side.TOKUGAWA)
    outcome = play_game(2, "heuristic", "heuristic")
    winner = outcome.winner
    assert evaluate(outcome.state, winner) == WIN and evaluate(outcome.state, winner.other) == -WIN


def test_the_planner_chooses_among_level_1_s_candidates_with_a_fixed_number_of_playouts():
    searched = 0
    for n, (state, side, _) in enumerate(decisions(6, limit=300)):
        seen = view(state, side)
        if seen.decision.kind not in BIG or len(seen.legal) < 2 or n % 5:
            continue
        planner = PlannerBot(side, 6, fixed_playouts=6)
        command = planner.choose(seen, 2.0)
        assert command in seen.legal
        if planner.last is not None:
            assert command in planner.last["candidates"] and command == planner.last["chosen"]
            assert sum(planner.last["playouts"]) >= 6 - 1
            searched += 1
        again = PlannerBot(side, 6, fixed_playouts=6).choose(seen, 0.01)
        assert again == command  # no clock in it: the same answer
    assert searched >= 5
