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
# Then PROTOCOL_VERSION 2 (a version-1 client cannot read WeekEnded, so it is
# refused at its hello): the welcome line's "protocol" is the only other change.
# Issue 25: a stack move's BlocksMoved and OpponentMovedBlocks say where it began
# ("source", 7.3), and PROTOCOL_VERSION 3; deleting every ,"source":... and reading
# "protocol":2 for 3 gives back the bytes pinned before, byte for byte.
PINNED = {
    "club/ishida": "e9083ef9e1fa6b8b78275c14e0ee23eb739018aaff5a72a3340bd76ebb4e1353",
    "club/spectator": "da7641449dd1dd102f0c7134ee553422ade47ed4dbd7036e5e55aeca3c6ee71d",
    "club/tokugawa": "1f7ddadf610936184f50e939431e09b7c657f1eae17c8fbf26e439b6c0822810",
    "host/ishida": "2c77b5e7c08dda628082c25736551f7c5841d7c63514c2d59569aa3c4e4010cb",
    "host/tokugawa": "de93fb2fe88a7caad7d635d5b90f748c28b01c4f1fe925a3f5bb2eb178dcbea1",
}


def test_the_bytes_each_seat_and_a_spectator_receive_are_unchanged():
    # Its own process: a frozenset's JSON list follows the string hashes, so
    # the hash seed is fixed there (and only there).
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    run = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, env=env, timeout=150)
    assert run.returncode == 0, run.stderr[-2000:]
    digests = {name: digest for name, digest, *_ in (line.split() for line in run.stdout.splitlines())}
    assert digests == PINNED
