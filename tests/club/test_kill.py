"""`kill -9` of a real `sekigahara serve` under load (many bot games over the
socket): after a restart every game resumes, no acknowledged command is lost
or doubled, and SQLite's integrity check is ok."""

from __future__ import annotations

import asyncio
import signal
import sqlite3
import time
from collections import Counter

import pytest

from club_helpers import AckingBot, fake_key, reap, start_serve, stop_serve  # noqa: F401 - other tests import them from here
from rules.infra.record import replay
from rules.sides import Side
from sekigahara_tui.hosting import members
from sekigahara_tui.club.client import ClubClient
from sekigahara_tui.hosting.store import Store, record_of

TIMEOUT = 60.0


async def until(predicate, what: str, timeout: float = TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.05)


async def kill_under_load(data_dir, games: int, to_the_end: bool) -> None:
    members.add(data_dir, "alice", fake_key())
    members.add(data_dir, "bob", fake_key())
    server = start_serve(data_dir)
    processes = [server]
    try:
        sock = (data_dir / "club.sock")
        alice, bob = ClubClient(sock, member="alice"), ClubClient(sock, member="bob")
        acked: set = set()
        clients, tasks = [], []
        for i in range(games):
            made = await alice.new_game(Side.ISHIDA, "open")
            joined = await bob.join(made.game)
            for club, entry, seed in ((alice, made, 2 * i), (bob, joined, 2 * i + 1)):
                client = club.seat_client(entry, AckingBot(seed, acked), stop_when_over=True)
                clients.append(client)
                tasks.append(asyncio.create_task(client.run()))
        await alice.close()
        await bob.close()
        ishidas = clients[::2]
        await until(lambda: all((c.version or 0) >= 40 for c in ishidas), "some play in every game")

        server.send_signal(signal.SIGKILL)
        server.wait(timeout=10)
        before = {c.game: c.version for c in ishidas}
        acked_before = set(acked)
        server = start_serve(data_dir)
        processes.append(server)

        if to_the_end:
            await asyncio.wait_for(asyncio.gather(*tasks), TIMEOUT * 4)
            assert all(c.over for c in clients)
        else:
            await until(lambda: all((c.version or 0) >= before[c.game] + 20 or c.over for c in ishidas), "every game resumed")
            for client in clients:
                await client.close()
            await asyncio.gather(*tasks)
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=20) == 0, server.stderr.read()
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait(timeout=10)

    store = Store.open(data_dir / members.STORE_FILE, read_only=True)
    try:
        stored: Counter = Counter()
        for game in store.game_ids():
            info, actions = store.load_game(game)
            state = replay(record_of(info, actions))  # the record replays
            assert len(actions) >= before[game] + (0 if state.is_over else 20), (game, len(actions), before[game])
            if to_the_end:
                assert state.is_over and info.status == "over"
            for action in actions:
                if action.client_id is not None:
                    stored[(game, action.side, action.client_id)] += 1
        assert acked_before <= set(stored), "an acknowledged command was lost"
        assert acked <= set(stored), "an acknowledged command was lost"
        assert max(stored.values()) == 1  # none doubled
    finally:
        store.close()
    db = sqlite3.connect(data_dir / members.STORE_FILE)
    assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    db.close()


async def test_kill_9_under_load_then_every_game_resumes(data_dir):
    await kill_under_load(data_dir, games=4, to_the_end=False)


@pytest.mark.slow
async def test_kill_9_under_heavy_load_then_every_game_plays_to_its_end(data_dir):
    await kill_under_load(data_dir, games=16, to_the_end=True)
