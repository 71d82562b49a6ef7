"""The wire bytes of a seeded two-terminal game and of a club game with a
spectator are pinned (issue 22: the hosting layer is reshaped without
changing a byte it sends). Like the replay hashes, these detect a change,
not a fault: a deliberate change to what the host sends updates them, and
says why in its commit. `python3 tests/wire_transcript.py --dump DIR` writes
the transcripts out, to diff against the previous commit's."""

from __future__ import annotations

import os
import random
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
# Sets of names (the pending combats, a stack move's sources and segments) are
# written sorted (net/protocol.py), no longer in the order of the string hashes:
# sorting every such list in the transcripts pinned before gives these, byte
# for byte, and they no longer depend on the hash seed.
PINNED = {
    "club/ishida": "612bcd425e347fac039634311d94afdfeb404f8e9461cb82486467049dc6afb4",
    "club/spectator": "f5c4a5530d468ab54ca9f36a2f3dc5c1f578cf5075c6b4aa5830671ee5b5ba26",
    "club/tokugawa": "104537c3800fd1743db4b78714dedd2a57d4c47b26e961be367a30511f666d7e",
    "host/ishida": "e3c2a387b8cb3a5de66e0327e910a83e83a55f386f774c5609775383ce696131",
    "host/tokugawa": "2df7c034877a14a6782d3b58f5bae18b7cb9e324b52ca22387c38123eb96b91d",
}


def test_the_bytes_each_seat_and_a_spectator_receive_are_unchanged():
    # Its own process, under a hash seed of its own: the bytes must not depend on it.
    env = {**os.environ, "PYTHONHASHSEED": str(random.randrange(1, 2**32))}
    run = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, env=env, timeout=150)
    assert run.returncode == 0, run.stderr[-2000:]
    digests = {name: digest for name, digest, *_ in (line.split() for line in run.stdout.splitlines())}
    assert digests == PINNED
