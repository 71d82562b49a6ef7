"""Level 3, "search": information-set Monte Carlo tree search (issue 25 §2).

Single-observer ISMCTS (Cowling, Powley and Whitehouse 2012; OpenSpiel's
ismcts.py) with a sequential-halving root, as Gumbel MuZero and SHOT do: one
tree for this side's information set, each iteration on a determinization, a
complete state sampled from the side's view and belief (bots/sampler.py).

- The root is level 2's (planner.py): level 1's best few candidates
  (`HeuristicBot.candidates`), compared on the same sampled states (common
  random numbers) by successive halving, level 1's own choice with a small
  bonus. The time budget becomes a number of iterations as level 2's
  playouts do (`fixed_iterations`: a fixed number, for tests: the bot is
  then deterministic for its seed and what it has seen).
- Each of the root's playouts is an ISMCTS iteration below that candidate.
  Selection: the sampled game is answered in turn; at this side's later
  searched decisions of the week (and the enemy's, with `enemy_nodes`) the
  tree chooses among level 1's candidates there by PUCT: the mean score so
  far plus a prior from level 1's ranking (its own choice first) shrinking
  as a candidate is visited. Candidates differ between determinizations, so
  a candidate's share counts the iterations it was available in (ISMCTS's
  availability counts). Every other decision is level 1's. Expansion: the
  first candidate never tried at a node ends the descent. Simulation: level 1
  with a little noise to the end of the week (the planner's `play_out`),
  scored by the planner's `evaluate`. Backpropagation: the score (this
  side's) into each edge of the path; an enemy node takes the worst for
  this side.
- Level 3 searches the small decisions level 1 answers alone too (SMALL:
  who moves first, which battle next, which piece is lost), their legal
  commands its candidates. STACK_MOVE (a stack's steps) stays level 1's plan.
- Its own prior where level 1 is measurably wrong (`second`): the winner of
  the bid lets the enemy move first.

Every playout goes to the end of the week: short of time, the root compares
fewer candidates (each gets SAMPLES playouts in the first round, level 1's
choice first), and with time for none level 1's choice stands. The
decisions whose effect shows only later in the week (LONG: the bid, the
discard, who moves first) are never searched: a few playouts' noise alone
would overturn the prior, and its first stands. Every decision keeps to its
budget as level 2's do (planner.py: a deadline checked at every step).
Measured against level 2 (benchmarks/tournament.py --pairings search:planner
--budget 0.1, each seed from both sides, a 2-core machine, 2026-12-01):
seeds 1-100, 130 of 200 (65.0%, 95% interval 58.2-71.3), 75% as Ishida and
55% as Tokugawa; seeds 401-500, chosen after the change, 131 of 200 (65.5%,
58.7-71.7), 70% and 61%; the 400 games, 65.2% (60.5-69.8). The version
before it (playouts cut at a horizon of steps when time was short, the LONG
decisions searched when there was time): 54.5% on seeds 1-100, 50.0% on
seeds 401-482, the same machine and day. At --budget 2 (seeds 601-618,
34 games, as many as 105 minutes allowed): 27 of 34 (79.4%, 63.2-89.7).
Before `second`: 51 of 100 at 0.1 s (86% as Ishida, 16% as Tokugawa).
It never receives the game's state: the engine runs only on the states it
sampled itself.
"""

from __future__ import annotations

import math
import random
import time
from typing import Callable, Sequence

from attrs import define, field

from rules.engine import apply_trusted
from rules.state import GameState
from rules.surface import ChooseFirstPlayer, Command, DecisionKind, PlayerView, Side
from rules.view import view as view_of
from sekigahara_tui.bots.heuristic import HeuristicBot
from sekigahara_tui.bots.planner import (
    BIG,
    CANDIDATES,
    MAX_PLAYOUT_DECISIONS,
    Deadline,
    PlannerBot,
    evaluate,
    play_out,
    playout_command,
)
from sekigahara_tui.bots.sampler import Sampler

# The decisions level 1 answers alone that level 3 searches too (their few
# legal commands are the candidates, level 1's first): who moves first (6.3),
# which battle next (8.1), which piece is lost (8.7.2).
SMALL = frozenset({DecisionKind.CHOOSE_FIRST_PLAYER, DecisionKind.DECLARE_COMBAT, DecisionKind.CASUALTY})
SEARCHED = BIG | SMALL
# Decisions whose effect shows only later in the week, where a few playouts'
# noise alone would overturn the prior: never searched, the prior's first stands.
LONG = frozenset({DecisionKind.CHOOSE_FIRST_PLAYER, DecisionKind.BID, DecisionKind.REINFORCEMENT_DISCARD})
# Level 1's ranking as a prior: its own choice, then its alternatives in order.
PRIORS = (0.55, 0.2, 0.15, 0.1)
C_PUCT = 3.0  # exploration, in evaluation points (planner.evaluate's scale)
# Each root candidate gets at least SAMPLES playouts in the first round: short
# of time, fewer candidates (level 1's first), as level 2 does with one.
SAMPLES = 2


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


class SearchBot(PlannerBot):
    """Level 2's root (its candidates, samples, successive halving and
    bonus), each playout an ISMCTS iteration through the candidate's subtree."""

    searched = SEARCHED
    min_samples = SAMPLES

    def __init__(self, side: Side, seed: int, fixed_iterations: int | None = None, enemy_nodes: bool = False,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__(side, seed, fixed_iterations, clock)
        self.random = random.Random(f"search/{side.value}/{seed}")
        self.sampler = Sampler(side, self.belief, random.Random(f"search-sampler/{side.value}/{seed}"))
        self.enemy_nodes = enemy_nodes  # the enemy's big decisions are tree nodes too (else level 1's)
        self.subtrees: list[Node] = []  # below each root candidate, this search's

    @property
    def fixed_iterations(self) -> int | None:
        """Iterations per decision, the clock aside (tests): the planner's fixed playouts."""
        return self.fixed_playouts

    @fixed_iterations.setter
    def fixed_iterations(self, value: int | None) -> None:
        self.fixed_playouts = value

    def candidates(self, view: PlayerView) -> list[Command]:
        return ranked(self.level1, view)

    def search(self, view: PlayerView, candidates: list[Command], deadline: Deadline) -> Command:
        if view.decision.kind in LONG:
            self.last = None
            return candidates[0]  # the prior's first (the enemy first, level 1's bid and discard)
        self.subtrees = [Node() for _ in candidates]
        chosen = super().search(view, candidates, deadline)
        if self.last is not None:  # it searched
            self.last.update(visits=self.last["playouts"], iterations=sum(self.last["playouts"]),
                             depth=max(_depth(tree) for tree in self.subtrees))
        return chosen

    def _score(self, i: int, state: GameState, bots: dict, week: int, noise: random.Random, deadline: Deadline) -> float:
        return self.descend(self.subtrees[i], state, bots, week, noise, deadline)

    def descend(self, node: Node, state: GameState, bots: dict, week: int, noise: random.Random, deadline: Deadline) -> float:
        """One iteration below the root: select (PUCT) at the tree's big
        decisions, expand the first untried candidate, play out, back up."""
        path: list[tuple[Node, Command]] = []
        current: Node | None = node
        for _ in range(MAX_PLAYOUT_DECISIONS):
            if current is None or state.is_over or state.week != week:
                break
            deadline.check()  # out of time: the iteration is dropped, its path not updated
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
        value = evaluate(play_out(state, bots, noise, week, deadline), self.side)
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
    small decisions it does not rank, the other legal commands in their order.
    Level 3's own prior first where it knows better than level 1 (`second`)."""
    options = bot.candidates(view, CANDIDATES)
    if view.decision.kind in SMALL:
        options += [c for c in view.legal if c not in options][: CANDIDATES - len(options)]
    if view.decision.kind is DecisionKind.CHOOSE_FIRST_PLAYER:
        options = second(bot.side, options)
    return options


def second(side: Side, options: list[Command]) -> list[Command]:
    """The winner of the bid lets the enemy move first (6.3): the second player
    moves after seeing the first's moves, attacks stacks that have just moved
    and has the week's last move. Level 1 always moves first; played by level
    1 otherwise, Tokugawa won 42 of 100 games against level 1 moving second,
    11 of 100 moving first (Ishida: 90 and 89 of 100; benchmarks/first_player.py)."""
    enemy_first = ChooseFirstPlayer(side, side.other)
    return [enemy_first] + [c for c in options if c != enemy_first] if enemy_first in options else options


def _depth(node: Node) -> int:
    return 1 + max((_depth(child) for child in node.children.values()), default=0) if node.visits else 0
