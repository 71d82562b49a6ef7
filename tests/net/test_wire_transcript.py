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
PINNED = {
    "club/ishida": "c250ae6509fa8316ab4aa9df5b02cf31e521acc23c18efa2dbcf7bc2b5d9e422",
    "club/spectator": "31020fad53dedaf8b0eb069252cbab8fc90051287d340ee9b94185cd3f83f7a8",
    "club/tokugawa": "d708134fe907f106076b4041bca90bf15a38f3b0c76b8e8bf4eb2079d2241ff9",
    "host/ishida": "d979a09ad0772011804c3cd6aa031ef953501ed34d81003eddf79483aaafd6f5",
    "host/tokugawa": "adbcce2e1649b080eae320ec17714087499c19593aaa03b1867b9677b75fa2cd",
}


def test_the_bytes_each_seat_and_a_spectator_receive_are_unchanged():
    # Its own process: a frozenset's JSON list follows the string hashes, so
    # the hash seed is fixed there (and only there).
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    run = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, env=env, timeout=150)
    assert run.returncode == 0, run.stderr[-2000:]
    digests = {name: digest for name, digest, *_ in (line.split() for line in run.stdout.splitlines())}
    assert digests == PINNED
