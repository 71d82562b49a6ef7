"""The `sekigahara` command: replay records, run self-play games."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rules.record import RecordError, load_record, replay, save_record
from rules.selfplay import random_game
from rules.sides import BOTH_SIDES
from rules.state import GameState
from rules.victory import victory_points


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sekigahara",
        description="Sekigahara: The Unification of Japan, in the terminal.",
    )
    parser.add_argument("--load", type=Path, metavar="FILE", help="open this saved game (a game record) in the app")
    parser.add_argument("--seed", type=int, help="start a new hot-seat game with this seed at once")
    parser.add_argument("--save-dir", type=Path, metavar="DIR", help="where saves and the autosave go (default: the user data directory)")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    replay_parser = commands.add_parser("replay", help="replay a game record and summarise the final position")
    replay_parser.add_argument("record", type=Path, help="a record file written by a game or by selfplay --record")
    selfplay = commands.add_parser("selfplay", help="play games between random-move players")
    selfplay.add_argument("--games", type=int, default=1, help="how many games (default 1)")
    selfplay.add_argument("--seed", type=int, default=1, help="seed of the first game; game i uses seed+i (default 1)")
    selfplay.add_argument("--record", type=Path, metavar="DIR", help="write each game's record into DIR")
    return parser


def summarise(state: GameState) -> str:
    vp = victory_points(state)
    lines = [
        f"week {state.week}, turn {state.turn.value}, phase {state.phase.value}",
        f"VP: ishida {vp.ishida}, tokugawa {vp.tokugawa}",
    ]
    if state.result is not None:
        lines.append(f"winner: {state.result.winner.value} ({describe_result(state)})")
    else:
        lines.append("winner: none yet")
    return "\n".join(lines)


def describe_result(state: GameState) -> str:
    result = state.result
    assert result is not None
    if result.vp is not None:
        return f"VP {result.vp.ishida}-{result.vp.tokugawa}"
    return result.cause


def run_replay(args: argparse.Namespace) -> int:
    try:
        state = replay(load_record(args.record))
    except RecordError as error:
        print(f"sekigahara replay: {error}", file=sys.stderr)
        return 1
    print(summarise(state))
    return 0


def run_selfplay(args: argparse.Namespace) -> int:
    if args.games < 1:
        print("sekigahara selfplay: --games must be at least 1", file=sys.stderr)
        return 2
    if args.record is not None:
        args.record.mkdir(parents=True, exist_ok=True)
    wins = {side: 0 for side in BOTH_SIDES}
    decisions = 0
    milliseconds = 0.0
    for seed in range(args.seed, args.seed + args.games):
        game = random_game(seed)
        decisions += game.decisions
        milliseconds += game.milliseconds
        assert game.state.result is not None
        wins[game.state.result.winner] += 1
        print(
            f"seed {seed}: winner {game.state.result.winner.value} ({describe_result(game.state)}), "
            f"{game.decisions} decisions, {game.milliseconds:.0f} ms"
        )
        if args.record is not None:
            save_record(game.record, args.record / f"game-{seed}.json")
    ishida, tokugawa = wins[BOTH_SIDES[0]], wins[BOTH_SIDES[1]]
    print(
        f"total: {args.games} games, ishida {ishida} wins ({100 * ishida / args.games:.0f}%), "
        f"tokugawa {tokugawa} wins ({100 * tokugawa / args.games:.0f}%), "
        f"{decisions} decisions, {milliseconds:.0f} ms"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command == "replay":
        return run_replay(args)
    if args.command == "selfplay":
        return run_selfplay(args)
    return run_app(args)


def run_app(args: argparse.Namespace) -> int:
    """No subcommand: the terminal game itself."""
    from sekigahara_tui.app import SekigaharaApp  # Textual is only loaded for the app

    if args.load is not None and not args.load.is_file():
        print(f"sekigahara: no such save file: {args.load}", file=sys.stderr)
        return 2
    SekigaharaApp(save_dir=args.save_dir, load=args.load, seed=args.seed).run()
    return 0
