"""The component data files as they are read: what each TOML file holds
(one attrs record per file and per entry, before any check), and the strict
cattrs converter that structures a file into them ("3" is no integer, an
unknown key is an error) and names the entry at fault.
`structure_file` is the one way in (rules.infra.component_loader)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any, Literal, get_args, get_origin

import attrs
from attrs import frozen
from cattrs import ClassValidationError, Converter, ForbiddenExtraKeysError
from cattrs.cols import homogenous_tuple_structure_factory, mapping_structure_factory
from cattrs.gen import make_dict_structure_fn
from cattrs.v import format_exception, transform_error

from rules.components import BlockKind, Colour, ComponentDataError, Connection, Disc
from rules.sides import Side


# File schemas: what the TOML files hold, before checking


@frozen
class LocationRecord:
    id: str
    name: str
    x: int
    y: int
    castle: Colour | None = None
    resource: bool = False
    capital: Colour | None = None
    recruitment: tuple[str, ...] = ()


@frozen
class MapFile:
    locations: tuple[LocationRecord, ...]
    connections: tuple[Connection, ...]


@frozen
class DaimyoRecord:
    id: str
    side: Side
    has_cards: bool
    blocks: dict[BlockKind, int]


@frozen
class BlocksFile:
    daimyo: tuple[DaimyoRecord, ...]


@frozen
class CardCount:
    count: int
    bid: int


@frozen
class CardGroupRecord:
    deck: Side
    daimyo: str
    double: CardCount
    swords: CardCount
    plain: CardCount

    def kinds(self) -> tuple[tuple[str, CardCount], ...]:
        return (("double", self.double), ("swords", self.swords), ("plain", self.plain))


@frozen
class LoyaltyRecord:
    deck: Side
    count: int
    bid: int


@frozen
class CardsFile:
    groups: tuple[CardGroupRecord, ...]
    loyalty: tuple[LoyaltyRecord, ...] = ()


@frozen
class SetupFile:
    weeks: int
    hand_size: int
    recruitment_draws: int
    fixed: dict[str, tuple[str, ...]]
    random: dict[Side, dict[str, int]]
    start_control: dict[str, Side]
    reinforcement: dict[str, int]
    discs: tuple[Disc, ...] = ()


# ---------------------------------------------------------------------------
# Structuring: a strict cattrs converter (no "3" for 3, no "abc" for a list)


class _BadValue(TypeError):
    """A TOML value of the wrong type or outside its allowed values."""


_TOML_TYPES = {str: "string", int: "integer", bool: "boolean", float: "float", list: "array", dict: "table"}


def _toml_type(value: Any) -> str:
    return _TOML_TYPES.get(type(value), type(value).__name__)


def _exact_hook(expected: type) -> Callable[[Any, Any], Any]:
    def structure(value: Any, _: Any) -> Any:
        if type(value) is not expected:
            raise _BadValue(f"expected {_TOML_TYPES[expected]}, got {_toml_type(value)} {value!r}")
        return value

    return structure


def _choice_hook(choices: tuple[str, ...], make: Callable[[str], Any]) -> Callable[[Any, Any], Any]:
    def structure(value: Any, _: Any) -> Any:
        if type(value) is not str or value not in choices:
            raise _BadValue(f"expected one of {', '.join(map(repr, choices))}, got {value!r}")
        return make(value)

    return structure


def _requiring(container: type, base: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    """Wrap a structure hook so it refuses anything but a TOML array or table."""

    def structure(value: Any, type_: Any) -> Any:
        if not isinstance(value, container):
            raise _BadValue(f"expected {_TOML_TYPES[container]}, got {_toml_type(value)} {value!r}")
        return base(value, type_)

    return structure


def _is_homogeneous_tuple(type_: Any) -> bool:
    args = get_args(type_)
    return get_origin(type_) is tuple and len(args) == 2 and args[1] is Ellipsis


def _strict_converter() -> Converter:
    converter = Converter(forbid_extra_keys=True)
    for scalar in (str, int, bool):
        converter.register_structure_hook(scalar, _exact_hook(scalar))
    converter.register_structure_hook(Side, _choice_hook(tuple(s.value for s in Side), Side))
    converter.register_structure_hook_factory(
        lambda t: get_origin(t) is Literal, lambda t: _choice_hook(get_args(t), str)
    )
    converter.register_structure_hook_factory(
        _is_homogeneous_tuple,
        lambda t, c: _requiring(list, homogenous_tuple_structure_factory(t, c)),
    )
    converter.register_structure_hook_factory(
        lambda t: get_origin(t) is dict,
        lambda t, c: _requiring(dict, mapping_structure_factory(t, c)),
    )
    converter.register_structure_hook_factory(
        attrs.has, lambda t, c: _requiring(dict, make_dict_structure_fn(t, c))
    )
    return converter


_CONVERTER = _strict_converter()

_ENTRY_NAMES: dict[str, Callable[[dict[str, Any]], str]] = {
    "locations": lambda entry: f"location {entry['id']}",
    "connections": lambda entry: f"connection {entry['a']}-{entry['b']}",
    "daimyo": lambda entry: f"daimyo {entry['id']}",
    "groups": lambda entry: f"group {entry['daimyo']}",
    "loyalty": lambda entry: f"loyalty {entry['deck']}",
    "discs": lambda entry: f"disc {entry['id']}",
}

_ERROR_PATH = re.compile(r"^\$(?:\.(?P<key>\w+)(?:\[(?P<index>\d+)\]|\['(?P<name>[^']*)'\])?)?(?P<rest>.*)$")


def structure_file(file: str, table: dict[str, Any], record_type: type) -> Any:
    """Structure a whole file; the first problem becomes a ComponentDataError."""
    try:
        return _CONVERTER.structure(table, record_type)
    except ClassValidationError as exc:
        first, *more = transform_error(exc, format_exception=_format_exception)
        entry, problem = _locate_error(table, first)
        if more:
            problem += f" (and {len(more)} more problem{'s' if len(more) > 1 else ''})"
        raise ComponentDataError(file, entry, problem) from exc


def _format_exception(exc: BaseException, type_: Any) -> str:
    if isinstance(exc, _BadValue):
        return str(exc)
    if isinstance(exc, ForbiddenExtraKeysError):
        return "unknown key " + ", ".join(map(repr, sorted(exc.extra_fields)))
    if isinstance(exc, KeyError):
        return "missing"
    return format_exception(exc, type_)


def _locate_error(table: dict[str, Any], line: str) -> tuple[str | None, str]:
    """Turn `message @ $.locations[3].x` into (`location kyoto`, `x: message`)."""
    message, _, path = line.rpartition(" @ ")
    match = _ERROR_PATH.match(path)
    assert match is not None  # the pattern matches every path cattrs makes
    key, index, name, rest = match.group("key", "index", "name", "rest")
    rest = re.sub(r"\['([^']*)'\]", r".\1", rest).lstrip(".")
    if index is not None:
        entry = _entry_name(key, table[key][int(index)], int(index))
    elif name is not None:
        entry = f"{key} {name}"
    else:
        entry = key
    return entry, f"{rest}: {message}" if rest else message


def _entry_name(key: str, entry: Any, index: int) -> str:
    try:
        return _ENTRY_NAMES[key](entry)
    except (KeyError, TypeError):
        return f"{key} #{index + 1}"
