"""kill -9 of the host in the middle of a bot game: restart it, both bots
reconnect by themselves, the game finishes, and the store holds every
acknowledged command exactly once.

The host is a real `sekigahara host DIR` process, killed with SIGKILL (no
handler runs, nothing is flushed but what SQLite committed) twice, at two
points of one game, and started again on the same DIR each time. The bots are
Clients in this process, over the host's real Unix socket; each notes every
acknowledgement it hears (a state replying to one of its message ids). The
store is polled read-only, as `sekigahara export` reads it.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from net_helpers import sekigahara
from rules.infra.record import record_from_json, replay
from rules.sides import BOTH_SIDES
from sekigahara_tui.net.bot import RandomBot
from sekigahara_tui.net.client import Client
from sekigahara_tui.net.locations import LocationError, read_address_file


@pytest.fixture
def env(runtime_dir) -> dict[str, str]:
    return dict(os.environ, XDG_RUNTIME_DIR=str(runtime_dir))


class AcknowledgedBot(RandomBot):
    """A random bot that remembers what it sent and which of it the host
    acknowledged: id -> (command, the version of the acknowledging state)."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.sent: dict[str, str] = {}
        self.acknowledged: dict[str, tuple[str, int]] = {}
        self.connections = 0

    def decide(self, client: Client) -> None:
        before = set(client.pending)
        super().decide(client)
        for message_id in set(client.pending) - before:
            self.sent[message_id] = client._pending[message_id].command

    def on_state(self, client: Client) -> None:
        if client.reply_to in self.sent and client.reply_to not in self.acknowledged:
            self.acknowledged[client.reply_to] = (self.sent[client.reply_to], client.version)
        super().on_state(client)

    def on_connection(self, client: Client, status: str) -> None:
        if status == "connected":
            self.connections += 1


def start_host(game_dir: Path, env: dict[str, str], seed: int) -> subprocess.Popen:
    """`sekigahara host DIR`, waited for until it listens (its address file
    names its pid: a dead host's file is not taken for the new one's)."""
    host = sekigahara("host", str(game_dir), "--seed", str(seed), "--grace", "0.2", env=env)
    deadline = time.monotonic() + 20
    while True:
        if host.poll() is not None:
            raise AssertionError(f"the host exited {host.returncode}: {host.stderr.read()}")
        try:
            if read_address_file(game_dir).pid == host.pid:
                return host
        except LocationError:
            pass  # not written yet
        assert time.monotonic() < deadline, "the host did not start"
        time.sleep(0.02)


def stored_actions(game_dir: Path) -> list[tuple[int, str, str, str | None, str | None]]:
    """(seq, kind, side, text, client_id) of every action, read-only."""
    db = sqlite3.connect(f"{(game_dir / 'game.sqlite').resolve().as_uri()}?mode=ro", uri=True)
    try:
        return db.execute("SELECT seq, kind, side, text, client_id FROM actions ORDER BY seq").fetchall()
    finally:
        db.close()


async def rows_reach(game_dir: Path, count: int, bots: asyncio.Future, timeout: float = 60) -> int | None:
    """The number of rows once there are `count`; None if the game ends first."""
    async with asyncio.timeout(timeout):
        while not bots.done():
            rows = len(await asyncio.to_thread(stored_actions, game_dir))
            if rows >= count:
                return rows
            await asyncio.sleep(0.005)
    return None


def kill(host: subprocess.Popen) -> str:
    host.send_signal(signal.SIGKILL)
    _, err = host.communicate(timeout=10)
    assert host.returncode == -signal.SIGKILL
    return err


@pytest.mark.parametrize("kill_at", [(40, 150, 250), pytest.param((10, 60, 100, 160, 220, 300, 380, 450), marks=pytest.mark.slow)])
async def test_the_host_killed_twice_mid_game_loses_no_acknowledged_command(tmp_path, env, kill_at):
    game_dir = tmp_path / "game"
    host = start_host(game_dir, env, seed=23)
    errors: list[str] = []
    bots = {side: AcknowledgedBot(seed) for side, seed in zip(BOTH_SIDES, (31, 32))}
    clients = {side: Client.for_game_dir(game_dir, side, bots[side], stop_when_over=True) for side in BOTH_SIDES}
    playing = asyncio.ensure_future(asyncio.gather(*(client.run() for client in clients.values())))
    killed_at = []
    try:
        for rows in kill_at:
            reached = await rows_reach(game_dir, rows, playing)
            if reached is None:
                break  # a short game
            killed_at.append(reached)
            errors.append(kill(host))
            host = start_host(game_dir, env, seed=23)  # the same command resumes the game
        await asyncio.wait_for(playing, 90)
        out, err = host.communicate(timeout=30)  # it stops by itself: over, and both left
        errors.append(err)
    finally:
        playing.cancel()
        if host.poll() is None:
            host.kill()
    assert host.returncode == 0, err
    assert all("Traceback" not in text for text in errors), errors
    assert "resumed at version" in out and "game over:" in out

    # Both bots saw the end, and each reconnected after each kill.
    assert all(client.over for client in clients.values())
    assert {client.result for client in clients.values()} == {out.split("game over: ", 1)[1].strip()}
    assert len(killed_at) >= 2, f"the game ended after {killed_at} rows"
    assert all(bot.connections == 1 + len(killed_at) for bot in bots.values()), [bot.connections for bot in bots.values()]

    # Every acknowledged command is in the store exactly once, as sent, at the
    # version its acknowledgement named (or before it: a resend is answered
    # with the current state); and nothing is stored that a bot did not send.
    actions = stored_actions(game_dir)
    for side, bot in bots.items():
        rows = {client_id: (seq, text) for seq, _, stored_side, text, client_id in actions if stored_side == side.value}
        ids = [client_id for _, _, stored_side, _, client_id in actions if stored_side == side.value]
        assert len(ids) == len(set(ids)) == len(rows)
        assert set(ids) <= set(bot.sent), "a stored command no bot sent"
        assert bot.acknowledged and set(bot.acknowledged) <= set(ids)
        for message_id, (text, version) in bot.acknowledged.items():
            seq, stored = rows[message_id]
            assert stored == text and seq <= version, (message_id, text, version, seq, stored)
        # every command the host applied was acknowledged (a kill may have
        # eaten the answer, but the bot's resend was answered then)
        assert set(ids) == set(bot.acknowledged)

    # The record replays to a finished game, and it is the actions in order:
    # random bots never undo, so every stored command stands.
    done = subprocess.run([sys.executable, "-m", "sekigahara_tui", "export", str(game_dir)], capture_output=True, text=True, env=env, timeout=30)
    assert done.returncode == 0, done.stderr
    record = record_from_json(done.stdout)
    assert replay(record).is_over
    assert [seq for seq, *_ in actions] == list(range(1, len(actions) + 1))
    assert all(kind == "command" for _, kind, *_ in actions)
    assert list(record.commands) == [text for _, _, _, text, _ in actions]
    assert killed_at == sorted(killed_at) and killed_at[-1] <= len(actions)

    seq_of = {client_id: seq for seq, _, _, _, client_id in actions}
    late = sum(version > seq_of[i] for bot in bots.values() for i, (_, version) in bot.acknowledged.items())
    print(f"\nkilled at {killed_at} rows of {len(actions)}; {late} acknowledged by a resend's answer;"
          f" connections {[bot.connections for bot in bots.values()]}")
    db = sqlite3.connect(game_dir / "game.sqlite")
    try:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert db.execute("SELECT status, result FROM games").fetchone()[0] == "over"
    finally:
        db.close()
