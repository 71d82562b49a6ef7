"""Starting a host from the app: "two terminals" from the main menu.

The host runs as its own process (`sekigahara host DIR`), detached from this
terminal, so the game outlives the app that started it; it stops by itself
when the game is over and both players have gone, when the player who started
it quits before the other joined (`--stop-if-left-alone`), or after a long
idle time.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import time
from pathlib import Path

from sekigahara_tui.net.client import address_of

HOST_START_TIMEOUT = 10.0  # seconds for a new host to open its socket


def new_game_dir(games_dir: Path) -> Path:
    """A fresh directory for one game, named by the time it began."""
    games_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for n in range(100):
        path = games_dir / (stamp if n == 0 else f"{stamp}-{n}")
        try:
            path.mkdir(mode=0o700)
        except FileExistsError:
            continue
        return path
    raise OSError(f"too many games started at {stamp}")


def start_host(game_dir: Path, seed: int) -> subprocess.Popen:
    """`sekigahara host DIR --seed N` in the background, its output in DIR/host.log."""
    with open(game_dir / "host.log", "ab") as log:
        return subprocess.Popen(
            [sys.executable, "-m", "sekigahara_tui", "host", str(game_dir), "--seed", str(seed), "--stop-if-left-alone"],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            start_new_session=True,  # not killed with this terminal's session
        )


async def wait_until_hosted(game_dir: Path, process: subprocess.Popen, timeout: float = HOST_START_TIMEOUT) -> str | None:
    """Wait for the host to say where it listens; None when it does, else why not."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return f"the host stopped (status {process.returncode}); see {game_dir / 'host.log'}"
        try:
            address_of(game_dir)
        except (OSError, ValueError):
            await asyncio.sleep(0.05)
            continue
        return None
    return f"the host did not start within {timeout:.0f} s; see {game_dir / 'host.log'}"
