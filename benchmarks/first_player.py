"""Who should move first (6.3)? Level 1 against level 1, one side's bid
winner letting the enemy move first as level 3 does (bots/search.py,
`second`) or moving first as level 1 does: that side's wins over N seeds,
with a 95% Wilson interval. Level 1 with no budget is deterministic, so a run
reproduces exactly; this is the measurement behind level 3's prior.

Usage:
  python3 benchmarks/first_player.py [--games N] [--seed S] [--side ishida|tokugawa]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from rules.surface import DecisionKind, Side  # noqa: E402
from sekigahara_tui.bots.heuristic import HeuristicBot  # noqa: E402
from sekigahara_tui.bots.play import play_game  # noqa: E402
from sekigahara_tui.bots.search import second  # noqa: E402
from tournament import rate  # noqa: E402


class MovesSecond(HeuristicBot):
    """Level 1, but the winner of the bid lets the enemy move first."""

    def choose(self, view, budget_s):
        if view.decision.kind is DecisionKind.CHOOSE_FIRST_PLAYER:
            return second(self.side, list(view.legal))[0]
        return super().choose(view, budget_s)


def wins(side: Side, seeds: range, moves_second: bool) -> int:
    won = 0
    for seed in seeds:
        me = MovesSecond(side, seed) if moves_second else "heuristic"
        players = (me, "heuristic") if side is Side.ISHIDA else ("heuristic", me)
        won += play_game(seed, *players, budget_s=0.0).winner is side
    return won


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="seeds (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    parser.add_argument("--side", choices=("ishida", "tokugawa"), help="only this side (default: both)")
    args = parser.parse_args(argv)
    seeds = range(args.seed, args.seed + args.games)
    for side in [Side(args.side)] if args.side else [Side.ISHIDA, Side.TOKUGAWA]:
        for moves_second, how in ((False, "moving first (level 1)"), (True, "letting the enemy move first")):
            print(f"{side.value} {how}: wins {rate(wins(side, seeds, moves_second), len(seeds))}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
