"""The club server's work a command in process, without sockets or the store
(issue 23's CPU a command): random games played through the host's own path,
each submit as a line decoded, found in the legal list, proposed, accepted,
and both seats sent their new state (views made and encoded, written to a
writer that only counts bytes).

    python3 benchmarks/host_path.py --games 5 --passes 3       # us a command (best pass)
    valgrind --tool=callgrind --callgrind-out-file=/dev/null python3 benchmarks/host_path.py --games 3 --passes 1
    # ... and --passes 2: the difference over the commands of one pass is the
    # instructions a command, a figure other load on the machine does not change

The bytes written are printed: a change that keeps the wire as it was keeps them.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import random
import sys
import time
from pathlib import Path

# This checkout's code, unless PYTHONPATH names another's src (a before figure).
if "PYTHONPATH" not in os.environ:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from rules.sides import Side  # noqa: E402
from sekigahara_tui.hosting.chairs import listed, send_state  # noqa: E402
from sekigahara_tui.hosting.connections import Connection  # noqa: E402
from sekigahara_tui.hosting.games import Change, HostedGame  # noqa: E402
from sekigahara_tui.hosting.host import GameHost  # noqa: E402
from sekigahara_tui.hosting.seats import SeatConnections  # noqa: E402
from sekigahara_tui.hosting.store import Action, GameInfo  # noqa: E402
from sekigahara_tui.net.protocol import decode_client_message  # noqa: E402
from sekigahara_tui.net.state_encoding import notation  # noqa: E402


# An older checkout's GameHost.accept (for a before figure) takes no text.
ACCEPTS_TEXT = "text" in inspect.signature(GameHost.accept).parameters


class CountingWriter:
    """What a Connection writes to: counts the bytes."""

    class _Transport:
        def get_write_buffer_size(self) -> int:
            return 0

    def __init__(self) -> None:
        self.transport = self._Transport()
        self.bytes = 0

    def is_closing(self) -> bool:
        return False

    def write(self, data: bytes) -> None:
        self.bytes += len(data)


def play(seed: int) -> tuple[int, int]:
    """One random game through the host's path: (commands, bytes written)."""
    host = GameHost.from_record(GameHost.new(seed).record, keep_states=False)
    game = HostedGame(GameInfo(f"g{seed}", seed, "1", None, 0.0, "playing", None), host, [], {}, {})
    seats = {side: Connection(CountingWriter(), None, 0.0) for side in (Side.ISHIDA, Side.TOKUGAWA)}  # type: ignore[arg-type]
    game.connections.update(seats)
    for side, connection in seats.items():
        send_state(connection, game, side, None, None)
    chooser, told, commands = random.Random(seed), SeatConnections(), 0
    while not host.is_over:
        legal = {side: [notation(c) for c in game.chairs[side].view.legal] for side in seats}
        side = chooser.choice(sorted(s for s in legal if legal[s]))
        line = json.dumps({"type": "submit", "id": f"m{commands}", "version": game.version, "command": chooser.choice(legal[side])})
        message = decode_client_message(line.encode())
        assert not game.applied(side, message.id, message.version)
        step = host.propose_listed(listed(game, side, message.command))
        action = Action("command", side, message.command, message.id, 0.0)
        game.actions.append(action)
        host.accept(step, message.command) if ACCEPTS_TEXT else host.accept(step)
        told.game_changed(game, Change(action, seats[side]))
        commands += 1
    return commands, sum(connection.writer.bytes for connection in seats.values())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--passes", type=int, default=3)
    args = parser.parse_args()
    best = float("inf")
    for _ in range(args.passes):
        began = time.perf_counter()
        results = [play(seed) for seed in range(args.games)]
        best = min(best, time.perf_counter() - began)
    commands = sum(n for n, _ in results)
    print(f"{commands} commands a pass, {sum(b for _, b in results)} bytes written; best pass {1e6 * best / commands:.1f} us a command")


if __name__ == "__main__":
    main()
