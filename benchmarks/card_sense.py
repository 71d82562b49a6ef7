"""Card sense (issue 25 §2): how often the computer spends a card in a battle
for nothing.

Plays a level against itself over seeds 1..N with the engine as the referee.
At every battle decision where the deciding side spends a card, the battle is
replayed twice from the true state: once with the command chosen and once
with the card withheld, both continued by the same level-1 players (copies)
to the battle's end (CombatEnded). The card was wasted when the battle's
result did not change. Kinds:

- leader-paid: a card deployed a leader that could enter free now (8.2.4);
  the alternative is the free deployment of that leader;
- double / impact: a double card (8.4.2) or any other card deployed a block;
  the alternative is declaring done (8.5, R29); the attacker's first
  deployment (R23) has no such alternative and is not counted;
- challenge: a Loyalty Challenge card (8.6, R48); the alternative is allowing.

Two columns: "same winner" (the battle's winner unchanged) and "same result"
(winner and both sides' casualties, 8.7.1, unchanged: a strict waste).

Usage:
  python3 benchmarks/card_sense.py [--games N] [--level heuristic|planner]
      [--playouts P] [--first-seed S]

  python3 benchmarks/card_sense.py --ab --games N
      level 1 against level 1 before card sense (card_sense_before.py), both
      sides on every seed: level 1's wins with a 95% Wilson interval.

Level 2 runs with a fixed number of playouts (--playouts, default 8) so the
run does not depend on the machine's load. The script imports only what the
code under test has had since before issue 25, so the same file measures
another checkout (PYTHONPATH=that/src) on the same seeds.
"""

from __future__ import annotations

import argparse
import copy
import os
import sys
import time
from collections import Counter
from pathlib import Path

if not os.environ.get("PYTHONPATH"):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rules.components import default_components  # noqa: E402
from rules.engine import apply_trusted, start_game  # noqa: E402
from rules.sides import BOTH_SIDES  # noqa: E402
from rules.surface import AllowPlay, Challenge, DeclareDone, Deploy, DeployLeader  # noqa: E402
from rules.view import view as view_of  # noqa: E402
from sekigahara_tui.bots.heuristic import HeuristicBot  # noqa: E402
from sekigahara_tui.bots.planner import PlannerBot  # noqa: E402

KINDS = ("leader-paid", "double", "impact", "challenge")
MAX_DECISIONS = 20_000
MAX_BATTLE_DECISIONS = 400


def spent_card(view, command):
    """(kind, the alternative that keeps the card) for a command that spends a
    card in battle, or None (no card, or no alternative: R23's first deployment)."""
    side = view.side
    if isinstance(command, Challenge):
        return "challenge", AllowPlay(side)
    if not isinstance(command, Deploy):
        return None
    free = [b for b in command.blocks if DeployLeader(side, b) in view.legal]
    if free:  # 8.2.4: this leader could enter without a card now
        return "leader-paid", DeployLeader(side, free[0])
    if DeclareDone(side) not in view.legal:
        return None
    kind = "double" if default_components().card(command.card).kind == "double" else "impact"
    return kind, DeclareDone(side)


def visible(side, events):
    return [event for event in events if side in event.visible_to()]


def battle_result(state, command, bots, location):
    """Apply `command`, then let `bots` (consumed) play on to the end of the
    battle at `location`: (winner, ishida losses, tokugawa losses)."""
    for _ in range(MAX_BATTLE_DECISIONS):
        state, events = apply_trusted(state, command)
        for event in events:
            if type(event).__name__ == "CombatEnded" and event.location == location:
                return event.winner, event.ishida_losses, event.tokugawa_losses
        for side, bot in bots.items():
            bot.observe(visible(side, events))
        if state.is_over:
            return None
        side = min(state.decision.sides, key=lambda s: s.value)
        seen = view_of(state, side)
        command = bots[side].choose(seen, 0.0)
    return None


def play(seed: int, level: str, playouts: int, counts: Counter) -> str:
    """One game of `level` against itself; counts spent and wasted cards."""
    state, events = start_game(seed)
    if level == "planner":
        players = {side: PlannerBot(side, seed, fixed_playouts=playouts) for side in BOTH_SIDES}
    else:
        players = {side: HeuristicBot(side, seed) for side in BOTH_SIDES}
    # The level-1 players that replay battles, fed the same events.
    shadows = {side: HeuristicBot(side, seed) for side in BOTH_SIDES}
    for side in BOTH_SIDES:
        players[side].observe(visible(side, events))
        shadows[side].observe(visible(side, events))
    for _ in range(MAX_DECISIONS):
        if state.is_over:
            return state.result.winner.value
        side = min(state.decision.sides, key=lambda s: s.value)
        seen = view_of(state, side)
        command = players[side].choose(seen, 0.0)
        spent = spent_card(seen, command) if seen.combat and seen.combat.battle else None
        if spent is not None:
            kind, withheld = spent
            location = seen.combat.battle.location
            results = [battle_result(state, c, copy.deepcopy(shadows), location) for c in (command, withheld)]
            counts[kind, "spent"] += 1
            if None not in results:
                counts[kind, "compared"] += 1
                counts[kind, "same winner"] += results[0][0] == results[1][0]
                counts[kind, "same result"] += results[0] == results[1]
        state, events = apply_trusted(state, command)
        for each in BOTH_SIDES:
            players[each].observe(visible(each, events))
            shadows[each].observe(visible(each, events))
    return "unfinished"


def report(counts: Counter) -> str:
    lines = [f"{'kind':<12} {'spent':>6} {'compared':>9} {'same winner':>14} {'same result':>14}"]
    totals = Counter()
    for kind in KINDS + ("all",):
        if kind == "all":
            row = totals
        else:
            row = Counter({key: n for (k, key), n in counts.items() if k == kind})
            totals.update(row)
        compared = row["compared"]

        def pct(key: str) -> str:
            return f"{row[key]:>5} {100 * row[key] / compared:5.1f}%" if compared else f"{row[key]:>5}     -"

        lines.append(f"{kind:<12} {row['spent']:>6} {compared:>9} {pct('same winner'):>14} {pct('same result'):>14}")
    return "\n".join(lines)


def ab(games: int, first_seed: int) -> str:
    """Level 1 against level 1 before card sense, each seed played twice with the sides swapped."""
    from card_sense_before import BeforeBot
    from sekigahara_tui.bots.play import play_game
    from tournament import wilson

    wins = Counter()
    for seed in range(first_seed, first_seed + games):
        for after in BOTH_SIDES:
            bots = {after: HeuristicBot(after, seed), after.other: BeforeBot(after.other, seed)}
            outcome = play_game(seed, bots[BOTH_SIDES[0]], bots[BOTH_SIDES[1]])
            wins["games"] += 1
            wins[after.value, "games"] += 1
            if outcome.winner is after:
                wins["after"] += 1
                wins[after.value, "after"] += 1
            elif outcome.winner is None:
                wins["unfinished"] += 1
    low, high = wilson(wins["after"], wins["games"])
    sides = ", ".join(f"as {s.value} {wins[s.value, 'after']}/{wins[s.value, 'games']}" for s in BOTH_SIDES)
    return (f"level 1 (card sense) against level 1 before, seeds {first_seed}..{first_seed + games - 1}, both sides:"
            f" {wins['after']}/{wins['games']} = {wins['after'] / wins['games']:.1%}"
            f" (95% Wilson {low:.1%}-{high:.1%}); {sides}; unfinished {wins['unfinished']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--level", choices=("heuristic", "planner"), default="heuristic")
    parser.add_argument("--playouts", type=int, default=8, help="level 2's playouts a decision")
    parser.add_argument("--ab", action="store_true", help="level 1 against level 1 before card sense")
    args = parser.parse_args(argv)
    if args.ab:
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        print(ab(args.games, args.first_seed))
        return 0
    counts: Counter = Counter()
    winners: Counter = Counter()
    started = time.perf_counter()
    for seed in range(args.first_seed, args.first_seed + args.games):
        winners[play(seed, args.level, args.playouts, counts)] += 1
    elapsed = time.perf_counter() - started
    print(f"{args.level} against itself, seeds {args.first_seed}..{args.first_seed + args.games - 1}"
          f" ({args.games} games, {elapsed:.0f} s; winners {dict(sorted(winners.items()))})")
    print("cards spent in battles, and how many changed nothing when withheld (replayed by level 1):")
    print(report(counts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
