"""The wire bytes of a seeded two-terminal game and of a club game with a
spectator are pinned (issue 22: the hosting layer is reshaped without
changing a byte it sends). Like the replay hashes, these detect a change,
not a fault: a deliberate change to what the host sends updates them, and
says why in its commit. `python3 tests/wire_transcript.py --dump DIR` writes
the transcripts out, to diff against the previous commit's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "wire_transcript.py"

PINNED = {
    "club/ishida": "6bbafd4fa80265422c94bcffea8ea34daf84fd0dab94738a2acb768c26ec974d",
    "club/spectator": "4377aa177ff38162983f6a067c3e6a65767ac25170c8ce4164714a732293b51f",
    "club/tokugawa": "9539e99a5b05d4b14e8368f7ff137e0e426e49069497dda5674570928df606b3",
    "host/ishida": "1d7f4605fedac23b31c683ea153f000d4c2dae7765565514df38a4507d25fedd",
    "host/tokugawa": "ee370fb6b9a5cb7db34743a0759a79657539b0ec9bf6b31c0077d33a225fb27b",
}


def test_the_bytes_each_seat_and_a_spectator_receive_are_unchanged():
    # Its own process: a frozenset's JSON list follows the string hashes, so
    # the hash seed is fixed there (and only there).
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    run = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, env=env, timeout=150)
    assert run.returncode == 0, run.stderr[-2000:]
    digests = {name: digest for name, digest, *_ in (line.split() for line in run.stdout.splitlines())}
    assert digests == PINNED
