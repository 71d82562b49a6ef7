"""PostgreSQL's writes per second as the club writes (issue 28, for docs/scaling.md).

Appends actions through the club's own store (hosting/store.py) to games of a
new database, each action committed and flushed before the next is counted
(synchronous_commit on, the default, as the club runs it):

- single: one action per transaction (Store.append), from 1 and from
  --threads writers at once (each its own connection, its own games);
- group: --batch actions per transaction (Store.append_many, as the group
  commit writes what waited while it wrote), one writer;
each with the lobby's NOTIFY triggers (hosting/lobby_sync.py, as a club on
PostgreSQL runs) and, for single, without them, to show what they cost.
The same on SQLite (a file in a temporary directory, WAL, synchronous=FULL)
with one writer, as the reference. Prints actions/s, transactions/s and the p50/p99 time of
one commit.

    python3 benchmarks/pg_writes.py                     # a temporary server (tests/pg_server.py)
    python3 benchmarks/pg_writes.py --store postgresql://USER@HOST/DB --seconds 10

Without --store it starts its own server in a temporary directory from
Debian's binaries (as the tests do): fsync on, everything else the defaults.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]

from rules.sides import Side  # noqa: E402
from sekigahara_tui.hosting.database import is_postgresql  # noqa: E402
from sekigahara_tui.hosting.lobby_sync import make_triggers  # noqa: E402
from sekigahara_tui.hosting.store import Action, Store  # noqa: E402

GAMES_PER_WRITER = 20


def new_location(args, kind: str, n: int, server) -> str | Path:
    if kind == "sqlite":
        return Path(tempfile.mkdtemp(prefix="pg-writes-")) / "club.sqlite"
    if server is not None:
        return server.new_database()
    import psycopg  # a new database next to the one given: every run starts empty
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(args.store)
    name = f"pg_writes_{int(time.time())}_{n}"
    with psycopg.connect(args.store, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    return urlunsplit(parts._replace(path=f"/{name}"))


def writer(location, prefix: str, seconds: float, batch: int, latencies: list[float], counts: list[int]) -> None:
    """Appends to its own games, round robin, for `seconds`; a transaction at a time."""
    store = Store.open(location)
    try:
        games = [f"{prefix}-{n}" for n in range(GAMES_PER_WRITER)]
        for game in games:
            store.create_game(game, 1, "v1", players={Side.ISHIDA: "alice", Side.TOKUGAWA: "bob"})
        versions = dict.fromkeys(games, 0)
        n = 0
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            rows = []
            for _ in range(batch):
                game = games[n % len(games)]
                n += 1
                rows.append((game, Action("command", Side.ISHIDA, "ishida: pass", f"c{n}", time.time()), versions[game]))
                versions[game] += 1  # a game twice in one batch: its second row is the next version
            start = time.perf_counter()
            if batch == 1:
                store.append(rows[0][0], rows[0][1], rows[0][2])
            else:
                assert all(error is None for error in store.append_many(rows))
            latencies.append(time.perf_counter() - start)
            counts.append(batch)
    finally:
        store.close()


def run(location, threads: int, batch: int, seconds: float) -> dict:
    latencies: list[float] = []
    counts: list[int] = []
    workers = [threading.Thread(target=writer, args=(location, f"w{t}", seconds, batch, latencies, counts)) for t in range(threads)]
    start = time.perf_counter()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    elapsed = time.perf_counter() - start
    ordered = sorted(latencies)
    return {
        "actions_per_s": sum(counts) / elapsed,
        "transactions_per_s": len(latencies) / elapsed,
        "p50_ms": statistics.median(ordered) * 1000 if ordered else float("nan"),
        "p99_ms": ordered[int(len(ordered) * 0.99)] * 1000 if ordered else float("nan"),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", help="a PostgreSQL server's URL (a new database is made on it for each run); default: a temporary server")
    parser.add_argument("--seconds", type=float, default=5.0, help="each run's length")
    parser.add_argument("--threads", type=int, default=4, help="writers at once, in the concurrent single run")
    parser.add_argument("--batch", type=int, nargs="+", default=[10, 50], help="actions per transaction, in the group runs")
    args = parser.parse_args()
    if args.store is not None and not is_postgresql(args.store):
        parser.error("--store takes a postgresql:// URL")
    server = None
    if args.store is None:
        from pg_server import PostgresServer, postgresql_bin

        if postgresql_bin() is None:
            print("no PostgreSQL installed (apt-get install postgresql), and no --store given", file=sys.stderr)
            return 1
        server = PostgresServer()
    runs = [("single", 1, 1, True), ("single, no NOTIFY triggers", 1, 1, False), ("single", args.threads, 1, True)]
    runs += [("group", 1, batch, True) for batch in args.batch]
    print("load average at the start: %.1f %.1f %.1f (a shared machine: commits wait on the disk and the cores)" % os.getloadavg())
    try:
        print(f"{'store':>10} {'run':<28} {'writers':>7} {'batch':>5} {'actions/s':>10} {'commits/s':>10} {'p50 ms':>7} {'p99 ms':>7}")
        for kind in ("postgresql", "sqlite"):
            for n, (name, threads, batch, triggers) in enumerate(runs):
                if kind == "sqlite" and (not triggers or threads > 1):
                    continue  # no triggers there; one writer (the club's group commit), concurrent ones only wait
                location = new_location(args, kind, n, server)
                Store.open(location).close()
                if kind == "postgresql" and triggers:
                    make_triggers(location)
                result = run(location, threads, batch, args.seconds)
                print(f"{kind:>10} {name:<28} {threads:>7} {batch:>5} {result['actions_per_s']:>10.0f} "
                      f"{result['transactions_per_s']:>10.0f} {result['p50_ms']:>7.2f} {result['p99_ms']:>7.2f}", flush=True)
        print("load average at the end: %.1f %.1f %.1f" % os.getloadavg())
    finally:
        if server is not None:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
