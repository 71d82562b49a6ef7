"""Level 3, "search": information-set Monte Carlo tree search (issue 25 §2).

Single-observer ISMCTS (Cowling, Powley and Whitehouse 2012; OpenSpiel's
ismcts.py): one tree for this side's information set, each iteration on a
fresh determinization, a complete state sampled from the side's view and
belief (bots/sampler.py), as the planner's playouts are. An iteration:

- selection: from the root, the decisions of the sampled game are answered in
  turn. At a big decision (planner.BIG) of this side (and of the enemy's, with
  `enemy_nodes`) the tree chooses among level 1's best few candidates
  (`HeuristicBot.candidates`) by PUCT: the mean score so far plus a prior from
  level 1's ranking (its own choice first), shrinking as a candidate is
  visited. Candidates differ between determinizations, so a child's share of
  the exploration counts the iterations it was available in (ISMCTS's
  availability counts). Every other decision is answered by level 1;
- expansion: the first candidate never tried from a node ends the descent;
- simulation: level 1 with a little noise to the end of the week (the
  planner's `play_out`), scored by the planner's `evaluate`;
- backpropagation: the score (this side's) into every edge of the path; an
  enemy node takes the candidate worst for this side.

The chosen command is the root's most visited candidate (ties: the better
mean, then level 1's order). Decisions that are not big are level 1's, as
for the planner. The time budget bounds the iterations (`SHARE` of it, less
one iteration's measured cost); `fixed_iterations` (tests) makes the bot
deterministic for its seed and what it has seen. It never receives the
game's state: the engine runs only on the states it sampled itself.
"""

from __future__ import annotations

import copy
import math
import random
import time
from typing import Sequence

from attrs import define, field

from rules.engine import apply_trusted
from rules.state import GameState
from rules.surface import Command, DecisionKind, Event, PlayerView, Side
from rules.view import view as view_of
from sekigahara_tui.bots.belief import Belief
from sekigahara_tui.bots.heuristic import HeuristicBot
from sekigahara_tui.bots.planner import (
    BIG,
    CANDIDATES,
    LEVEL1_BONUS,
    MAX_PLAYOUT_DECISIONS,
    SHARE,
    evaluate,
    play_out,
    playout_command,
    successive_halving,
)
from sekigahara_tui.bots.sampler import Sampler

# The decisions level 1 answers alone that level 3 searches too (their few
# legal commands are the candidates, level 1's first): who moves first (6.3),
# which battle next (8.1), which piece is lost (8.7.2).
SMALL = frozenset({DecisionKind.CHOOSE_FIRST_PLAYER, DecisionKind.DECLARE_COMBAT, DecisionKind.CASUALTY})
SEARCHED = BIG | SMALL
# Level 1's ranking as a prior: its own choice, then its alternatives in order.
PRIORS = (0.55, 0.2, 0.15, 0.1)
C_PUCT = 3.0  # exploration, in evaluation points (planner.evaluate's scale)


@define
class Node:
    """An information set of the tree: its candidates' statistics so far."""

    visits: dict = field(factory=dict)  # command -> iterations through it
    total: dict = field(factory=dict)  # command -> sum of scores (this side's)
    available: dict = field(factory=dict)  # command -> iterations it was a candidate here
    prior: dict = field(factory=dict)  # command -> level 1's prior (the last ranking seen)
    children: dict = field(factory=dict)  # command -> Node

    def mean(self, command: Command) -> float:
        return self.total[command] / self.visits[command]

    def select(self, candidates: Sequence[Command], sign: float) -> Command:
        """PUCT among `candidates` (level 1's order), from the view of the side
        to move (`sign` -1: the enemy, which minimises this side's score)."""
        weights = PRIORS[: len(candidates)]
        scale = sum(weights)
        for command, weight in zip(candidates, weights):
            self.available[command] = self.available.get(command, 0) + 1
            self.prior[command] = weight / scale
        tried = [c for c in candidates if self.visits.get(c)]
        # An untried candidate's value: the mean of those tried here (first-play urgency).
        fpu = sum(sign * self.mean(c) for c in tried) / len(tried) if tried else 0.0
        n = sum(self.visits.get(c, 0) for c in candidates)

        def score(command: Command) -> float:
            visits = self.visits.get(command, 0)
            q = sign * self.mean(command) if visits else fpu
            return q + C_PUCT * self.prior[command] * math.sqrt(max(1, n)) / (1 + visits)

        return max(candidates, key=score)  # max keeps the first of equals: level 1's order

    def update(self, command: Command, value: float) -> None:
        self.visits[command] = self.visits.get(command, 0) + 1
        self.total[command] = self.total.get(command, 0.0) + value


class SearchBot:
    def __init__(self, side: Side, seed: int, fixed_iterations: int | None = None, enemy_nodes: bool = False) -> None:
        self.side = side
        self.seed = seed
        self.level1 = HeuristicBot(side, seed)
        self.belief = Belief(side)
        self.random = random.Random(f"search/{side.value}/{seed}")
        self.sampler = Sampler(side, self.belief, random.Random(f"search-sampler/{side.value}/{seed}"))
        self.fixed_iterations = fixed_iterations
        self.enemy_nodes = enemy_nodes  # the enemy's big decisions are tree nodes too (else level 1's)
        self.last: dict | None = None  # the last search: candidates, visits, means (for tests and tuning)

    def observe(self, events: Sequence[Event]) -> None:
        self.level1.observe(events)
        self.belief.observe(events)

    def choose(self, view: PlayerView, budget_s: float) -> Command:
        started = time.perf_counter()
        self.belief.see(view)
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        if view.decision.kind not in SEARCHED:
            return self.level1.choose(view, budget_s)
        candidates = ranked(self.level1, view)
        if len(candidates) <= 1:
            return self.level1.choose(view, budget_s)
        chosen = self.search(view, candidates, started + SHARE * budget_s)
        if chosen == candidates[0]:
            return self.level1.choose(view, budget_s)  # level 1's own choice, with its bookkeeping
        self.level1.adopt(view, chosen)
        return chosen

    # --- the search ----------------------------------------------------------------

    def search(self, view: PlayerView, candidates: list[Command], deadline: float) -> Command:
        """Successive halving over the root's candidates (the planner's, with
        its common determinizations and level 1's bonus); each of its playouts
        is an ISMCTS iteration through that candidate's subtree."""
        mine = [self._after(view, c, i == 0) for i, c in enumerate(candidates)]
        subtrees = [Node() for _ in candidates]
        samples: list[tuple[GameState, int]] = []

        def iteration(i: int, j: int) -> float:
            while len(samples) <= j:
                samples.append((self.sampler.sample(view), self.random.randrange(2**31)))
            state, noise_seed = samples[j]
            state, _ = apply_trusted(state, candidates[i])
            bots = {self.side: copy.deepcopy(mine[i]), self.side.other: HeuristicBot(self.side.other, noise_seed)}
            return self.descend(subtrees[i], state, bots, view.week, random.Random(noise_seed))

        if self.fixed_iterations is not None:
            total, limit = self.fixed_iterations, None
        else:
            begun = time.perf_counter()
            first = iteration(0, 0)
            cost = max(time.perf_counter() - begun, 1e-4)
            total = max(len(candidates), int((deadline - time.perf_counter()) / cost) + 1)
            limit = deadline
            memo = {(0, 0): first}
            inner = iteration

            def iteration(i: int, j: int) -> float:  # noqa: F811 - the probe counts as an iteration
                return memo.pop((i, j)) if (i, j) in memo else inner(i, j)

        bonus = [LEVEL1_BONUS] + [0.0] * (len(candidates) - 1)
        best, pulls, means = successive_halving(len(candidates), iteration, total, deadline=limit, bonus=bonus)
        self.last = {"candidates": candidates, "visits": pulls, "means": means, "chosen": candidates[best],
                     "iterations": sum(pulls), "depth": max(_depth(t) for t in subtrees)}
        return candidates[best]

    def _after(self, view: PlayerView, command: Command, own: bool) -> HeuristicBot:
        """Level 1 for this side once `command` is chosen (`own`: level 1's own choice)."""
        bot = copy.deepcopy(self.level1)
        if own:
            bot.choose(view, 0.0)
        else:
            bot.adopt(view, command)
        return bot

    def descend(self, node: Node, state: GameState, bots: dict, week: int, noise: random.Random) -> float:
        """One iteration below the root: select (PUCT) at the tree's big
        decisions, expand the first untried candidate, play out, back up."""
        path: list[tuple[Node, Command]] = []
        current: Node | None = node
        for _ in range(MAX_PLAYOUT_DECISIONS):
            if current is None or state.is_over or state.week != week:
                break
            side = min(state.decision.sides, key=lambda s: s.value)
            seen = view_of(state, side)
            if not seen.legal:
                break
            bot = bots[side]
            options = self._options(seen, side, bot)
            if options is None:
                command = playout_command(seen, bot, noise)
            else:
                command = current.select(options, 1.0 if side is self.side else -1.0)
                if command == options[0]:
                    bot.choose(seen, 0.0)  # level 1's own choice: its bookkeeping (plan, claims)
                else:
                    bot.adopt(seen, command)
                path.append((current, command))
                fresh = not current.visits.get(command)
                current = None if fresh else current.children.setdefault(command, Node())
            state, _ = apply_trusted(state, command)
        value = evaluate(play_out(state, bots, noise, week), self.side)
        for each, command in path:
            each.update(command, value)
        return value

    def _options(self, seen: PlayerView, side: Side, bot: HeuristicBot) -> list[Command] | None:
        """The candidates the tree chooses among at `seen`, or None where level 1 answers."""
        if seen.decision.kind not in SEARCHED or len(seen.legal) < 2:
            return None
        if side is not self.side and not self.enemy_nodes:
            return None
        options = ranked(bot, seen)
        return options if len(options) > 1 else None


def ranked(bot: HeuristicBot, view: PlayerView) -> list[Command]:
    """Level 1's choice and its next best (`HeuristicBot.candidates`); at the
    small decisions it does not rank, the other legal commands in their order."""
    options = bot.candidates(view, CANDIDATES)
    if view.decision.kind in SMALL:
        options += [c for c in view.legal if c not in options][: CANDIDATES - len(options)]
    return options



def _depth(node: Node) -> int:
    return 1 + max((_depth(child) for child in node.children.values()), default=0) if node.visits else 0
