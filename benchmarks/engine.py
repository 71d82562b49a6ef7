"""Engine speed: prints measured figures, never asserts (the machines are noisy).

Everything runs in this one process, on one core: every figure is per core.
The games are random games (each side picks uniformly among its legal
commands), the same seeds in every repeat; each figure is the median over the
repeats.

- random games per second on the path self-play and bots take: legal_commands,
  then apply_trusted on a listed command (rules.engine). Given two ways: games
  played divided by the time they took, and one over the median game time;
- median microseconds per decision (legal_commands + apply_trusted);
- the same decisions through `apply`, which checks each command again as it
  does a player's (one repeat), two ways: listed first (legal_commands, then
  `apply` on a copy of the listed command; the engine keeps the last list with
  its state, so the check reuses it), and replayed (`apply` alone on the
  recorded commands, as for a record or a network command: nothing was listed
  for that state, so the check works the list out);
- decisions per game (median);
- median microseconds of `legal_commands` in Full-movement Movement Phases
  (every stack may move), over the positions met in games whose players
  never step into enemy units, so that stacks stay many and spread out.

Usage: python3 benchmarks/engine.py [--games N] [--seed S] [--repeats R]
"""

from __future__ import annotations

import argparse
import copy
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rules.arrival import has_enemy_units  # noqa: E402
from rules.commands import Step  # noqa: E402
from rules.engine import apply, apply_trusted, legal_commands, start_game  # noqa: E402
from rules.state import DecisionKind, MovementOption  # noqa: E402

Apply = Callable[..., tuple]


def checked(state, command):  # noqa: ANN001, ANN201
    """`apply` on a command equal to the listed one, not the listed object itself."""
    return apply(state, copy.copy(command))


def draw(getrandbits: Callable[[int], int], n: int) -> int:
    """An index below n, drawn as random.choice draws it: k = n.bit_length()
    random bits until they make a number below n (CPython since 3.2)."""
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def draws_as_choice(tries: int = 2000) -> bool:
    """Whether `draw` picks what random.choice picks from the same generator."""
    sizes = random.Random("sizes")
    one, other = random.Random("draws"), random.Random("draws")
    return all(one.choice(range(n)) == draw(other.getrandbits, n)
               for n in (sizes.randint(1, 300) for _ in range(tries)))


def play(seed: int, step_times: list[float], apply_command: Apply = apply_trusted,
         movement_times: list[float] | None = None, played: list | None = None) -> int:
    """One random game. With `movement_times`, the players never step into
    enemy units and the time of legal_commands at Full-movement decisions is kept.

    The random player draws as random.choice does (`draw`, checked at start by
    draws_as_choice), with the public getrandbits and one frame a pick instead
    of choice's two: the same games, and the engine is what the time measures
    (issue 25)."""
    chooser = random.Random(f"bench/{seed}")
    getrandbits = chooser.getrandbits
    clock = time.perf_counter
    state, _ = start_game(seed)
    decisions = 0
    while not state.is_over:
        sides = sorted(state.decision.sides)
        side = sides[draw(getrandbits, len(sides))]
        started = clock()
        options = legal_commands(state, side)
        if movement_times is not None:
            listed = clock()
            movement = state.movement
            if state.decision.kind is DecisionKind.MOVE and movement and movement.option is MovementOption.FULL:
                movement_times.append(listed - started)
            options = [c for c in options if not (isinstance(c, Step) and has_enemy_units(state, side, c.to))] or options
        command = options[draw(getrandbits, len(options))]
        state, _ = apply_command(state, command)
        step_times.append(clock() - started)
        decisions += 1
        if played is not None:
            played.append(command)
    return decisions


def replay(seed: int, commands: list, step_times: list[float]) -> None:
    """A recorded game again, each command through `apply` alone."""
    state, _ = start_game(seed)
    for command in commands:
        started = time.perf_counter()
        state, _ = apply(state, command)
        step_times.append(time.perf_counter() - started)


class Run:
    """The figures of one pass over the seeds."""

    def __init__(self, seeds: range, apply_command: Apply, recorded: dict[int, list] | None = None) -> None:
        """With `recorded` (seed -> commands), replays them instead of playing."""
        self.step_times: list[float] = []
        self.game_seconds: list[float] = []
        self.decisions: list[int] = []
        self.played: dict[int, list] = {}
        for seed in seeds:
            started = time.perf_counter()
            if recorded is None:
                self.played[seed] = []
                self.decisions.append(play(seed, self.step_times, apply_command, played=self.played[seed]))
            else:
                replay(seed, recorded[seed], self.step_times)
                self.decisions.append(len(recorded[seed]))
            self.game_seconds.append(time.perf_counter() - started)

    @property
    def games_per_second(self) -> float:
        return len(self.game_seconds) / sum(self.game_seconds)

    @property
    def median_game_rate(self) -> float:
        return 1 / statistics.median(self.game_seconds)

    @property
    def us_per_decision(self) -> float:
        return statistics.median(self.step_times) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    if not draws_as_choice():
        sys.exit("this Python's random.choice draws otherwise: the games would not be random.choice's")
    seeds = range(args.seed, args.seed + args.games)
    runs = [Run(seeds, apply_trusted) for _ in range(args.repeats)]

    def median(figure: Callable[[Run], float]) -> float:
        return statistics.median(figure(run) for run in runs)

    print(f"games: {args.games} (seeds {seeds.start}..{seeds.stop - 1}), {args.repeats} repeats, "
          "one process on one core: figures are per core, medians over the repeats")
    print(f"games per second (legal_commands + apply_trusted): {median(lambda r: r.games_per_second):.1f} "
          f"(games / time); {median(lambda r: r.median_game_rate):.1f} (1 / median game time, "
          f"{1000 / median(lambda r: r.median_game_rate):.1f} ms)")
    print(f"median us per decision (legal_commands + apply_trusted): {median(lambda r: r.us_per_decision):.1f}")
    listed = Run(seeds, checked)
    print(f"median us per decision (legal_commands + apply, checked): {listed.us_per_decision:.1f}; "
          f"games per second {listed.games_per_second:.1f} (games / time), "
          f"{listed.median_game_rate:.1f} (1 / median game time)")
    replayed = Run(seeds, apply, recorded=runs[0].played)
    print(f"median us per decision (apply alone on the recorded commands, checked): {replayed.us_per_decision:.1f}; "
          f"games per second {replayed.games_per_second:.1f} (games / time), "
          f"{replayed.median_game_rate:.1f} (1 / median game time)")
    decisions = runs[0].decisions
    print(f"decisions per game: median {statistics.median(decisions):.0f}, min {min(decisions)}, max {max(decisions)}")
    movement_times: list[float] = []
    contact_free: list[int] = []
    for seed in range(args.seed, args.seed + max(20, args.games // 5)):
        contact_free.append(play(seed, [], apply_trusted, movement_times))
    print(
        f"median us of legal_commands in Full movement: {statistics.median(movement_times) * 1e6:.1f} "
        f"(over {len(movement_times)} positions; 90th percentile "
        f"{statistics.quantiles(movement_times, n=10)[-1] * 1e6:.1f}); "
        f"contact-free games: median {statistics.median(contact_free):.0f} decisions"
    )


if __name__ == "__main__":
    main()
