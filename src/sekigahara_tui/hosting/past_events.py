"""The events of a hosted game's steps that no undo can reach, kept compact.

A host of many games (GameHost(keep_states=False)) lets go of everything of
a step before the last final one (R58: no undo goes past it) but its events:
a connection that opens the game is sent the whole log (chairs.send_state).
Kept as objects they cost about 250 bytes a step with their Step (issue 23,
item 11: a game's memory must not grow with its length beyond its record),
so they are packed, CHUNK steps at a time, into one compressed pickle (about
20 bytes a step), and unpacked only when a connection asks for them (a whole
game's log in about a millisecond). The bytes are this process's own, made
here and read back here: nothing from outside is ever unpickled.
"""

from __future__ import annotations

import pickle
import zlib

from rules.events import Event

CHUNK = 64  # steps per packed chunk: ~20 bytes a step once packed


class PastEvents:
    """The events of steps 0 .. count-1, step by step, oldest first."""

    __slots__ = ("_packed", "_open")

    def __init__(self) -> None:
        self._packed: list[bytes] = []  # each: the events of CHUNK steps
        self._open: list[tuple[Event, ...]] = []  # the steps not packed yet (fewer than CHUNK)

    @property
    def count(self) -> int:
        return CHUNK * len(self._packed) + len(self._open)

    def add(self, events: tuple[Event, ...]) -> None:
        """The events of the next step."""
        self._open.append(events)
        if len(self._open) == CHUNK:
            self._packed.append(zlib.compress(pickle.dumps(self._open, protocol=pickle.HIGHEST_PROTOCOL)))
            self._open = []

    def since(self, first: int) -> list[tuple[Event, ...]]:
        """The events of each step from step `first` on (equal to those added)."""
        first = max(first, 0)
        steps: list[tuple[Event, ...]] = []
        for n in range(first // CHUNK, len(self._packed)):
            chunk: list[tuple[Event, ...]] = pickle.loads(zlib.decompress(self._packed[n]))
            steps.extend(chunk[first - CHUNK * n :] if n == first // CHUNK else chunk)
        packed = CHUNK * len(self._packed)
        steps.extend(self._open[max(first - packed, 0) :])
        return steps
