"""Games between players that choose uniformly among the legal commands.

Used by `sekigahara selfplay`, the fuzz test and the benchmarks.
"""

from __future__ import annotations

import random
import time
from typing import Callable

from attrs import frozen

from rules.engine import apply, apply_trusted, legal_commands, start_game
from rules.infra.record import GameRecord, new_record
from rules.state import GameState

# Week 7 ends a game; no game reaches this many decisions unless it is stuck.
MAX_DECISIONS = 20_000


class DeadEnd(AssertionError):
    """The game is not over but nobody has a legal command."""


@frozen
class SelfPlayResult:
    seed: int
    state: GameState
    record: GameRecord
    decisions: int
    milliseconds: float


def random_game(
    seed: int,
    on_step: Callable[[GameState, object, GameState, tuple], None] | None = None,
    max_decisions: int = MAX_DECISIONS,
    avoid: Callable[[GameState, object], bool] | None = None,
    trusted: bool = False,
) -> SelfPlayResult:
    """Play one game; `on_step(before, command, after, events)` sees every step.
    Commands for which `avoid(state, command)` is true are never chosen while
    another is legal (tests use it for games that stay clear of combat).
    `trusted` applies the chosen commands without checking them again
    (engine.apply_trusted): the same game, faster. By default every command
    goes through `apply`'s checks, so the fuzz tests also check that each
    listed command is accepted."""
    started = time.perf_counter()
    chooser = random.Random(f"selfplay/{seed}")
    state, _ = start_game(seed)
    record = new_record(seed)
    decisions = 0
    while not state.is_over:
        if decisions >= max_decisions:
            raise DeadEnd(f"seed {seed}: no end after {max_decisions} decisions")
        side = chooser.choice(sorted(state.decision.sides))
        options = legal_commands(state, side)
        if not options:
            raise DeadEnd(f"seed {seed}: {side.value} must decide but has no legal command")
        preferred = [c for c in options if not avoid(state, c)] if avoid else options
        command = chooser.choice(preferred or options)
        after, events = (apply_trusted if trusted else apply)(state, command)
        if on_step is not None:
            on_step(state, command, after, events)
        record = record.with_command(command)
        state = after
        decisions += 1
    elapsed = (time.perf_counter() - started) * 1000
    return SelfPlayResult(seed, state, record, decisions, elapsed)
