"""Sizes of the network protocol's lines: prints measured figures, never asserts.

Plays random games (each side picks uniformly among its legal commands, the
same seeds every run) through a GameHost as the network host holds one
(keep_states=False), and after every step encodes, for each seat, the
`state` the host sends it (hosting/game_server.py, _send_state: that seat's view
through a ViewEncoder, the step's events, reply_to for the submitter) with
protocol.encode_state, byte for byte as the host does. Prints:

- the largest single-step `state` (a seat that held the step before), with
  the number of legal commands its view lists; per game, median and max;
- the largest whole-game `state` (a seat that reconnects holding nothing:
  every event from step 0, as at any step of the game), with its step
  count; per game, median and max; and, at the largest's bytes per step,
  what a game of rules.infra.record.MAX_COMMANDS commands would send;
- steps per game, median and max;
- the game records (rules.infra.record, as a save holds them): commands per
  game, the longest command, the largest record, against the record caps;
- a client's lines: a hello as `sekigahara host` hands out seats (a 12-
  character game id, a 32-character token) and the longest submit allowed
  (the longest message id and MAX_COMMAND_TEXT characters of command).

The whole-game size at each step is summed from the steps' encoded events;
at each game's end it is checked against a real encoding (mismatches are
printed, if any).

Usage: python3 benchmarks/protocol.py [--games N] [--seed S]
"""

from __future__ import annotations

import argparse
import random
import secrets
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from rules.infra.record import MAX_COMMAND_LENGTH, MAX_COMMANDS, MAX_RECORD_BYTES, new_record, record_to_json  # noqa: E402
from rules.sides import BOTH_SIDES  # noqa: E402
from sekigahara_tui.hosting.host import GameHost  # noqa: E402
from sekigahara_tui.net.protocol import (  # noqa: E402
    MAX_COMMAND_TEXT,
    MAX_HOST_LINE,
    MAX_ID_LENGTH,
    PROTOCOL_VERSION,
    Hello,
    State,
    Submit,
    encode,
)
from sekigahara_tui.net.state_encoding import ViewEncoder, encode_events, encode_state  # noqa: E402


class Game:
    """The line sizes of one random game."""

    def __init__(self, seed: int) -> None:
        chooser = random.Random(f"protocol-bench/{seed}")
        host = GameHost.from_record(new_record(seed), keep_states=False)
        encoders = {side: ViewEncoder() for side in BOTH_SIDES}
        # Per seat: the length of each step's events as they sit inside the
        # whole game's events list ("[" + ",".join(steps) + "]").
        step_lengths: dict = {side: [] for side in BOTH_SIDES}
        self.single = (0, 0)  # (bytes, legal commands)
        self.whole = (0, 0)  # (bytes, steps)
        self.mismatches = 0
        version = 0
        submitter, reply_to = None, None
        while True:
            steps = host.step_count
            for side in BOTH_SIDES:
                view = host.view(side)
                view_json = encoders[side].encode(view)
                events = tuple(tuple(step) for step in host.step_events(side, steps - 1))
                events_json = encode_events(events)
                step_lengths[side].append(len(events_json) - 2)
                message = State(version, steps, reply_to if side is submitter else None, view,
                                steps - 1, events, host.why_no_undo(side), host.is_over)
                size = len(encode_state(message, view_json, events_json))
                self.single = max(self.single, (size, len(view.legal)))
                # A seat holding nothing: the same state from step 0, no reply_to.
                bare = State(version, steps, None, view, 0, (), host.why_no_undo(side), host.is_over)
                whole_events = 2 + sum(step_lengths[side]) + len(step_lengths[side]) - 1
                whole = len(encode_state(bare, view_json, "[]")) - 2 + whole_events
                self.whole = max(self.whole, (whole, steps))
                if host.is_over:
                    full = State(version, steps, None, view, 0, tuple(tuple(s) for s in host.step_events(side, 0)),
                                 host.why_no_undo(side), True)
                    self.mismatches += len(encode_state(full, view_json)) != whole
            if host.is_over:
                break
            state = host.state
            submitter = chooser.choice(sorted(state.decision.sides))
            command = chooser.choice(host.view(submitter).legal)
            host.accept(host.propose_listed(command))
            version += 1
            reply_to = secrets.token_urlsafe(9)  # as net/client.py's ids
        self.steps = host.step_count
        self.commands = len(host.record.commands)
        self.longest_command = max(map(len, host.record.commands))
        self.record_bytes = len(record_to_json(host.record).encode())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    seeds = range(args.seed, args.seed + args.games)
    started = time.perf_counter()
    games = [Game(seed) for seed in seeds]
    seconds = time.perf_counter() - started

    print(f"games: {args.games} random games (seeds {seeds.start}..{seeds.stop - 1}), "
          f"every state both seats received, encoded as the host encodes it ({seconds:.0f} s)")
    single = max(game.single for game in games)
    print(f"largest single-step state: {single[0]:,} bytes ({single[1]} legal commands); "
          f"per game median {statistics.median(g.single[0] for g in games):,.0f}")
    whole = max(game.whole for game in games)
    print(f"largest whole-game state (a seat holding nothing): {whole[0]:,} bytes ({whole[1]} steps); "
          f"per game median {statistics.median(g.whole[0] for g in games):,.0f}")
    longest = whole[0] / whole[1] * MAX_COMMANDS
    print(f"at {whole[0] / whole[1]:,.0f} bytes per step, a game of MAX_COMMANDS ({MAX_COMMANDS:,}) steps: "
          f"{longest / 1e6:.2f} MB ({longest / whole[0]:.0f} times the largest; MAX_HOST_LINE is "
          f"{MAX_HOST_LINE / 2**20:.0f} MiB)")
    steps = [game.steps for game in games]
    print(f"steps per game: median {statistics.median(steps):.0f}, max {max(steps)}")
    print(f"records: commands per game median {statistics.median(g.commands for g in games):.0f}, "
          f"max {max(g.commands for g in games)} (cap {MAX_COMMANDS:,}); longest command "
          f"{max(g.longest_command for g in games)} characters (cap {MAX_COMMAND_LENGTH}); largest record "
          f"{max(g.record_bytes for g in games) / 1024:.0f} KB (cap {MAX_RECORD_BYTES / 2**20:.0f} MiB)")
    mismatches = sum(game.mismatches for game in games)
    if mismatches:
        print(f"WARNING: {mismatches} whole-game sizes differ from a real encoding")
    hello = encode(Hello(PROTOCOL_VERSION, secrets.token_urlsafe(9), BOTH_SIDES[0], secrets.token_urlsafe(24), 700))
    submit = encode(Submit("x" * MAX_ID_LENGTH, 20_000, "x" * MAX_COMMAND_TEXT))
    print(f"client lines: a hello {len(hello)} bytes (12-character game id, 32-character token, seen 700); "
          f"the longest submit {len(submit)} bytes ({MAX_ID_LENGTH}-character id, {MAX_COMMAND_TEXT}-character command)")


if __name__ == "__main__":
    main()
