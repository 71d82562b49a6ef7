"""Network latency: from a submit to the new state on both seats' clients.

    python benchmarks/network.py [--commands 2000] [--seed 1] [--transport unix tcp]
                                 [--synchronous full normal] [--profile FILE]

The host is a real `sekigahara host DIR` process (a new one, on a new DIR,
for every game). Two Clients (net/client.py, the app's and the bots' client)
in this process play random legal commands as fast as they can, over the
host's Unix socket or over TCP loopback. For every command the host applied,
the time from `Client.submit` to

- the submitter's state replying to it (reply_to = its id): the round trip
  through the host, the store's commit (one fsync) and both broadcasts;
- the other seat's state of the same version;

both measured when the Client has decoded the state (cattrs, view and
events) and called its listener. Both clients share this process's event
loop, so the other seat's figure includes the submitter's decoding. Games
are played one after another until --commands commands were applied; a
stale refusal (both seats sent in a simultaneous decision) is counted, not
timed. Also printed: the largest line the host sent.

--synchronous normal runs the host with the store's PRAGMA synchronous=NORMAL
instead of FULL, for comparison only: `sekigahara host` itself always uses
FULL (docs/protocol.md, durability). --profile FILE runs the host of the first
game of the first transport under cProfile and writes its stats to FILE.

The machines are noisy: quote figures as measured, with the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import sekigahara_tui.net.client as client_module  # noqa: E402
from rules.notation import format_command  # noqa: E402
from rules.surface import BOTH_SIDES  # noqa: E402
from sekigahara_tui.net.client import Client  # noqa: E402
from sekigahara_tui.net.locations import Address, LocationError, read_address_file, read_token  # noqa: E402

# Runs `sekigahara host` in the child, optionally with synchronous=NORMAL or
# under cProfile. argv: synchronous, profile file ('' for none), host arguments...
HOST_SCRIPT = """
import sys
synchronous, profile, arguments = sys.argv[1], sys.argv[2], sys.argv[3:]
if synchronous != "FULL":
    import sekigahara_tui.hosting.store as store
    opened = store.Store.open.__func__
    def open_with(cls, path, read_only=False):
        made = opened(cls, path, read_only)
        if not read_only:
            made._db.execute("PRAGMA synchronous = " + synchronous)
        return made
    store.Store.open = classmethod(open_with)
from sekigahara_tui.cli import main
if profile:
    import cProfile
    profiler = cProfile.Profile()
    code = profiler.runcall(main, arguments)
    profiler.dump_stats(profile)
else:
    code = main(arguments)
sys.exit(code)
"""

LARGEST = [0]  # the longest line the host sent, in bytes


def _measuring_decoder(decode):
    def decode_and_measure(line: bytes):
        LARGEST[0] = max(LARGEST[0], len(line))
        return decode(line)

    return decode_and_measure


client_module.decode_host_message = _measuring_decoder(client_module.decode_host_message)


class Timings:
    def __init__(self) -> None:
        self.sent: dict[str, float] = {}  # message id -> when submitted
        self.version_sent: dict[int, float] = {}  # version a reply made -> when its command was submitted
        self.submitter: list[float] = []
        self.other: list[float] = []
        self.early_other: dict[int, float] = {}  # the other seat's state arrived before the reply was read
        self.stale = 0


class FastBot:
    """Submits a random legal command as soon as its seat has one."""

    def __init__(self, seed: int, timings: Timings) -> None:
        self.chooser = random.Random(seed)
        self.timings = timings

    def decide(self, client: Client) -> None:
        view = client.view
        if view is None or client.over or client.pending or not client.connected or not view.legal:
            return
        text = format_command(self.chooser.choice(view.legal))
        self.timings.sent[client.submit(text)] = time.perf_counter()

    def on_state(self, client: Client) -> None:
        now = time.perf_counter()
        t = self.timings
        if client.reply_to is not None and client.reply_to in t.sent:
            started = t.sent.pop(client.reply_to)
            t.submitter.append(now - started)
            t.version_sent[client.version] = started
            if client.version in t.early_other:
                t.other.append(t.early_other.pop(client.version) - started)
        elif client.reply_to is None and client.version is not None:
            started = t.version_sent.pop(client.version, None)
            if started is not None:
                t.other.append(now - started)
            else:
                t.early_other[client.version] = now
        self.decide(client)

    def on_refused(self, client: Client, refusal) -> None:
        if refusal.kind == "stale":
            self.timings.stale += 1
            self.timings.sent.pop(refusal.id, None)
        self.decide(client)

    def on_presence(self, client: Client, connected: bool) -> None:
        pass

    def on_connection(self, client: Client, status: str) -> None:
        pass


def start_host(game_dir: Path, seed: int, tcp: bool, synchronous: str, profile: str, env: dict[str, str]) -> subprocess.Popen:
    arguments = ["host", str(game_dir), "--seed", str(seed), "--grace", "0"]
    if tcp:
        arguments += ["--listen", "127.0.0.1:0"]
    host = subprocess.Popen([sys.executable, "-c", HOST_SCRIPT, synchronous, profile, *arguments], env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while True:
        if host.poll() is not None:
            raise SystemExit(f"the host exited {host.returncode}: {host.stderr.read()}")
        try:
            if read_address_file(game_dir).pid == host.pid:
                return host
        except LocationError:
            pass
        if time.monotonic() > deadline:
            raise SystemExit("the host did not start")
        time.sleep(0.02)


async def play_game(address: Address, game_dir: Path, seed: int, timings: Timings, limit: int) -> int:
    """One game (or until `limit` commands were timed); returns commands applied."""
    game = read_address_file(game_dir).game
    timings.sent.clear()  # versions start again at 0 in every game
    timings.version_sent.clear()
    timings.early_other.clear()
    bots = {side: FastBot(seed * 2 + n, timings) for n, side in enumerate(BOTH_SIDES)}
    clients = [Client(address, game, side, read_token(game_dir, side), bots[side], stop_when_over=True) for side in BOTH_SIDES]
    before = len(timings.submitter)
    running = [asyncio.create_task(client.run()) for client in clients]
    while not all(task.done() for task in running) and len(timings.submitter) < limit:
        await asyncio.sleep(0.01)
    for client in clients:
        await client.close()
    await asyncio.gather(*running)
    return len(timings.submitter) - before


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def measure(transport: str, synchronous: str, commands: int, seed: int, profile: str) -> tuple[Timings, int, int]:
    timings = Timings()
    games = 0
    LARGEST[0] = 0
    workdir = Path(tempfile.mkdtemp(prefix="sknet"))
    runtime = Path(tempfile.mkdtemp(prefix="sk", dir="/tmp"))
    os.chmod(runtime, 0o700)
    env = dict(os.environ, XDG_RUNTIME_DIR=str(runtime))
    try:
        while len(timings.submitter) < commands:
            game_dir = workdir / f"game-{games}"
            host = start_host(game_dir, seed + games, transport == "tcp", synchronous, profile if games == 0 else "", env)
            try:
                entry = read_address_file(game_dir)
                address = Address(tcp=entry.address.tcp) if transport == "tcp" else Address(unix=entry.address.unix)
                asyncio.run(play_game(address, game_dir, seed + games, timings, commands))
            finally:
                if host.poll() is None:
                    host.terminate()  # stopped before the game's end: SIGTERM stops a host cleanly
                try:
                    _, err = host.communicate(timeout=30)
                except subprocess.TimeoutExpired:
                    host.kill()
                    _, err = host.communicate()
            if "Traceback" in err:
                raise SystemExit(f"the host failed:\n{err}")
            games += 1
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
        shutil.rmtree(runtime, ignore_errors=True)
    return timings, games, LARGEST[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=2000, help="commands to time per transport (default 2000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--transport", nargs="+", choices=["unix", "tcp"], default=["unix", "tcp"])
    parser.add_argument("--synchronous", nargs="+", choices=["full", "normal"], default=["full"],
                        help="the store's PRAGMA synchronous in the host (the host uses FULL; NORMAL only to compare)")
    parser.add_argument("--profile", default="", metavar="FILE", help="cProfile the first game's host into FILE")
    args = parser.parse_args()
    print(f"{args.commands} commands per row, random legal commands as fast as two clients can play; "
          f"the host a separate process; milliseconds from submit to the decoded state")
    print(f"{'transport':<9} {'sync':<6} {'games':>5} {'commands':>8} {'stale':>5}   "
          f"{'submitter median':>16} {'p99':>6}   {'other seat median':>17} {'p99':>6}   {'largest line':>12}")
    profile = args.profile
    for transport in args.transport:
        for synchronous in args.synchronous:
            timings, games, largest = measure(transport, synchronous.upper(), args.commands, args.seed, profile)
            profile = ""
            mine, theirs = [t * 1000 for t in timings.submitter], [t * 1000 for t in timings.other]
            print(f"{transport:<9} {synchronous.upper():<6} {games:>5} {len(mine):>8} {timings.stale:>5}   "
                  f"{statistics.median(mine):>16.2f} {percentile(mine, 0.99):>6.2f}   "
                  f"{statistics.median(theirs):>17.2f} {percentile(theirs, 0.99):>6.2f}   {largest:>10,} B")
    if args.profile:
        print(f"host profile of the first game: {args.profile} (python -m pstats {args.profile})")


if __name__ == "__main__":
    main()
