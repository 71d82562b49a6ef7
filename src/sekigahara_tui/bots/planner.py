"""Level 2, "planner": level 1 with look-ahead at the big decisions (issue 14).

At a movement plan (the movement option, which stack moves next, a muster or
the end of the phase), a bid, a reinforcement discard, a deployment or
passing in battle, a challenge, a castle choice and a retreat, the planner
takes level 1's best few candidates (`HeuristicBot.candidates`) and scores
each by playouts: a complete state sampled from its own view and belief
(bots/sampler.py, a fresh seed each), the candidate applied, then both sides
played by level 1 with a little noise up to the end of the week (or of the
game), and the position scored (`evaluate`: VP, strength on the map, losses,
cards in hand, the great leaders' safety). All candidates are played out on
the same sampled states (common random numbers). The playouts go where they
matter by successive halving: each round gives every surviving candidate the
same number of playouts, then keeps the better half. Level 1's own choice
gets a small bonus, so noise alone does not overturn it. Everywhere else the
planner answers as level 1.

The time budget of a decision becomes a number of playouts from the measured
cost of the first one. The deadline (SHARE of the budget, on `clock`:
time.monotonic, or a test's) is checked at every playout step: once it has
passed, the playout under way and its unfinished round are dropped and the
survivors compared on the samples they all have; with no time for one
playout (or, at level 3, two a candidate) level 1's choice stands. Level 1's
own choice is worked out before the search, so nothing is left to do after
the deadline: a decision takes its budget's SHARE plus one playout step (a
few ms; the rest of the budget is the margin). With `fixed_playouts` set
(tests), the number does not depend on the clock and the bot is
deterministic for its seed and what it has seen.

The planner never receives the game's state: it runs the engine on the
states it sampled itself, so it imports the engine (like sampler.py).
"""

from __future__ import annotations

import copy
import math
import random
import time
from typing import Callable, Sequence

from rules.components import default_components
from rules.engine import apply_trusted
from rules.state import ELIMINATED, GameState
from rules.surface import Command, DecisionKind, Event, PlayerView, Side
from rules.victory import victory_points
from rules.view import view as view_of
from sekigahara_tui.bots.belief import Belief
from sekigahara_tui.bots.heuristic import HeuristicBot
from sekigahara_tui.bots.knowledge import HOME, MAIN_LEADERS, map_data
from sekigahara_tui.bots.sampler import Sampler

BIG = frozenset({
    DecisionKind.CHOOSE_MOVEMENT,
    DecisionKind.MOVE,
    DecisionKind.BID,
    DecisionKind.REINFORCEMENT_DISCARD,
    DecisionKind.DEPLOY,
    DecisionKind.CHALLENGE,
    DecisionKind.CASTLE_CHOICE,
    DecisionKind.RETREAT,
})
# Decisions where a playout's level-1 player may take its second or third choice.
NOISY = frozenset({DecisionKind.BID, DecisionKind.DEPLOY, DecisionKind.CHALLENGE, DecisionKind.RETREAT, DecisionKind.CASTLE_CHOICE})
CANDIDATES = 4  # level 1's choice and up to three alternatives
NOISE = 0.1  # the chance a playout player strays from level 1 at a noisy decision
LEVEL1_BONUS = 0.4  # in evaluation points: what an alternative must beat level 1's choice by
SHARE = 0.8  # of the budget spent on playouts: the deadline (the rest: the margin)
LATE_DECAY = 0.95  # a decision's lateness past its deadline is forgotten by this factor a decision
MAX_PLAYOUT_DECISIONS = 600
MAX_GAME_DECISIONS = 20_000  # a playout to the end of the game (bots/play.py's bound)
WIN = 50.0


# --- successive halving --------------------------------------------------------------------


class OutOfTime(Exception):
    """The decision's deadline passed during a playout: that playout is dropped."""


class Deadline:
    """A decision's deadline on a clock (time.monotonic, or a test's): `check`
    is called at every playout step and raises OutOfTime once it has passed."""

    def __init__(self, at: float | None, clock: Callable[[], float] = time.monotonic) -> None:
        self.at = at
        self.clock = clock

    def passed(self) -> bool:
        return self.at is not None and self.clock() > self.at

    def check(self) -> None:
        if self.passed():
            raise OutOfTime


NO_DEADLINE = Deadline(None)


def successive_halving(
    n: int,
    evaluate: Callable[[int, int], float],
    total: int,
    *,
    deadline: float | None = None,
    clock: Callable[[], float] = time.monotonic,
    bonus: Sequence[float] | None = None,
) -> tuple[int, list[int], list[float]]:
    """Spend about `total` playouts on `n` candidates; `evaluate(i, j)` is
    candidate i's score on sample j. Each of ceil(log2 n) rounds shares an
    equal part of `total` among the surviving candidates (at least one playout
    each, on the same samples), then keeps the better half by mean score.
    Out of time (the clock past `deadline` before a playout, or `evaluate`
    raising OutOfTime) the unfinished round is dropped: the survivors are
    compared on the samples each of them has played; if not every candidate
    has one yet, candidate 0 (level 1's choice) is chosen.
    Returns (the best candidate, playouts per candidate, mean per candidate)."""
    scores: list[list[float]] = [[] for _ in range(n)]
    bonus = list(bonus) if bonus is not None else [0.0] * n
    limit = Deadline(deadline, clock)

    def mean(i: int, upto: int | None = None) -> float:
        known = scores[i][:upto]
        return sum(known) / len(known) + bonus[i] if known else -math.inf

    alive = list(range(n))
    rounds = max(1, math.ceil(math.log2(n))) if n > 1 else 1
    try:
        for _ in range(rounds):
            per = max(1, total // (len(alive) * rounds))
            for _ in range(per):
                for i in alive:
                    limit.check()
                    scores[i].append(evaluate(i, len(scores[i])))
            if len(alive) == 1:
                break
            alive.sort(key=lambda i: (-mean(i), i))
            alive = alive[: max(1, math.ceil(len(alive) / 2))]
        best = max(alive, key=lambda i: (mean(i), -i))
    except OutOfTime:
        common = min(len(scores[i]) for i in alive)  # the samples every survivor has played
        best = max(alive, key=lambda i: (mean(i, common), -i)) if common else 0
    pulls = [len(each) for each in scores]
    return best, pulls, [mean(i) if pulls[i] else 0.0 for i in range(n)]


# --- evaluation ------------------------------------------------------------------------------


def evaluate(state: GameState, me: Side) -> float:
    """How good `state` is for `me`, in VP-like points: the game's result if it
    is over; else VP, strength on the map, losses, cards in hand and the great
    leaders' safety, each as a difference between the sides."""
    if state.result is not None:
        sign = 1.0 if state.result.winner is me else -1.0
        return sign * WIN
    c = default_components()
    m = map_data()
    vp = victory_points(state)
    score = 1.0 * (vp[me] - vp[me.other])
    on_map = {me: 0, me.other: 0}
    lost = {me: 0, me.other: 0}
    at: dict[tuple[str, Side], int] = {}
    for block, place in zip(c.blocks, state.positions):
        if place in m.dist:
            on_map[block.side] += block.strength
            at[(place, block.side)] = at.get((place, block.side), 0) + block.strength
        elif place == ELIMINATED:
            lost[block.side] += block.strength
    score += 0.15 * (on_map[me] - on_map[me.other])
    score -= 0.2 * (lost[me] - lost[me.other])
    score += 0.25 * (len(state.cards[me].hand) - len(state.cards[me.other].hand))
    for side, sign in ((me, -1.0), (me.other, 1.0)):  # a great leader in danger
        place = state.positions[c.block_index(MAIN_LEADERS[side])]
        if place not in m.dist:
            continue
        guard = at.get((place, side), 0)
        threat = sum(n for (loc, s), n in at.items() if s is side.other and m.distance(place, loc) <= 1)
        if threat > guard:
            score += sign * 0.3 * min(threat - guard, 10)
        if place != HOME[side] and threat > 0:
            score += sign * 0.5
    return score


# --- the bot ---------------------------------------------------------------------------------


class PlannerBot:
    searched = BIG  # the decisions it looks ahead at (level 3 searches more: search.py)
    min_samples = 1  # playouts each root candidate should get in the first round (fewer candidates if short)

    def __init__(self, side: Side, seed: int, fixed_playouts: int | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.side = side
        self.seed = seed
        self.level1 = HeuristicBot(side, seed)
        self.own = self.level1  # level 1 once it has made its own choice at this decision (choose)
        self.adopted: dict[Command, HeuristicBot] = {}  # level 1 with another candidate adopted (search)
        self.late = 0.0  # how long after their deadline recent decisions returned: a decaying maximum
        self.belief = Belief(side)
        self.random = random.Random(f"planner/{side.value}/{seed}")
        self.sampler = Sampler(side, self.belief, random.Random(f"planner-sampler/{side.value}/{seed}"))
        self.fixed_playouts = fixed_playouts
        self.clock = clock  # read at every playout step (tests pass one that advances per read)
        self.last: dict | None = None  # the last search: candidates, playouts, means (for tests and tuning)

    def observe(self, events: Sequence[Event]) -> None:
        self.level1.observe(events)
        self.belief.observe(events)

    def choose(self, view: PlayerView, budget_s: float) -> Command:
        started = self.clock()
        self.belief.see(view)
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if view.decision.kind not in self.searched:
            return self.level1.choose(view, budget_s)
        candidates = self.candidates(view)
        if len(candidates) <= 1:
            return self.level1.choose(view, budget_s)
        # Level 1 once it has made its own choice (its plan, its claims), worked
        # out now so that nothing is left to do once the deadline has passed.
        self.own = copy.deepcopy(self.level1)
        self.own.choose(view, 0.0)
        if self.fixed_playouts is not None:
            deadline = NO_DEADLINE
        else:  # the margin: the rest of the budget, or more if recent decisions ran that late (a loaded machine)
            deadline = Deadline(started + budget_s - max((1 - SHARE) * budget_s, self.late), self.clock)
        self.adopted: dict[Command, HeuristicBot] = {}
        chosen = self.search(view, candidates, deadline)
        if chosen == candidates[0]:
            self.level1 = self.own
        elif chosen in self.adopted:  # level 1 with `chosen` adopted, as the search played it
            self.level1 = self.adopted[chosen]
        else:
            self.level1.adopt(view, chosen)
        if deadline.at is not None:
            self.late = max(self.clock() - deadline.at, LATE_DECAY * self.late)
        return chosen

    # --- the search ------------------------------------------------------------------

    def candidates(self, view: PlayerView) -> list[Command]:
        """What the search compares: level 1's choice and its next best."""
        return self.level1.candidates(view, CANDIDATES)

    def _after(self, view: PlayerView, command: Command, own: bool) -> HeuristicBot:
        """Level 1 for this side as it stands once `command` is chosen (`own`:
        level 1's own choice)."""
        if own:
            return copy.deepcopy(self.own)
        bot = copy.deepcopy(self.level1)
        bot.adopt(view, command)
        return bot

    def search(self, view: PlayerView, candidates: list[Command], deadline: Deadline) -> Command:
        """The best of `candidates` by successive halving of playouts. The
        budget: `fixed_playouts`, or as many as the first playout's cost says
        fit before the deadline; out of time, the unfinished round is dropped
        (successive_halving), and with no time for one playout level 1's
        choice stands."""
        self.last = {"candidates": candidates, "playouts": [0] * len(candidates), "means": [0.0] * len(candidates),
                     "chosen": candidates[0]}
        mine: dict[int, HeuristicBot] = {}
        samples: list[tuple[GameState, int]] = []
        week = view.week

        def sample(j: int) -> tuple[GameState, int]:
            while len(samples) <= j:
                samples.append((self.sampler.sample(view), self.random.randrange(2**31)))
            return samples[j]

        def playout(i: int, j: int) -> float:
            deadline.check()
            if i not in mine:
                mine[i] = self.adopted[candidates[i]] = self._after(view, candidates[i], i == 0)
            state, noise_seed = sample(j)
            deadline.check()  # neither of those is cut short: look again
            state, _ = apply_trusted(state, candidates[i])
            bots = {self.side: copy.deepcopy(mine[i]), self.side.other: HeuristicBot(self.side.other, noise_seed)}
            return self._score(i, state, bots, week, random.Random(noise_seed), deadline)

        if self.fixed_playouts is not None:
            total = self.fixed_playouts
        else:
            begun = self.clock()
            try:
                first = playout(0, 0)
            except OutOfTime:
                self.last = None
                return candidates[0]  # no time for even one playout: level 1's choice
            cost = max(self.clock() - begun, 1e-4)
            total = int(max(0.0, deadline.at - self.clock()) / cost) + 1
            memo = {(0, 0): first}
            inner = playout

            def playout(i: int, j: int) -> float:  # noqa: F811 - the probe counts as a playout
                return memo.pop((i, j)) if (i, j) in memo else inner(i, j)

        # Few playouts in the time: fewer candidates, so each has `min_samples` (level 1's first).
        n = len(candidates) if self.fixed_playouts is not None else min(len(candidates), max(1, total // self.min_samples))
        if n == 1:
            self.last = None
            return candidates[0]
        bonus = [LEVEL1_BONUS] + [0.0] * (n - 1)
        best, pulls, means = successive_halving(n, playout, total, bonus=bonus)
        pulls += [0] * (len(candidates) - n)
        means += [0.0] * (len(candidates) - n)
        self.last.update(playouts=pulls, means=means, chosen=candidates[best])
        return candidates[best]

    def _score(self, i: int, state: GameState, bots: dict, week: int, noise: random.Random, deadline: Deadline) -> float:
        """Candidate i's score on one sample, `state` the sample once it is
        chosen: a playout to the end of the week (level 3: through its tree)."""
        return evaluate(play_out(state, bots, noise, week, deadline), self.side)


def play_out(state: GameState, bots: dict, noise: random.Random, week: int | None = None,
             deadline: Deadline = NO_DEADLINE) -> GameState:
    """Both sides played by their level-1 `bots` (a little `noise` at the noisy
    decisions) to the end of `week`, or of the game if None (the analysis of a
    finished game, analysis.py). Raises OutOfTime once `deadline` has passed."""
    last: dict[Side, tuple[GameState, PlayerView]] = {}  # each side's last view lends what did not change
    for _ in range(MAX_PLAYOUT_DECISIONS if week is not None else MAX_GAME_DECISIONS):
        if state.is_over or (week is not None and state.week != week):
            break
        deadline.check()
        side = min(state.decision.sides, key=lambda s: s.value)
        seen = view_of(state, side, last.get(side))
        last[side] = (state, seen)
        if not seen.legal:
            break
        state, _ = apply_trusted(state, playout_command(seen, bots[side], noise))
    return state


def playout_command(seen: PlayerView, bot: HeuristicBot, noise: random.Random) -> Command:
    """A playout player's command at `seen`: level 1's (`bot`), or at a noisy
    decision now and then one of its next best (also level 3's, search.py)."""
    if seen.decision.kind in NOISY and len(seen.legal) > 1 and noise.random() < NOISE:
        command = noise.choice(bot.candidates(seen, 3))
    else:
        command = bot.choose(seen, 0.0)
    return command if command in seen.legal else seen.legal[0]
