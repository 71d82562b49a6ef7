"""The seeded random generator kept inside the state (architecture.md).

The state holds the game's seed and a counter of random draws made so far.
Each draw seeds a fresh `random.Random` from both (string seeds are hashed with
SHA-512, stable across runs and platforms), so the same seed and the same
commands replay bit for bit, and saving the state saves the generator.
"""

from __future__ import annotations

import random
from typing import Sequence, TypeVar

from rules.immutable import with_field
from rules.state import GameState

T = TypeVar("T")


def next_generator(state: GameState) -> tuple[random.Random, GameState]:
    generator = random.Random(f"sekigahara/{state.seed}/{state.rng_counter}")
    return generator, with_field(state, "rng_counter", state.rng_counter + 1)


def shuffled(state: GameState, items: Sequence[T]) -> tuple[tuple[T, ...], GameState]:
    generator, state = next_generator(state)
    result = list(items)
    generator.shuffle(result)
    return tuple(result), state


def sample(state: GameState, items: Sequence[T], count: int) -> tuple[tuple[T, ...], GameState]:
    """Draw `count` items at random (all of them if there are fewer, R45)."""
    generator, state = next_generator(state)
    return tuple(generator.sample(list(items), min(count, len(items)))), state
