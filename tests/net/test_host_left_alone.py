"""Issue 27, item 14: a host started by the menu's "two terminals"
(`host --stop-if-left-alone`) stops when the player who started it quits
before the other ever joined, and says so; it does not wait two hours. A real
host process and a real seat connection."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from net_helpers import sekigahara
from rules.sides import Side
from sekigahara_tui.net.client import Client


@pytest.fixture
def env(runtime_dir) -> dict[str, str]:
    return dict(os.environ, XDG_RUNTIME_DIR=str(runtime_dir))


def wait_until_hosting(host, game_dir: Path) -> None:
    deadline = time.monotonic() + 15
    while not (game_dir / "address.json").exists():
        assert host.poll() is None, host.stderr.read()
        assert time.monotonic() < deadline, "the host did not start"
        time.sleep(0.05)


async def sit_and_leave(game_dir: Path, side: Side) -> None:
    client = Client.for_game_dir(game_dir, side)
    task = asyncio.create_task(client.run())
    try:
        await client.wait_for(lambda c: c.view is not None, timeout=15)  # the seat is taken: a state came
    finally:
        await client.close()
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


def test_the_host_stops_when_its_starter_leaves_before_the_other_joined(tmp_path, env):
    game_dir = tmp_path / "game"
    host = sekigahara("host", str(game_dir), "--seed", "11", "--grace", "0.3", "--stop-if-left-alone", env=env)
    try:
        wait_until_hosting(host, game_dir)
        asyncio.run(sit_and_leave(game_dir, Side.TOKUGAWA))
        out, err = host.communicate(timeout=30)  # it stops by itself, not after the idle time (2 h)
    finally:
        if host.poll() is None:
            host.kill()
            host.wait()
    assert host.returncode == 0, err
    assert out.strip().splitlines()[-1] == "stopped: ishida never joined, and the player who started the game has gone"


def test_without_the_option_the_host_keeps_the_game_for_the_other_player(tmp_path, env):
    game_dir = tmp_path / "game"
    host = sekigahara("host", str(game_dir), "--seed", "11", "--grace", "0.3", env=env)
    try:
        wait_until_hosting(host, game_dir)
        asyncio.run(sit_and_leave(game_dir, Side.TOKUGAWA))
        asyncio.run(sit_and_leave(game_dir, Side.TOKUGAWA))  # and it comes back: the game is still there
    finally:
        host.terminate()
        out, _ = host.communicate(timeout=30)
    assert "never joined" not in out and "resume with" in out
