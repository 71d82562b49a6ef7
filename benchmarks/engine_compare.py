"""The checked path against an older engine, timed side by side (issue 25).

The checked path is `apply` on a command that did not come from the legal
list (an equal copy of a listed one, as a player's, a record's or the
network's command is): the engine checks it before carrying it out. This
script checks out the older commit's src/rules into a temporary directory
(`git archive`, nothing in the work tree changes), then times the same
random games through each engine in a fresh process, alternating engines on
every repeat so that a noisy machine slows both alike. It prints each
engine's median microseconds per decision (legal_commands + apply on a copy)
and games per second, and the ratio of the medians.

The games are the same seeds and choosers in both; rule fixes made since the
older commit can make a few of them go differently (the decisions played are
printed), so the ratio is taken per decision.

Usage: python3 benchmarks/engine_compare.py [--compare-with COMMIT] [--games N] [--repeats R]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Run in a child process with the engine's directory first on sys.path, so that
# each engine is imported alone. Uses only what both engines have: start_game,
# legal_commands and apply.
CHILD = """
import copy, json, random, statistics, sys, time
from rules.engine import apply, legal_commands, start_game
games, first = int(sys.argv[1]), int(sys.argv[2])
steps, seconds = [], []
for seed in range(first, first + games):
    chooser = random.Random(f"bench/{seed}")
    state, _ = start_game(seed)
    started_game = time.perf_counter()
    while not state.is_over:
        side = chooser.choice(sorted(state.decision.sides))
        started = time.perf_counter()
        command = chooser.choice(legal_commands(state, side))
        state, _ = apply(state, copy.copy(command))
        steps.append(time.perf_counter() - started)
    seconds.append(time.perf_counter() - started_game)
print(json.dumps({"us": statistics.median(steps) * 1e6, "games_per_second": games / sum(seconds),
                  "decisions": len(steps)}))
"""


def rules_of(commit: str, into: Path) -> Path:
    """The commit's src/rules and data/ (the engine reads the checkout's data/),
    unpacked under `into`; returns the directory to put on sys.path."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "src/rules", "data"],
                             check=True, capture_output=True).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into / "src"


def timed(src: Path, games: int, seed: int) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, str(games), str(seed)],
                         capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(src)}, cwd=src)
    if out.returncode:
        sys.exit(f"the engine in {src} failed: {out.stderr.strip().splitlines()[-1:]}")
    return json.loads(out.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--compare-with", default="942c7bb", metavar="COMMIT")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        engines = {args.compare_with: rules_of(args.compare_with, Path(tmp)), "this tree": ROOT / "src"}
        runs: dict[str, list[dict]] = {name: [] for name in engines}
        for _ in range(args.repeats):
            for name, src in engines.items():
                runs[name].append(timed(src, args.games, args.seed))
    decisions = {name: each[0]["decisions"] for name, each in runs.items()}
    print(f"checked path (legal_commands + apply on an equal copy), {args.games} games "
          f"(seeds {args.seed}..{args.seed + args.games - 1}), {args.repeats} alternating repeats, medians")
    # Rule fixes since an older commit can change a few games (mutation testing, issue 29): the
    # per-decision figure stays comparable, the games per second less so.
    print("  decisions: " + ", ".join(f"{name} {n}" for name, n in decisions.items()))
    us = {}
    for name, each in runs.items():
        us[name] = statistics.median(run["us"] for run in each)
        rate = statistics.median(run["games_per_second"] for run in each)
        print(f"  {name}: {us[name]:.1f} us per decision, {rate:.1f} games per second")
    print(f"ratio (us per decision, {args.compare_with} / this tree): {us[args.compare_with] / us['this tree']:.2f}")


if __name__ == "__main__":
    main()
