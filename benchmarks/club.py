"""Load on the club server: N concurrent bot games over its Unix socket.

Starts `sekigahara serve` in a temporary DATA DIR, then keeps N games going
(2 random bots each, connected over the socket from this process, playing as
fast as they can; a finished game is replaced by a new one) for --seconds.
With --think S each bot thinks before every command for a random time (an
exponential draw, S seconds on average), as people do: the load of N games
at a human pace rather than the most the server can take.
Prints games finished per second, commands per second, the p50/p99 time from
a bot's submit to the state that answers it, the server's memory per
resident game (RSS growth over an idle server, divided by N; a finished
game is evicted --evict-after seconds after its end), and the server's and
the bots' CPU time per command.

    python3 benchmarks/club.py --games 25 50 100 200 --seconds 15
    python3 benchmarks/club.py --games 500 --think 2 --warmup 20   # 500 games at a human pace
    python3 benchmarks/club.py --games 100 --profile /tmp/club   # cProfile of the server
    python3 benchmarks/club.py --games 50 --seconds 60 --warmup 30 --callgrind   # its instructions per command
    python3 benchmarks/club.py --games 200 --think 0.5 --computer 4   # and 4 games against level 2 (issue 25)
    python3 benchmarks/club.py --games 50 --store postgresql://USER@HOST/DB   # each N on SQLite, then PostgreSQL (issue 28)
    python3 benchmarks/club.py --games 60 --seconds 20 --store postgresql://... --hosts 1 2 3   # and over 1, 2, 3 hosts

With --hosts H the games are spread over H `serve` processes on the one
PostgreSQL database (lane k's games are made and played on host k mod H,
each host owning its games: hosting/ownership.py); the CPU per command and
the memory are the H servers' together (PostgreSQL's own CPU is not counted).

The bots are cheap on purpose, so that the bot process is not what limits a
large N: a bot is an asyncio Protocol on a raw Unix socket that reads only
what the random bot needs out of each state (the legal commands' notation,
the version, reply_to) with the stdlib json module, and picks uniformly among
the legal commands as net/bot.py's RandomBot does. Latency is honest: the
clock is read when the bytes arrive (data_received), before any line of them
is decoded, not after a queue of lines has been worked through.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import pstats
import random
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

SRC = Path(__file__).resolve().parent.parent / "src"
sys.path.insert(0, str(SRC))

from rules.sides import Side  # noqa: E402
from sekigahara_tui.hosting import database, members  # noqa: E402
from sekigahara_tui.club.cli import collect_on_timer, tune_garbage_collector  # noqa: E402
from sekigahara_tui.club.client import ClubClient  # noqa: E402
from sekigahara_tui.club.serve import club_address  # noqa: E402
from sekigahara_tui.net.protocol import PROTOCOL_VERSION  # noqa: E402

# The server under cProfile, timed by the main thread's CPU clock: on a
# shared machine wall time would charge a send() with the time the server
# waited for a core after waking the bot that reads it.
PROFILED = """
import cProfile, runpy, sys, time
path, sys.argv = sys.argv[1], ["sekigahara_tui", *sys.argv[2:]]
profiler = cProfile.Profile(time.thread_time)
profiler.enable()
try:
    runpy.run_module("sekigahara_tui", run_name="__main__", alter_sys=True)
finally:
    profiler.disable()
    profiler.dump_stats(path)
"""
PING_EVERY = 15.0  # the server reaps a connection silent for 45 s
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def fake_key() -> str:
    name = b"ssh-ed25519"
    blob = len(name).to_bytes(4, "big") + name + (32).to_bytes(4, "big") + secrets.token_bytes(32)
    return f"ssh-ed25519 {base64.b64encode(blob).decode()}"


RSS_SAMPLE_S = 30.0  # the soak's RSS samples, this far apart


def process_rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def process_cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (and of the threads it holds)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


class Stats:
    def __init__(self) -> None:
        self.measuring = False
        self.latencies: list[float] = []
        self.commands = 0
        self.all_commands = 0  # warm-up included: the server's counts cover its whole run
        self.finished = 0


class SeatBot(asyncio.Protocol):
    """One seat played at random over a raw connection (see the module's doc)."""

    def __init__(self, game: str, side: Side, token: str, seed: int, stats: Stats, bots: set, think: float = 0.0) -> None:
        self.hello = {"type": "hello", "protocol": PROTOCOL_VERSION, "game": game, "seat": side.value, "token": token, "seen": None}
        self.chooser = random.Random(seed)
        self.stats = stats
        self.bots = bots
        self.done = asyncio.get_running_loop().create_future()
        self.transport: asyncio.Transport | None = None
        self.buffer = b""
        self.version = 0
        self.legal: list[str] = []
        self.over = False
        self.pending: str | None = None
        self.sent_at = 0.0
        self.think = think  # mean seconds before each command (0: at once)
        self.thinking: asyncio.TimerHandle | None = None

    def connection_made(self, transport) -> None:
        self.transport = transport
        self.bots.add(self)
        self.write(self.hello)

    def write(self, message: dict) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")

    def data_received(self, data: bytes) -> None:
        arrived = time.perf_counter()  # before decoding anything
        lines = (self.buffer + data).split(b"\n")
        self.buffer = lines.pop()
        for line in lines:
            self.take(json.loads(line), arrived)

    def take(self, message: dict, arrived: float) -> None:
        kind = message["type"]
        if kind == "state":
            self.version = message["version"]
            self.legal = message["view"]["legal"]
            self.over = message["over"]
            if message["reply_to"] is not None and message["reply_to"] == self.pending:
                self.stats.all_commands += 1
                if self.stats.measuring:
                    self.stats.latencies.append(arrived - self.sent_at)
                    self.stats.commands += 1
                self.pending = None
            self.decide()
        elif kind == "refused":
            if message["id"] == self.pending:
                self.pending = None  # stale: the other seat moved first
            self.decide()
        elif kind == "game_over":
            self.over = True
            assert self.transport is not None
            self.transport.close()

    def decide(self) -> None:
        if self.pending is not None or self.over or not self.legal or self.thinking is not None:
            return
        if self.think > 0:
            delay = self.chooser.expovariate(1 / self.think)
            self.thinking = asyncio.get_running_loop().call_later(delay, self.submit)
        else:
            self.submit()

    def submit(self) -> None:
        self.thinking = None
        if self.pending is not None or self.over or not self.legal:
            return
        self.pending = secrets.token_urlsafe(9)
        self.write({"type": "submit", "id": self.pending, "version": self.version, "command": self.chooser.choice(self.legal)})
        self.sent_at = time.perf_counter()

    def connection_lost(self, exc) -> None:
        if self.thinking is not None:
            self.thinking.cancel()
        self.bots.discard(self)
        if not self.done.done():
            self.done.set_result(self.over)


async def one_game(sock: Path, alice: ClubClient, bob: ClubClient, seed: int, stats: Stats, bots: set, think: float) -> None:
    made = await alice.new_game(Side.ISHIDA, "open")
    joined = await bob.join(made.game)
    loop = asyncio.get_running_loop()
    seats = []
    for entry, bot_seed in ((made, seed), (joined, seed + 1)):
        assert entry.seat is not None
        _, bot = await loop.create_unix_connection(
            lambda e=entry, s=bot_seed: SeatBot(e.game, e.seat, e.token, s, stats, bots, think), str(sock)
        )
        seats.append(bot)
    results = await asyncio.gather(*(bot.done for bot in seats))
    if stats.measuring and all(results):
        stats.finished += 1


async def computer_game(sock: Path, alice: ClubClient, level: str, seed: int, stats: Stats, bots: set, think: float) -> None:
    """A member (a bot thinking like the others) against the club's computer at `level` (issue 25)."""
    made = await alice.new_game(Side.ISHIDA, "computer", level)
    assert made.seat is not None
    loop = asyncio.get_running_loop()
    _, bot = await loop.create_unix_connection(lambda: SeatBot(made.game, made.seat, made.token, seed, stats, bots, think), str(sock))
    await bot.done


async def ping(bots: set) -> None:
    while True:
        await asyncio.sleep(PING_EVERY)
        for bot in list(bots):
            bot.write({"type": "ping"})


async def load(
    socks: list[Path], pids: list[int], n: int, seconds: float, warmup: float, think: float, computer: int = 0, level: str = "planner",
    counting: Callable[[bool], None] = lambda on: None,
) -> dict:
    """N games over the club's hosts (one, or several over one PostgreSQL:
    lane k's games are made and played on host k mod hosts)."""
    lobbies = [(ClubClient(sock, member="alice"), ClubClient(sock, member="bob")) for sock in socks]
    for alice, bob in lobbies:
        await alice.connect()
        await bob.connect()
    stats = Stats()
    bots: set[SeatBot] = set()
    stop = False
    seeds = iter(range(0, 10**9, 2))

    async def lane(k: int) -> None:
        sock, (alice, bob) = socks[k % len(socks)], lobbies[k % len(socks)]
        while not stop:
            await one_game(sock, alice, bob, next(seeds), stats, bots, think)

    async def computer_lane(k: int) -> None:  # its member's latencies are not the human games'
        sock, (alice, _) = socks[k % len(socks)], lobbies[k % len(socks)]
        while not stop:
            await computer_game(sock, alice, level, next(seeds), Stats(), bots, think)

    def rss_kb() -> int:  # the servers' together
        return sum(process_rss_kb(pid) for pid in pids)

    def cpu_seconds() -> float:
        return sum(process_cpu_seconds(pid) for pid in pids)

    idle_rss = rss_kb()
    pinger = asyncio.create_task(ping(bots))
    collector = asyncio.create_task(collect_on_timer())  # the bots' collector on the server's schedule
    lanes = [asyncio.create_task(lane(k)) for k in range(n)] + [asyncio.create_task(computer_lane(k)) for k in range(computer)]
    await asyncio.sleep(warmup)
    loaded_rss = rss_kb()
    counting(True)
    server_cpu, own_cpu = cpu_seconds(), time.process_time()
    stats.measuring = True
    began = time.perf_counter()
    # RSS sampled through the measured period, not only at its two ends: flat
    # means no trend over the samples, whatever the moment they end on.
    rss_samples = [loaded_rss]
    while (left := seconds - (time.perf_counter() - began)) > 0:
        await asyncio.sleep(min(RSS_SAMPLE_S, left))
        rss_samples.append(rss_kb())
    stats.measuring = False
    counting(False)
    end_rss = rss_kb()
    elapsed = time.perf_counter() - began
    server_cpu, own_cpu = cpu_seconds() - server_cpu, time.process_time() - own_cpu
    stop = True
    pinger.cancel()
    collector.cancel()
    for task in lanes:
        task.cancel()
    for bot in list(bots):
        if bot.transport is not None:
            bot.transport.abort()
    await asyncio.gather(*lanes, return_exceptions=True)
    for alice, bob in lobbies:
        await alice.close()
        await bob.close()
    lat = sorted(stats.latencies) or [float("nan")]
    commands = max(stats.commands, 1)
    return {
        "n": n,
        "games_per_s": stats.finished / elapsed,
        "commands_per_s": stats.commands / elapsed,
        "p50_ms": 1000 * statistics.median(lat),
        "p99_ms": 1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))],
        "kb_per_game": (loaded_rss - idle_rss) / n,
        "start_rss_kb": loaded_rss,
        "end_rss_kb": end_rss,
        "rss_samples_kb": rss_samples,
        "all_commands": stats.all_commands,
        "commands": stats.commands,
        "server_us": 1e6 * server_cpu / commands,
        "bots_us": 1e6 * own_cpu / commands,
    }


def print_soak(result: dict, stats_file: Path) -> None:
    """The soak's figures: RSS flat after warm-up, and the place-index cache (issue 23, item 11)."""
    start, end = result["start_rss_kb"], result["end_rss_kb"]
    samples = result["rss_samples_kb"]
    print(f"      soak: RSS {start / 1024:.1f} MB after warm-up, {end / 1024:.1f} MB at the end (x{end / start:.3f}); "
          f"p50 {result['p50_ms']:.1f} ms, p99 {result['p99_ms']:.1f} ms", flush=True)
    print(f"      RSS every {RSS_SAMPLE_S:g} s (MB): " + " ".join(f"{kb / 1024:.0f}" for kb in samples), flush=True)
    print(f"      RSS over the measured period: min {min(samples) / 1024:.1f} MB, max {max(samples) / 1024:.1f} MB "
          f"(max/start x{max(samples) / start:.3f}; goal: within x1.10)", flush=True)
    if stats_file.exists():
        built = json.loads(stats_file.read_text())["place_indexes_built"]
        commands = max(result["all_commands"], 1)
        print(f"      place indexes built from scratch: {built} in {result['all_commands']} commands (warm-up included), "
              f"{built / commands:.3f} a command; hit rate {1 - built / commands:.1%} of commands needing no new index", flush=True)
    else:
        print("      the server wrote no stats file (SEKIGAHARA_STATS_FILE)", flush=True)


def print_transactions(result: dict, stats_file: Path) -> None:
    """The group commit's transactions: the store's fsyncs, each a thread's hand-over (issue 23's CPU a command)."""
    if stats_file.exists():
        made = json.loads(stats_file.read_text()).get("store_transactions", 0)
        print(f"      store transactions: {made} for {result['all_commands']} commands (warm-up included), "
              f"{result['all_commands'] / max(made, 1):.2f} commands a transaction", flush=True)


def print_computer(k: int, level: str, stats_file: Path) -> None:
    """The computer's decisions in the K games against it (issue 25): from
    asking a worker to its answer (waiting for a free worker included), and
    the thinking inside the worker alone, which its budget bounds."""
    stats = json.loads(stats_file.read_text()) if stats_file.exists() else {}
    for key, what in (("computer_decision_s", "asked to answered"), ("computer_thinking_s", "thinking in the worker")):
        times = sorted(stats.get(key, []))
        if not times:
            print(f"      computer ({k} games at {level}), {what}: no decision timed", flush=True)
            continue
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        print(f"      computer ({k} games at {level}), {what}: {len(times)} decisions (warm-up included), "
              f"median {1000 * statistics.median(times):.0f} ms, p99 {1000 * p99:.0f} ms, max {1000 * times[-1]:.0f} ms", flush=True)


def callgrind_counting(pid: int, on: bool) -> None:
    """Turn callgrind's counting in the server on or off (it starts off: the
    imports and the warm-up are not counted)."""
    subprocess.run(["callgrind_control", "-i", "on" if on else "off", str(pid)], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def print_instructions(counts: Path, commands: int) -> None:
    """The server's instructions in the measured period, per command answered in it."""
    total = next((int(line.split()[1]) for line in counts.read_text().splitlines() if line.startswith("totals:")), 0)
    print(f"      callgrind: {total:,} server instructions for {commands} commands: "
          f"{total / max(commands, 1) / 1e6:.3f} M instructions a command", flush=True)


def print_profile(path: Path, top: int) -> None:
    stats = pstats.Stats(str(path))
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, nargs="+", default=[10, 50, 100])
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--think", type=float, default=0.0, metavar="S", help="each bot thinks S seconds on average before a command (default 0: as fast as it can)")
    parser.add_argument("--evict-after", type=float, default=5.0, metavar="S", help="the server evicts a game S seconds after its last use")
    parser.add_argument(
        "--profile", type=Path, metavar="PREFIX",
        help="run the server under cProfile (its main thread's CPU time); writes PREFIX-N.prof per N and prints its top functions (slows the server)",
    )
    parser.add_argument(
        "--soak", action="store_true",
        help="also print the server's RSS at the start of the measured period (after --warmup) and at its end, their ratio, "
        "and the place indexes it built per command (issue 23: 500 games, --think 0.5, --seconds 600)",
    )
    parser.add_argument(
        "--callgrind", action="store_true",
        help="run the server under valgrind's callgrind, counting only the measured period, and print the server's "
        "instructions per command: a figure other load on the machine does not change (very slow: use few games)",
    )
    parser.add_argument("--top", type=int, default=30, help="functions shown per profile listing")
    parser.add_argument("--computer", type=int, default=0, metavar="K", help="also K games against the club's computer (issue 25); prints its decision times")
    parser.add_argument("--computer-level", default="planner", help="the computer's level in those games (default planner: level 2)")
    parser.add_argument("--computer-workers", type=int, default=None, metavar="W", help="serve --computer-workers (default: the server's, cores minus one)")
    parser.add_argument("--store", metavar="postgresql://...", help="also each N on PostgreSQL (serve --store), after SQLite: a new database "
                        "beside the URL's for each run, dropped after (its user may create databases)")
    parser.add_argument("--hosts", type=int, nargs="+", default=[1], metavar="H",
                        help="with --store: the games spread over H serve processes on the one database (issue 28), for each H; "
                        "SQLite runs with one host in the same run")
    args = parser.parse_args()
    # The bots' own collector would stall their loop, and the latency they
    # time, as it stalled the server's: tuned alike (club/cli.py).
    tune_garbage_collector()
    pace = f"bots think {args.think:g} s on average" if args.think else "bots as fast as they can"
    print(f"club server load, {os.cpu_count()} cores, Python {sys.version.split()[0]}, {pace}")
    print(
        f"{'store':>10} {'hosts':>5} {'N':>5} {'games/s':>8} {'commands/s':>11} {'p50 ms':>7} {'p99 ms':>7} {'KB/game':>8}"
        f" {'server us/cmd':>14} {'bots us/cmd':>12}"
    )
    runs = [(n, None, 1) for n in args.games]
    if args.store:
        runs += [(n, args.store, hosts) for n in args.games for hosts in args.hosts]
    for n, store, hosts in runs:
        directory = Path(tempfile.mkdtemp(prefix="skb", dir="/tmp"))
        data_dirs = [directory / f"club{h}" if h else directory / "club" for h in range(hosts)]
        data_dir = data_dirs[0]
        profile = None if args.profile is None else Path(f"{args.profile}-{n}.prof")
        bench_db = None
        servers: list[subprocess.Popen] = []
        try:
            if store is not None:
                bench_db = bench_database(store, "create")
                for each in data_dirs:  # serve and members.add use it; each host its own DATA DIR
                    database.record_location(members.prepare_data_dir(each), bench_db)
            members.add(data_dir, "alice", fake_key())
            members.add(data_dir, "bob", fake_key())
            stats_file = directory / "server-stats.json"
            env = dict(os.environ, XDG_RUNTIME_DIR=str(directory), SEKIGAHARA_STATS_FILE=str(stats_file))
            # The server runs this checkout's code, as the bots do (not an installed copy's).
            env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), os.environ.get("PYTHONPATH")]))
            under = ["-m", "sekigahara_tui"] if profile is None else ["-c", PROFILED, str(profile)]
            counts = directory / "callgrind.out"
            valgrind = ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={counts}"] if args.callgrind else []
            # The server's stderr goes to a file: a pipe nobody reads fills up
            # and blocks the server in the middle of the measurement.
            errors = directory / "server.err"
            workers = [] if args.computer_workers is None else ["--computer-workers", str(args.computer_workers)]
            for each in data_dirs:
                with errors.open("ab") as err:
                    servers.append(subprocess.Popen(
                        [*valgrind, sys.executable, *under, "serve", "--data", str(each), "--evict-after", str(args.evict_after), *workers],
                        stdout=subprocess.DEVNULL, stderr=err, env=env,
                        cwd=Path(__file__).resolve().parent.parent,
                    ))
            for each, server in zip(data_dirs, servers):
                while not (each / "club.json").exists():
                    if server.poll() is not None:
                        raise SystemExit(errors.read_text(errors="replace"))
                    time.sleep(0.05)
            server = servers[0]
            result = asyncio.run(load(
                [Path(club_address(each)["socket"]) for each in data_dirs], [each.pid for each in servers], n, args.seconds, args.warmup, args.think, args.computer, args.computer_level,
                (lambda on: callgrind_counting(server.pid, on)) if args.callgrind else (lambda on: None),
            ))
            for each in servers:
                each.terminate()  # SIGTERM: the server stops cleanly (and cProfile writes its file)
            for each in servers:
                each.wait(timeout=600 if args.callgrind else 60)
            print(
                f"{'postgresql' if store else 'sqlite':>10} {hosts:>5} {result['n']:>5} {result['games_per_s']:>8.2f} {result['commands_per_s']:>11.0f} "
                f"{result['p50_ms']:>7.1f} {result['p99_ms']:>7.1f} {result['kb_per_game']:>8.0f}"
                f" {result['server_us']:>14.0f} {result['bots_us']:>12.0f}",
                flush=True,
            )
            said = errors.read_text(errors="replace").strip().splitlines()
            if said:
                print(f"      the server wrote {len(said)} lines to stderr; first: {said[0][:150]}; last: {said[-1][:150]}", flush=True)
            print_transactions(result, stats_file)
            if args.callgrind:
                print_instructions(counts, result["commands"])
            if args.soak:
                print_soak(result, stats_file)
            if args.computer:
                print_computer(args.computer, args.computer_level, stats_file)
            if profile is not None:
                print_profile(profile, args.top)
        finally:
            for each in servers:
                if each.poll() is None:
                    each.kill()
                    each.wait()
            shutil.rmtree(directory, ignore_errors=True)
            if bench_db is not None:
                bench_database(bench_db, "drop")


def bench_database(url: str, verb: str) -> str:
    """A new database beside `url`'s (create), or `url`'s dropped (drop); its URL."""
    import psycopg
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    name = f"sekigahara_bench_{os.getpid()}_{time.monotonic_ns()}" if verb == "create" else parts.path.lstrip("/")
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as admin:
        admin.execute(f'{verb.upper()} DATABASE "{name}"')
    return urlunsplit(parts._replace(path=f"/{name}"))


if __name__ == "__main__":
    main()
