"""Load on the club server: N concurrent bot games over its Unix socket.

Starts `sekigahara serve` in a temporary DATA DIR, then keeps N games going
(2 random bots each, connected over the socket from this process, playing as
fast as they can; a finished game is replaced by a new one) for --seconds.
Prints games finished per second, commands per second, the p50/p99 time from
a bot's submit to the state that answers it, and the server's memory per
resident game (RSS growth over an idle server, divided by N).

    python3 benchmarks/club.py --games 10 50 100 --seconds 20

Note: the bots share this machine's cores with the server (one process for
all bots), so at large N the bots' own decoding is part of what is measured.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from rules.sides import Side  # noqa: E402
from sekigahara_tui.club import members  # noqa: E402
from sekigahara_tui.club.client import ClubClient  # noqa: E402
from sekigahara_tui.net.bot import RandomBot  # noqa: E402


def fake_key() -> str:
    name = b"ssh-ed25519"
    blob = len(name).to_bytes(4, "big") + name + (32).to_bytes(4, "big") + secrets.token_bytes(32)
    return f"ssh-ed25519 {base64.b64encode(blob).decode()}"


def rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class TimedBot(RandomBot):
    def __init__(self, seed: int, stats: "Stats") -> None:
        super().__init__(seed)
        self.stats = stats
        self.sent: dict[str, float] = {}

    def decide(self, client) -> None:
        before = set(client.pending)
        super().decide(client)
        for message_id in set(client.pending) - before:
            self.sent[message_id] = time.perf_counter()

    def on_state(self, client) -> None:
        started = self.sent.pop(client.reply_to, None) if client.reply_to else None
        if started is not None and self.stats.measuring:
            self.stats.latencies.append(time.perf_counter() - started)
            self.stats.commands += 1
        super().on_state(client)

    def on_refused(self, client, refusal) -> None:
        self.sent.pop(refusal.id, None)
        super().on_refused(client, refusal)


class Stats:
    def __init__(self) -> None:
        self.measuring = False
        self.latencies: list[float] = []
        self.commands = 0
        self.finished = 0


async def one_game(alice: ClubClient, bob: ClubClient, seed: int, stats: Stats) -> None:
    made = await alice.new_game(Side.ISHIDA, "open")
    joined = await bob.join(made.game)
    clients = [
        alice.seat_client(made, TimedBot(seed, stats), stop_when_over=True),
        bob.seat_client(joined, TimedBot(seed + 1, stats), stop_when_over=True),
    ]
    await asyncio.gather(*(c.run() for c in clients))
    if stats.measuring:
        stats.finished += 1


async def load(sock: Path, pid: int, n: int, seconds: float, warmup: float) -> dict:
    alice, bob = ClubClient(sock, member="alice"), ClubClient(sock, member="bob")
    await alice.connect()
    await bob.connect()
    stats = Stats()
    stop = False
    seeds = iter(range(0, 10**9, 2))

    async def lane() -> None:
        while not stop:
            await one_game(alice, bob, next(seeds), stats)

    idle_rss = rss_kb(pid)
    lanes = [asyncio.create_task(lane()) for _ in range(n)]
    await asyncio.sleep(warmup)
    loaded_rss = rss_kb(pid)
    stats.measuring = True
    began = time.perf_counter()
    await asyncio.sleep(seconds)
    stats.measuring = False
    elapsed = time.perf_counter() - began
    stop = True
    for task in lanes:
        task.cancel()
    await asyncio.gather(*lanes, return_exceptions=True)
    await alice.close()
    await bob.close()
    lat = sorted(stats.latencies) or [float("nan")]
    return {
        "n": n,
        "games_per_s": stats.finished / elapsed,
        "commands_per_s": stats.commands / elapsed,
        "p50_ms": 1000 * statistics.median(lat),
        "p99_ms": 1000 * lat[min(len(lat) - 1, int(0.99 * len(lat)))],
        "kb_per_game": (loaded_rss - idle_rss) / n,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, nargs="+", default=[10, 50, 100])
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    args = parser.parse_args()
    print(f"club server load, {os.cpu_count()} cores, Python {sys.version.split()[0]}")
    print(f"{'N':>5} {'games/s':>8} {'commands/s':>11} {'p50 ms':>7} {'p99 ms':>7} {'KB/game':>8}")
    for n in args.games:
        directory = Path(tempfile.mkdtemp(prefix="skb", dir="/tmp"))
        data_dir = directory / "club"
        try:
            members.add(data_dir, "alice", fake_key())
            members.add(data_dir, "bob", fake_key())
            env = dict(os.environ, XDG_RUNTIME_DIR=str(directory))
            server = subprocess.Popen(
                [sys.executable, "-m", "sekigahara_tui", "serve", "--data", str(data_dir)],
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
                cwd=Path(__file__).resolve().parent.parent,
            )
            while not (data_dir / "club.json").exists():
                if server.poll() is not None:
                    raise SystemExit(server.stderr.read().decode())
                time.sleep(0.05)
            result = asyncio.run(load(data_dir / "club.sock", server.pid, n, args.seconds, args.warmup))
            server.terminate()
            server.wait(timeout=30)
            print(
                f"{result['n']:>5} {result['games_per_s']:>8.2f} {result['commands_per_s']:>11.0f} "
                f"{result['p50_ms']:>7.1f} {result['p99_ms']:>7.1f} {result['kb_per_game']:>8.0f}",
                flush=True,
            )
        finally:
            shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
