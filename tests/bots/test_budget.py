"""Issue 25 §2: levels 2 and 3 keep their time budget. The clock is injected:
it reads the number of engine steps the bot has played in its playouts (a
fake monotonic that advances by TICK per step), so no test races the real
time. A decision stops at the first step past its deadline (SHARE of the
budget), decides on the playouts it finished, and with no time for one
playout gives level 1's choice."""

from __future__ import annotations

import copy

import pytest

from bot_helpers import level_1_decisions
from rules.engine import apply_trusted
from rules.surface import DecisionKind
from rules.view import view
from sekigahara_tui.bots import planner, search
from sekigahara_tui.bots.heuristic import HeuristicBot
from sekigahara_tui.bots.planner import SHARE, PlannerBot
from sekigahara_tui.bots.search import SearchBot

TICK = 0.001  # fake seconds per engine step


class StepClock:
    """Fake seconds: TICK per engine step the bots under test have played."""

    def __init__(self) -> None:
        self.steps = 0

    def __call__(self) -> float:
        return self.steps * TICK

    def apply(self, state, command):
        self.steps += 1
        return apply_trusted(state, command)


@pytest.fixture
def clock(monkeypatch):
    ticking = StepClock()
    monkeypatch.setattr(planner, "apply_trusted", ticking.apply)
    monkeypatch.setattr(search, "apply_trusted", ticking.apply)
    return ticking


def a_move(seed: int = 8):
    """A Movement Phase decision with several stacks to move (its playouts are long)."""
    for state, side, bot in level_1_decisions(seed, limit=300):
        seen = view(state, side)
        if seen.decision.kind is DecisionKind.MOVE and len(seen.legal) > 3:
            return seen, side, bot
    raise AssertionError("no movement decision")


# A few playouts before the deadline, not all (a playout here is about 90 steps):
# level 2, 200-280 steps; level 3 gives each root candidate two playouts in its
# first round (search.SAMPLES), so it compares nothing below about 350: 400-560.
@pytest.mark.parametrize(("level", "budget"), [(PlannerBot, 0.25), (PlannerBot, 0.3), (PlannerBot, 0.35),
                                               (SearchBot, 0.5), (SearchBot, 0.6), (SearchBot, 0.7)])
def test_a_decision_stops_at_the_first_step_past_its_deadline(clock, level, budget):
    seen, side, _ = a_move()
    bot = level(side, 8, clock=clock)
    command = bot.choose(seen, budget)
    assert command in seen.legal
    assert clock.steps <= round(SHARE * budget / TICK) + 1  # one step past the deadline at most
    assert bot.last is not None and 2 <= sum(bot.last["playouts"])  # it compared what it finished
    longer = level(side, 8, clock=StepClock())  # no deadline on the engine steps: the playouts' full length
    longer.fixed_playouts = 64
    longer.choose(seen, budget)
    assert longer.last is not None and sum(longer.last["playouts"]) > sum(bot.last["playouts"])


@pytest.mark.parametrize("level", [PlannerBot, SearchBot])
def test_with_no_time_for_one_playout_level_1_s_choice_stands(clock, level):
    seen, side, level1 = a_move()
    bot = level(side, 8, clock=clock)
    command = bot.choose(seen, 0.02)  # 16 steps: less than one playout to the week's end
    assert clock.steps <= 0.016 / TICK + 1
    assert bot.last is None  # nothing searched
    assert command == copy.deepcopy(level1).choose(seen, 0.0) == HeuristicBot(side, 8).choose(seen, 0.0)


def test_the_same_budget_counted_in_steps_gives_the_same_decision(monkeypatch):
    seen, side, _ = a_move(9)
    answers = []
    for _ in range(2):
        ticking = StepClock()
        monkeypatch.setattr(planner, "apply_trusted", ticking.apply)
        monkeypatch.setattr(search, "apply_trusted", ticking.apply)
        bot = SearchBot(side, 9, clock=ticking)
        answers.append((bot.choose(seen, 0.5), ticking.steps, bot.last and bot.last["playouts"]))
    assert answers[0] == answers[1]


def test_a_bot_that_returned_late_leaves_itself_a_larger_margin(clock):
    seen, side, level1 = a_move()
    bot = SearchBot(side, 8, clock=clock)
    bot.late = 0.1  # its last decisions returned up to 0.1 s after their deadline (a loaded machine)
    bot.choose(seen, 0.3)
    assert clock.steps <= (0.3 - 0.1) / TICK + 1  # the deadline came 0.1 s before the budget's end, not 0.06
    assert 0.0 <= bot.late <= 0.1  # as late as one step at most this time: the margin shrinks again
    swamped = PlannerBot(side, 8, clock=clock)
    swamped.late = 0.5  # more than the budget: no time to search at all
    before = clock.steps
    assert swamped.choose(seen, 0.3) == copy.deepcopy(level1).choose(seen, 0.0) and clock.steps == before
