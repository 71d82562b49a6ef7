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

# Issue 22, item 5: every week now ends with a public WeekEnded event (the standing,
# 6.4, 2.2), one per week in each seat's and the spectator's events; deleting those
# entries from these transcripts gives back the bytes pinned before, byte for byte.
PINNED = {
    "club/ishida": "11a85b44617167e32f4fddc31fecaa405e0666fbbf6b21eec8ff6900d334a58b",
    "club/spectator": "4f6144cfd31c89698ea12e2ca0e2c0bcf5ded5501c64255bd34ee7f262998a5b",
    "club/tokugawa": "00782e4be4ed8bb2c9e9775694890c9d4860e371a60edfbe309f8e7bcaa98571",
    "host/ishida": "b39e5f377b18ea2035d1e0dd2b0e1a6d2c950a8455b7e9c6fe74ffc77168c766",
    "host/tokugawa": "b54ffc95bcb6f75e9dc7b97e88ecc0e6b8b0e493384d20cc4f2c88e18481939f",
}


def test_the_bytes_each_seat_and_a_spectator_receive_are_unchanged():
    # Its own process: a frozenset's JSON list follows the string hashes, so
    # the hash seed is fixed there (and only there).
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    run = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, env=env, timeout=150)
    assert run.returncode == 0, run.stderr[-2000:]
    digests = {name: digest for name, digest, *_ in (line.split() for line in run.stdout.splitlines())}
    assert digests == PINNED
