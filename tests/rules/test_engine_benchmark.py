"""benchmarks/engine.py's random player plays random.choice's games (issue 25).

The benchmark draws each pick with getrandbits, as random.choice does, to
leave choice's frames out of the engine's time; the games must stay those of
a player calling random.choice."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

from rules.engine import apply_trusted, legal_commands, start_game


def _benchmark():
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "engine.py"
    spec = importlib.util.spec_from_file_location("engine_benchmark", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _choice_game(seed: int) -> list:
    chooser = random.Random(f"bench/{seed}")
    state, _ = start_game(seed)
    commands = []
    while not state.is_over:
        side = chooser.choice(sorted(state.decision.sides))
        command = chooser.choice(legal_commands(state, side))
        commands.append(command)
        state, _ = apply_trusted(state, command)
    return commands


def test_the_benchmark_plays_random_choices_games() -> None:
    benchmark = _benchmark()
    assert benchmark.draws_as_choice()
    for seed in (1, 2, 3):
        played: list = []
        decisions = benchmark.play(seed, [], played=played)
        assert played == _choice_game(seed) and decisions == len(played)
