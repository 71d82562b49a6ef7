"""`evolve`: attrs.evolve for the engine's frozen classes, about twice as fast.

attrs.evolve walks the class's fields and builds keyword arguments on every
call; a game step makes several evolves (issue 14: half the engine's time went
to building new states). This one reads each class's fields once, fetches all
values with one attrgetter and calls the class positionally. It still goes
through the class's __init__, so converters and defaults behave exactly as
with attrs.evolve; classes it cannot call positionally fall back to it.
"""

from __future__ import annotations

from functools import cache
from operator import attrgetter
from typing import Any, Callable, TypeVar

import attrs

T = TypeVar("T")


@cache
def _rebuilder(cls: type) -> tuple[Callable[[Any], tuple], dict[str, int]] | None:
    """How to rebuild an instance of `cls`: a getter of its init arguments in
    order, and each argument's place. None where positional calls do not fit."""
    fields = [a for a in attrs.fields(cls) if a.init]
    if len(fields) < 2 or any(a.kw_only or a.alias != a.name for a in fields):
        return None  # attrgetter of one name returns a bare value; aliases differ from names
    return attrgetter(*(a.name for a in fields)), {a.name: i for i, a in enumerate(fields)}


def evolve(instance: T, **changes: Any) -> T:
    """A copy of the attrs `instance` with `changes` applied, as attrs.evolve."""
    cls = type(instance)
    rebuilder = _rebuilder(cls)
    if rebuilder is None:
        return attrs.evolve(instance, **changes)
    values_of, place = rebuilder
    values = list(values_of(instance))
    try:
        for name, value in changes.items():
            values[place[name]] = value
    except KeyError:
        return attrs.evolve(instance, **changes)  # for attrs' own error
    return cls(*values)
