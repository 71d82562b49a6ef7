"""Position files, the TOML itself: parsing it with a bound on nesting, and
reading its values (tables, sides, whole numbers, lists of ids, locations),
each refusal an `InvalidPosition` naming the source, the table and the entry
(docs/positions.md). Nothing here knows what a position means."""

from __future__ import annotations

import tomllib
from typing import Any, Callable

from attrs import frozen

from rules.components import Location, default_components
from rules.errors import InvalidPosition
from rules.sides import Side

# No entry needs more than a list inside an inline table ([entered_from]); the
# limit leaves room for wrong shapes to get their own message first.
MAX_NESTING = 4


@frozen
class Where:
    """Where in the file a value came from, for error messages."""

    source: str
    table: str | None

    def error(self, entry: str | None, problem: str) -> InvalidPosition:
        where = f"[{self.table}]" if self.table else "top level:"
        if entry is not None:
            where += f" {entry}"
        return InvalidPosition(f"{self.source}: {where.rstrip(':')}: {problem}")

    def at(self, table: str) -> Where:
        return Where(self.source, table)


def parse_toml(text: str, root: Where) -> dict[str, Any]:
    """The TOML, with no value nested deeper than a position needs. tomllib
    recurses on nested arrays and inline tables, so thousands of levels run
    out of stack before any check could see them."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InvalidPosition(f"{root.source}: not valid TOML: {error}") from None
    except RecursionError:
        raise InvalidPosition(f"{root.source}: {_too_deep()}") from None
    _check_nesting(root, data)
    return data


def _too_deep() -> str:
    return (
        f"nested more than {MAX_NESTING} lists or tables deep; "
        "no entry of a position needs more than 2 (a list in an inline table)"
    )


def _check_nesting(root: Where, data: dict[str, Any]) -> None:
    """Refuse deep values before anything reads them (messages print values)."""
    for key, value in data.items():
        where, entries = (root.at(key), value.items()) if isinstance(value, dict) else (root, [(key, value)])
        for entry, item in entries:
            if _nesting(item) > MAX_NESTING:
                raise where.error(entry, _too_deep())


def _nesting(value: Any) -> int:
    """How many lists and tables deep `value` goes, counted without recursion
    and only up to one more than MAX_NESTING."""
    deepest, stack = 0, [(value, 0)]
    while stack and deepest <= MAX_NESTING:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, depth + 1)
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def read_table(root: Where, data: dict[str, Any], name: str, required: bool = False) -> dict[str, Any]:
    if name not in data:
        if required:
            raise root.at(name).error(None, "this table is required")
        return {}
    value = data[name]
    if not isinstance(value, dict):
        raise root.error(name, f"must be a table [{name}], not {value!r}")
    return value


def check_keys(where: Where, table: dict[str, Any], allowed: tuple[str, ...], what: str) -> None:
    """Unknown keys are errors, so that a typo never passes silently."""
    for key in table:
        if key not in allowed:
            raise where.error(key, f"unknown {what} {key!r}; expected one of: {', '.join(allowed)}")


def read_side(where: Where, entry: str, value: Any) -> Side:
    try:
        return Side(value)
    except ValueError:
        raise where.error(entry, f"unknown side {value!r}; expected ishida or tokugawa") from None


def read_side_key(where: Where, key: str) -> Side:
    return read_side(where, key, key)


def read_integer(where: Where, entry: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise where.error(entry, f"must be a whole number, not {value!r}")
    return value


def read_ids(where: Where, entry: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise where.error(entry, f"must be a list of ids in quotes, not {value!r}")
    return tuple(value)


def read_unique_ids(where: Where, entry: str, value: Any, what: str) -> tuple[str, ...]:
    ids = read_ids(where, entry, value)
    for item in ids:
        if ids.count(item) > 1:
            raise where.error(entry, f"{what} {item!r} is listed twice")
    return ids


def read_inline_table(where: Where, entry: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise where.error(entry, f"must be a table {{ side = [...] }}, not {value!r}")
    return value


def check_location(where: Where, location: str, test: Callable[[Location], bool], kind: str) -> None:
    if not test(known_location(where, location)):
        raise where.error(location, f"{location} is not {kind}")


def known_location(where: Where, location: str) -> Location:
    try:
        return default_components().location(location)
    except KeyError:
        raise where.error(location, f"unknown location {location!r}") from None
