"""Strength of the bot levels (issue 14, section 5): a round-robin tournament.

Every pairing plays N seeded games with the sides swapped on every seed (2N
games: seed s with A as Ishida, then seed s with A as Tokugawa; --side keeps A
to one side), in parallel
worker processes. The bots' budgets are fixed and each bot is seeded from the
game's seed, so a run reproduces. For each pairing it prints A's win rate
with a 95% Wilson interval, the rate from each side, the causes of the
games, decision times per level (median, p99, max, in ms, measured around
`choose`), and the crashes, illegal commands and unfinished games (there
must be none). With --keep-losses DIR the record of every game the first
level of a pairing lost (or that did not finish) is written there, readable
by `sekigahara replay`.

Usage:
  python3 benchmarks/tournament.py [--games N] [--seed S] [--workers W]
      [--pairings heuristic:random,...] [--budget SECONDS] [--keep-losses DIR] [--progress]
      [--results FILE] [--side ishida|tokugawa]
  python3 benchmarks/tournament.py --report FILE [FILE ...]

Without --pairings: the round-robin, every pair of distinct levels (random,
heuristic, planner, search). The planner (level 2) and the search (level 3)
use their budget at each big decision, so a game of either takes about 40 s
at --budget 0.3; e.g.

  python3 benchmarks/tournament.py --pairings search:planner --games 50 --budget 0.1 --progress

--results appends each game's result to FILE as one JSON line as it ends, so
that a long run interrupted keeps what it played, and runs over different
seeds (in parallel, or one after another) can be summed: --report prints the
same summary from such files, playing nothing.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import statistics
import sys
import time
from collections import Counter, defaultdict
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rules.infra.record import save_record  # noqa: E402
from sekigahara_tui.bots.base import LEVELS  # noqa: E402
from sekigahara_tui.bots.play import play_game  # noqa: E402


SEARCHED = 0.02  # seconds: a decision this long was searched, not answered by rules of thumb


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def play_one(job: tuple) -> dict:
    """One game in a worker: (pairing index, seed, A, B, A's side, budget, keep dir)."""
    index, seed, a, b, a_side, budget, keep = job
    levels = {"ishida": a, "tokugawa": b} if a_side == "ishida" else {"ishida": b, "tokugawa": a}
    outcome = play_game(seed, levels["ishida"], levels["tokugawa"], budget_s=budget)
    b_side = "tokugawa" if a_side == "ishida" else "ishida"
    won = outcome.winner is not None and outcome.winner.value == a_side
    kept = None
    if keep and not won and outcome.record is not None:
        path = Path(keep) / f"{a}-vs-{b}-seed{seed}-{a}-as-{a_side}.json"
        save_record(outcome.record, path)
        kept = str(path)
    return {
        "pairing": index,
        "a": a,
        "b": b,
        "seed": seed,
        "a_side": a_side,
        "winner": outcome.winner.value if outcome.winner else None,
        "a_won": won,
        "cause": outcome.cause,
        "decisions": outcome.decisions,
        "times": {a: outcome.times[a_side], b: outcome.times[b_side]} if a != b else {a: outcome.times[a_side] + outcome.times[b_side]},
        "illegal": outcome.illegal,
        "crash": outcome.crash,
        "kept": kept,
        "budget": budget,
    }


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def rate(wins: int, games: int) -> str:
    low, high = wilson(wins, games)
    share = wins / games if games else 0.0
    return f"{wins}/{games} = {100 * share:.1f}% (95% CI {100 * low:.1f}-{100 * high:.1f}%)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="seeds per pairing; each seed is played from both sides (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--pairings", help="comma-separated A:B pairs of levels (default: every pair of distinct levels)")
    parser.add_argument("--budget", type=float, default=2.0, help="seconds a bot may take per decision (default 2)")
    parser.add_argument("--progress", action="store_true", help="one line on stderr per game as it ends")
    parser.add_argument("--keep-losses", type=Path, metavar="DIR", help="write the records of the first level's lost games here")
    parser.add_argument("--results", type=Path, metavar="FILE", help="append each game's result to FILE (JSON lines)")
    parser.add_argument("--side", choices=("ishida", "tokugawa"),
                        help="the first level of each pairing plays only this side (default: both, each seed)")
    parser.add_argument("--report", type=Path, nargs="+", metavar="FILE", help="summarise the results in FILEs; play nothing")
    args = parser.parse_args(argv)
    if args.report:
        results = [json.loads(line) for path in args.report for line in path.read_text().splitlines() if line.strip()]
        pairings = list(dict.fromkeys((r["a"], r["b"]) for r in results))
        seeds = sorted({r["seed"] for r in results})
        print(f"tournament (from {len(args.report)} result files): {len(results)} games, seeds {seeds[0]}-{seeds[-1]}" if seeds else "no games")
        return summarise(results, pairings, args.keep_losses)
    if args.pairings:
        pairings = [tuple(item.split(":")) for item in args.pairings.split(",")]
    else:
        pairings = [(b, a) for a, b in itertools.combinations(LEVELS, 2)]
    for pair in pairings:
        if len(pair) != 2 or any(level not in LEVELS for level in pair):
            parser.error(f"bad pairing {':'.join(pair)}: levels are {', '.join(LEVELS)}")
    if args.keep_losses:
        args.keep_losses.mkdir(parents=True, exist_ok=True)
    keep = str(args.keep_losses) if args.keep_losses else None
    jobs = [
        (index, seed, a, b, a_side, args.budget, keep)
        for index, (a, b) in enumerate(pairings)
        for seed in range(args.seed, args.seed + args.games)
        for a_side in ((args.side,) if args.side else ("ishida", "tokugawa"))
    ]
    started = time.perf_counter()
    results = []
    with Pool(args.workers) as pool:
        for result in pool.imap_unordered(play_one, jobs, chunksize=1 if args.progress else 4):
            results.append(result)
            if args.progress:
                a, b = pairings[result["pairing"]]
                print(f"  [{len(results)}/{len(jobs)}] seed {result['seed']} {a} as {result['a_side']}: "
                      f"{'won' if result['a_won'] else 'lost'} ({result['cause']})", file=sys.stderr, flush=True)
            if args.results:
                with args.results.open("a") as out:
                    out.write(json.dumps(result) + "\n")
    elapsed = time.perf_counter() - started
    print(f"tournament: {len(jobs)} games, seeds {args.seed}-{args.seed + args.games - 1}, "
          f"{args.workers} workers, budget {args.budget:g} s, {elapsed:.0f} s")
    return summarise(results, pairings, args.keep_losses)


def summarise(results: list[dict], pairings: list[tuple[str, str]], keep_losses: Path | None) -> int:
    """Each pairing's win rate (95% Wilson interval), by side, the causes,
    the decision times per level and the failures; 1 if a game did not finish."""
    failures = 0
    for a, b in pairings:
        games = [r for r in results if (r["a"], r["b"]) == (a, b)]
        wins = sum(r["a_won"] for r in games)
        print(f"\n{a} vs {b}: {a} wins {rate(wins, len(games))}")
        for side in ("ishida", "tokugawa"):
            mine = [r for r in games if r["a_side"] == side]
            print(f"  {a} as {side}: {rate(sum(r['a_won'] for r in mine), len(mine))}")
        causes = Counter((r["winner"] == r["a_side"] and a or b if r["winner"] else "none", r["cause"]) for r in games)
        print("  results: " + ", ".join(f"{who} by {cause} {n}" for (who, cause), n in sorted(causes.items())))
        times: dict[str, list[float]] = defaultdict(list)
        for r in games:
            for level, spent in r["times"].items():
                times[level].extend(spent)
        for level, spent in times.items():
            print(f"  {level} decisions: {len(spent)}, median {1000 * statistics.median(spent):.2f} ms, "
                  f"p99 {1000 * percentile(spent, 0.99):.2f} ms, max {1000 * max(spent):.1f} ms")
            searched = [t for t in spent if t >= SEARCHED]
            if searched:  # the decisions a look-ahead level thought about (the others are level 1's, instant)
                print(f"    of which {len(searched)} took {1000 * SEARCHED:g} ms or more: median {1000 * statistics.median(searched):.1f} ms, "
                      f"p99 {1000 * percentile(searched, 0.99):.1f} ms")
        budgets = {r.get("budget") for r in games} - {None}
        if len(budgets) == 1:  # each decision against the budget (issue 25: kept within a small margin)
            budget = budgets.pop()
            for level in times:
                over = sorted((t for r in games for t in r["times"].get(level, []) if t > budget), reverse=True)
                print(f"  {level} over the {1000 * budget:g} ms budget: {len(over)} decisions"
                      + (f", by at most {1000 * (over[0] - budget):.1f} ms; over by 10 ms or more: "
                         f"{sum(t > budget + 0.01 for t in over)}" if over else ""))
        crashes = [r for r in games if r["crash"]]
        illegal = [r for r in games if r["illegal"]]
        unfinished = [r for r in games if r["winner"] is None]
        failures += len(unfinished)
        print(f"  crashes {len(crashes)}, illegal commands {len(illegal)}, unfinished {len(unfinished)}")
        for r in (crashes + illegal)[:3]:
            print(f"    seed {r['seed']} ({a} as {r['a_side']}): {r['cause']} {r['illegal'] or r['crash'].splitlines()[-1]}")
        kept = [r["kept"] for r in games if r["kept"]]
        if kept:
            print(f"  {len(kept)} lost games' records kept in {keep_losses}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
