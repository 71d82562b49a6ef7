"""`evolve`: attrs.evolve for the engine's frozen classes, several times as fast.

attrs.evolve walks the class's fields and builds keyword arguments on every
call; a game step makes several evolves (issue 14: half the engine's time went
to building new states). Two faster ways, chosen once per class:

- a class without __slots__ whose fields are plain (no converter, validator,
  alias or init=False, no __attrs_post_init__, no cached_property writing into
  the instance dict): the copy is its instance dict, copied and updated, set
  on a bare instance: one C-level dict copy instead of a call of __init__
  (issue 25: the state classes made each step are such classes for this);
- any other class: each field's value fetched with one attrgetter and the class
  called positionally, so converters and defaults behave exactly as with
  attrs.evolve; classes it cannot call positionally fall back to it.
"""

from __future__ import annotations

from functools import cache, cached_property
from operator import attrgetter
from typing import Any, Callable, TypeVar

import attrs

T = TypeVar("T")

_new = object.__new__
_set = object.__setattr__


# Per class: its number of fields if its instance dict may simply be copied, else 0.
_PLAIN: dict[type, int] = {}


def _plain_size(cls: type) -> int:
    if "__slots__" in cls.__dict__ or hasattr(cls, "__attrs_post_init__"):
        return 0
    fields = attrs.fields(cls)
    if any(not a.init or a.converter is not None or a.validator is not None or a.alias != a.name for a in fields):
        return 0
    if any(isinstance(value, cached_property) for klass in cls.__mro__ for value in vars(klass).values()):
        return 0  # its cached value would be copied into the changed instance
    return len(fields)


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
    size = _PLAIN.get(cls)
    if size is None:
        size = _PLAIN[cls] = _plain_size(cls)
    if size:
        values = instance.__dict__.copy()  # a copy keeps the dict's shared keys: no larger than __init__'s
        values.update(changes)
        if len(values) != size:  # a name that is no field
            return attrs.evolve(instance, **changes)  # for attrs' own error
        new = _new(cls)
        _set(new, "__dict__", values)  # frozen classes refuse setattr; this is their own __init__'s way
        return new
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


def with_field(instance: T, name: str, value: Any) -> T:
    """evolve(instance, **{name: value}): one field changed, as most steps
    change it, without the keyword arguments (issue 25: 40% fewer
    instructions than evolve for the state classes)."""
    cls = type(instance)
    if _PLAIN.get(cls):
        values = instance.__dict__.copy()
        if name in values:
            values[name] = value
            new = _new(cls)
            _set(new, "__dict__", values)
            return new
    return evolve(instance, **{name: value})
