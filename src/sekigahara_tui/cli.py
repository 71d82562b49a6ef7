"""The `sekigahara` command: replay records, run self-play games, open the app.

Whatever goes wrong ends in one line on stderr and a non-zero exit: 1 for a
record that cannot be replayed or a failed write, 2 for bad arguments (a bad
save, position or directory for the app is refused before Textual starts),
1 with the traceback in the crash log for an unexpected error.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from rules.sides import BOTH_SIDES, Side
from rules.infra.untrusted import printable, printable_path
from sekigahara_tui.crash_log import app_crash_message, crash_message, data_dir, write_crash_log

# The engine (rules.infra.record and all it imports) loads in the commands that use
# it, not before the main menu shows: `sekigahara` alone needs none of it.
if TYPE_CHECKING:
    from rules.infra.record import GameRecord
    from rules.state import GameState

BOT_LEVELS = ("random", "heuristic", "planner", "search")  # sekigahara_tui.bots.LEVELS, without importing the bots here


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sekigahara",
        description="Sekigahara: The Unification of Japan, in the terminal.",
    )
    start = parser.add_mutually_exclusive_group()
    start.add_argument("--load", type=Path, metavar="FILE", help="open this saved game (a game record) in the app")
    start.add_argument("--position", type=Path, metavar="FILE", help="start a new hot-seat game at this position file (docs/positions.md)")
    start.add_argument("--seed", type=int, help="start a new hot-seat game with this seed at once")
    start.add_argument("--ask-forced", action="store_true",
                       help="hot seat: a hand-over even for a move that has no choice (by default it is given at once)")
    parser.add_argument("--save-dir", type=Path, metavar="DIR", help="where saves and the autosave go (default: the user data directory)")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    replay_parser = commands.add_parser("replay", help="replay a game record and summarise the final position")
    replay_parser.add_argument("record", type=Path, help="a record file written by a game or by selfplay --record")
    replay_parser.add_argument("--step", action="store_true", help="replay it step by step in the app (forward, back, jump to a week)")
    selfplay = commands.add_parser("selfplay", help="play games between computer players (random-move by default)")
    selfplay.add_argument("--games", type=int, default=1, help="how many games (default 1)")
    selfplay.add_argument("--seed", type=int, default=1, help="seed of the first game; game i uses seed+i (default 1)")
    selfplay.add_argument("--record", type=Path, metavar="DIR", help="write each game's record into DIR")
    for side in ("ishida", "tokugawa"):
        selfplay.add_argument(f"--{side}", choices=BOT_LEVELS, default="random", metavar="LEVEL", help=f"{side}'s player: {' or '.join(BOT_LEVELS)} (default random)")
    analyse = commands.add_parser("analyse", help="analyse a finished game: each side's chance by half-turn, the largest swings")
    analyse.add_argument("record", type=Path, help="the record of a finished game (a save, selfplay --record, export)")
    analyse.add_argument("--budget", type=int, default=None, metavar="N", help="playouts a half-turn (default 8; counted, not timed: reproducible)")
    analyse.add_argument("--seed", type=int, default=0, help="the playouts' seed (default 0)")
    add_network_commands(commands)
    from sekigahara_tui.club.cli import add_club_commands

    add_club_commands(commands)  # serve, member, club, ratings (docs/club.md)
    return parser


def add_network_commands(commands) -> None:
    """host, join, export and bot: networked play (docs/protocol.md)."""
    sides = [side.value for side in BOTH_SIDES]
    host = commands.add_parser("host", help="host a game for two players (one in each terminal)")
    host.add_argument("dir", type=Path, metavar="DIR", help="the game's directory: made if new, resumed if not")
    start = host.add_mutually_exclusive_group()
    start.add_argument("--seed", type=int, help="seed of a new game (default: a random one)")
    start.add_argument("--position", type=Path, metavar="FILE", help="start a new game at this position file")
    host.add_argument("--listen", metavar="HOST:PORT", help="also listen on TCP (port 0: any free port)")
    host.add_argument("--seat", action="append", default=[], metavar="SIDE=USER", help="bind a seat to a Unix user")
    host.add_argument("--idle-timeout", type=float, default=2 * 60 * 60, metavar="SECONDS", help="stop after this long with nobody connected (default 7200)")
    host.add_argument("--grace", type=float, default=10.0, metavar="SECONDS", help="stop this long after the game is over and both players left (default 10)")
    host.add_argument("--stop-if-left-alone", action="store_true",
                      help="stop when the player who came has gone before the other ever joined (the menu's two terminals)")
    join = commands.add_parser("join", help="play a seat of a hosted game; with no DIR, list the games you can join")
    join.add_argument("dir", type=Path, nargs="?", metavar="DIR", help="the game's directory (or a .join file)")
    join.add_argument("--seat", choices=sides, help="which side to play")
    export = commands.add_parser(
        "export", help="print the record of a hosted game (running or not); with --data, write a club game's record to FILE")
    export.add_argument("dir", metavar="DIR|GAME", help="the hosted game's directory; with --data, the club game's id")
    export.add_argument("file", type=Path, nargs="?", metavar="FILE", help="with --data: where to write the record (else printed)")
    export.add_argument("--data", type=Path, metavar="DIR", help="a club's data directory (serve --data)")
    bot = commands.add_parser("bot", help="play a seat of a hosted game with a computer player")
    bot.add_argument("dir", type=Path, metavar="DIR")
    bot.add_argument("--seat", choices=sides, required=True)
    bot.add_argument("--level", choices=BOT_LEVELS, default="random")
    bot.add_argument("--seed", type=int, help="seed of the bot's choices")


def fail(program: str, message: str, status: int) -> int:
    """Say what went wrong in one line of plain text, and give the exit status."""
    print(f"{program}: {printable(message, 280)}", file=sys.stderr)
    return status


def summarise(state: GameState) -> str:
    from rules.victory import victory_points

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


def replay(record: GameRecord) -> GameState:
    """rules.infra.record.replay, loaded when first used."""
    from rules.infra.record import replay as replay_record

    return replay_record(record)


def replay_file(path: Path) -> GameState:
    """Load and replay a record file; a RecordError names the file."""
    from rules.infra.record import RecordError, load_record

    record = load_record(path)
    try:
        return replay(record)
    except RecordError as error:
        raise RecordError(f"{printable_path(path)}: {error}") from None


def run_replay(args: argparse.Namespace) -> int:
    from rules.infra.record import RecordError

    if args.step:
        return run_step_replay(args)
    try:
        state = replay_file(args.record)
    except RecordError as error:
        return fail("sekigahara replay", str(error), 1)
    print(summarise(state))
    return 0


def run_step_replay(args: argparse.Namespace) -> int:
    """`replay --step`: the replay screen; a bad record is refused in one line
    (exit 2) before Textual takes the terminal."""
    from rules.infra.record import RecordError, load_record
    from sekigahara_tui.replay_model import ReplayModel

    try:
        record = load_record(args.record)  # its errors name the file
        try:
            model = ReplayModel.from_record(record)
        except RecordError as error:
            raise RecordError(f"{printable_path(args.record)}: {error}") from None
    except RecordError as error:
        return fail("sekigahara replay", str(error), 2)
    from sekigahara_tui.screens.replay import ReplayApp  # Textual is only loaded for the app

    app = ReplayApp(model, args.save_dir or data_dir())
    app.run()
    if app.return_code:
        return fail("sekigahara", app_crash_message(app.crash_log), app.return_code)
    return 0


def run_analyse(args: argparse.Namespace) -> int:
    """`sekigahara analyse RECORD`: a finished game only (analysis.py); anything else is one line."""
    from rules.infra.record import RecordError, load_record
    from sekigahara_tui.analysis import PLAYOUTS, AnalysisRefused, analyse, report

    try:
        record = load_record(args.record)
        analysis = analyse(record, PLAYOUTS if args.budget is None else args.budget, args.seed)
    except (RecordError, AnalysisRefused) as error:
        return fail("sekigahara analyse", str(error), 1)
    print(report(analysis, printable_path(args.record)))
    return 0


def directory_problem(path: Path) -> str | None:
    """Why `path` cannot hold files we write (None if it can, or can be made)."""
    if path.exists() and not path.is_dir():
        return f"{printable_path(path)} is not a directory"
    return None


def bot_game(seed: int, ishida: str, tokugawa: str):
    """A game between two bot levels (sekigahara_tui.bots.play), shaped like
    random_game's result; None if it did not finish (a bot's crash or illegal
    command, which the bots' tests rule out)."""
    import time

    from rules.infra.selfplay import SelfPlayResult
    from sekigahara_tui.bots.play import play_game

    started = time.perf_counter()
    outcome = play_game(seed, ishida, tokugawa)
    if outcome.winner is None:
        return None
    milliseconds = (time.perf_counter() - started) * 1000
    return SelfPlayResult(seed, outcome.state, outcome.record, outcome.decisions, milliseconds)


def run_selfplay(args: argparse.Namespace) -> int:
    from rules.infra.record import save_record
    from rules.infra.selfplay import random_game

    if args.games < 1:
        return fail("sekigahara selfplay", "--games must be at least 1", 2)
    if args.record is not None:
        problem = directory_problem(args.record)
        try:
            if problem is None:
                args.record.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            problem = f"cannot make {printable_path(args.record)}: {error.strerror}"
        if problem is not None:
            return fail("sekigahara selfplay", f"--record: {problem}", 2)
    wins = {side: 0 for side in BOTH_SIDES}
    decisions = 0
    milliseconds = 0.0
    for seed in range(args.seed, args.seed + args.games):
        if args.ishida == "random" and args.tokugawa == "random":
            game = random_game(seed)
        else:
            game = bot_game(seed, args.ishida, args.tokugawa)
            if game is None:
                return fail("sekigahara selfplay", f"seed {seed}: the game between the bots did not finish", 1)
        decisions += game.decisions
        milliseconds += game.milliseconds
        assert game.state.result is not None
        wins[game.state.result.winner] += 1
        print(
            f"seed {seed}: winner {game.state.result.winner.value} ({describe_result(game.state)}), "
            f"{game.decisions} decisions, {game.milliseconds:.0f} ms"
        )
        if args.record is not None:
            path = args.record / f"game-{seed}.json"
            try:
                save_record(game.record, path)
            except OSError as error:
                return fail("sekigahara selfplay", f"cannot write {printable_path(path)}: {error.strerror}", 1)
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
    try:
        if args.command == "replay":
            return run_replay(args)
        if args.command == "selfplay":
            return run_selfplay(args)
        if args.command == "analyse":
            return run_analyse(args)
        if args.command in NETWORK_COMMANDS:
            return NETWORK_COMMANDS[args.command](args)
        from sekigahara_tui.club.cli import CLUB_COMMANDS

        if args.command in CLUB_COMMANDS:
            return CLUB_COMMANDS[args.command](args)
        return run_app(args)
    except Exception as error:  # a bug: the traceback goes to the log, not the terminal
        return fail("sekigahara", crash_message(error, write_crash_log(error, args.save_dir)), 1)


def run_host(args: argparse.Namespace) -> int:
    import asyncio

    from rules.infra.record import RecordError, seed_problem
    from sekigahara_tui.net.host_command import HostingError, HostOptions, host_game, parse_listen, parse_seat_binding
    from sekigahara_tui.net.locations import LocationError
    from sekigahara_tui.hosting.store import StoreError

    try:
        if args.seed is not None and seed_problem(args.seed) is not None:
            raise HostingError(f"--seed: the seed {seed_problem(args.seed)}")
        if args.idle_timeout <= 0 or args.grace < 0:
            raise HostingError("--idle-timeout must be positive and --grace not negative")
        options = HostOptions(
            game_dir=args.dir,
            seed=args.seed,
            position=args.position,
            listen=parse_listen(args.listen) if args.listen else None,
            bound=tuple(parse_seat_binding(text) for text in args.seat),
            idle_timeout=args.idle_timeout,
            grace=args.grace,
            stop_if_left_alone=args.stop_if_left_alone,
        )
        print(asyncio.run(host_game(options, say=lambda line: print(line, flush=True))), flush=True)
    except (HostingError, LocationError, StoreError, RecordError) as error:
        return fail("sekigahara host", str(error), 2)
    except OSError as error:
        return fail("sekigahara host", f"cannot listen: {error.strerror or error}", 2)
    return 0


def run_join(args: argparse.Namespace) -> int:
    from sekigahara_tui.net.locations import LocationError, describe_running, running_games

    from sekigahara_tui.net.client import Client

    if args.dir is None:
        if not sys.stdout.isatty():  # a script asked: the list as text
            try:
                print(describe_running(running_games()))
            except LocationError as error:
                return fail("sekigahara join", str(error), 2)
            return 0
    elif args.seat is None:
        return fail("sekigahara join", "say which side to play: --seat ishida or --seat tokugawa", 2)
    else:
        try:  # a game that is not there, or a seat whose token is not ours: one line, before Textual
            Client.for_game_dir(args.dir, Side(args.seat))
        except (LocationError, OSError, ValueError) as error:
            return fail("sekigahara join", str(error), 2)
    keymap, problem = users_keymap()
    if problem is not None:
        return fail("sekigahara join", problem, 2)
    from sekigahara_tui.app import SekigaharaApp  # Textual is only loaded for the app

    save_dir = args.save_dir or data_dir()
    if args.dir is None:  # at a terminal: the app offers the games to join
        app = SekigaharaApp(save_dir=save_dir, choose_game=True, keymap=keymap)
    else:
        app = SekigaharaApp(save_dir=save_dir, join=(args.dir, Side(args.seat)), keymap=keymap)
    app.run()
    if app.return_code:
        return fail("sekigahara", app_crash_message(app.crash_log), app.return_code)
    return 0


def run_export(args: argparse.Namespace) -> int:
    from rules.infra.record import record_to_json
    from sekigahara_tui.net.host_command import stored_record
    from sekigahara_tui.hosting.store import StoreError

    if args.data is not None:
        return export_club_game(args.data, args.dir, args.file)
    if args.file is not None:
        return fail("sekigahara export", "FILE is for a club game: give --data DIR", 2)
    try:
        record = stored_record(Path(args.dir))
    except StoreError as error:
        return fail("sekigahara export", str(error), 1)
    sys.stdout.write(record_to_json(record))
    return 0


def export_club_game(data_dir: Path, game_id: str, path: Path | None) -> int:
    """A club game's record from its store (read only: the club may be running)."""
    from rules.infra.record import record_to_json, save_record
    from sekigahara_tui.hosting.members import STORE_FILE
    from sekigahara_tui.hosting.store import Store, StoreError, exported_record

    try:
        store = Store.open(Path(data_dir) / STORE_FILE, read_only=True)
        try:
            record = exported_record(*store.load_game(game_id))
        finally:
            store.close()
        if path is None:
            sys.stdout.write(record_to_json(record))
        else:
            save_record(record, path)
    except (StoreError, OSError) as error:
        return fail("sekigahara export", str(error), 1)
    return 0


def run_bot(args: argparse.Namespace) -> int:
    import asyncio

    from sekigahara_tui.bots.driver import play
    from sekigahara_tui.net.locations import LocationError

    try:
        client = asyncio.run(play(args.dir, Side(args.seat), args.seed, level=args.level))
    except LocationError as error:
        return fail("sekigahara bot", str(error), 2)
    if client.over:
        print(f"{args.seat}: {client.result or 'the game is over'}")
        return 0
    return fail("sekigahara bot", client.status, 1)


NETWORK_COMMANDS = {"host": run_host, "join": run_join, "export": run_export, "bot": run_bot}


def app_problem(args: argparse.Namespace, save_dir: Path) -> str | None:
    """Why the app cannot start as asked: checked before Textual takes the terminal."""
    problem = directory_problem(save_dir)
    if problem is not None:
        return f"--save-dir: {problem}"
    if args.seed is None and args.load is None and args.position is None:
        return None  # the main menu: nothing to check, and no engine to load
    from rules.infra.record import RecordError, load_position_record, seed_problem

    if args.seed is not None and seed_problem(args.seed) is not None:
        return f"--seed: the seed {seed_problem(args.seed)}"
    try:
        if args.load is not None:
            if not args.load.is_file():
                return f"no such save file: {printable_path(args.load)}"
            replay_file(args.load)
        if args.position is not None:
            load_position_record(args.position)
    except RecordError as error:
        return str(error)
    return None


def users_keymap() -> tuple[dict[str, str], str | None]:
    """The player's keymap.toml (keymap.py), or why it cannot be used."""
    from sekigahara_tui.keymap import KeymapError, load_keymap

    try:
        return load_keymap(), None
    except KeymapError as error:
        return {}, str(error)


def run_app(args: argparse.Namespace) -> int:
    """No subcommand: the terminal game itself."""
    save_dir = args.save_dir or data_dir()
    problem = app_problem(args, save_dir)
    if problem is not None:
        return fail("sekigahara", problem, 2)
    keymap, problem = users_keymap()
    if problem is not None:
        return fail("sekigahara", problem, 2)
    from sekigahara_tui.app import SekigaharaApp  # Textual is only loaded for the app

    app = SekigaharaApp(save_dir=save_dir, load=args.load, seed=args.seed, position=args.position, keymap=keymap,
                        ask_forced=args.ask_forced)
    app.run()
    if app.return_code:
        return fail("sekigahara", app_crash_message(app.crash_log), app.return_code)
    farewell = app.farewell()
    if farewell:
        print(farewell)
    return 0
