"""Sizes of objects in memory, for the memory tests (issue 23, item 11)."""

from __future__ import annotations

import gc
import sys

from rules.sides import Side


def deep_size(objects, seen: set[int]) -> int:
    """Bytes of the objects and all they hold (classes, enum members shared by all games left out)."""
    total, stack = 0, list(objects)
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, (type, Side)):
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        stack.extend(gc.get_referents(item))
    return total
