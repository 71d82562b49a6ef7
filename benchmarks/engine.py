"""Engine speed: prints measured figures, never asserts (the machines are noisy).

- median microseconds per decision (`legal_commands` + `apply`), over all the
  decisions of the games played;
- decisions per game (median);
- full random games per second.

Usage: python3 benchmarks/engine.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rules.engine import apply, legal_commands, start_game  # noqa: E402


def play(seed: int, step_times: list[float]) -> int:
    chooser = random.Random(f"bench/{seed}")
    state, _ = start_game(seed)
    decisions = 0
    while not state.is_over:
        side = chooser.choice(sorted(state.decision.sides))
        started = time.perf_counter()
        options = legal_commands(state, side)
        command = chooser.choice(options)
        state, _ = apply(state, command)
        step_times.append(time.perf_counter() - started)
        decisions += 1
    return decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    step_times: list[float] = []
    per_game: list[int] = []
    game_seconds: list[float] = []
    for seed in range(args.seed, args.seed + args.games):
        started = time.perf_counter()
        per_game.append(play(seed, step_times))
        game_seconds.append(time.perf_counter() - started)
    print(f"games: {args.games} (seeds {args.seed}..{args.seed + args.games - 1})")
    print(f"median us per decision (legal_commands + apply): {statistics.median(step_times) * 1e6:.1f}")
    print(f"decisions per game: median {statistics.median(per_game):.0f}, min {min(per_game)}, max {max(per_game)}")
    print(f"games per second: {1 / statistics.median(game_seconds):.1f} (from the median game time, {statistics.median(game_seconds) * 1000:.1f} ms)")


if __name__ == "__main__":
    main()
