"""Interchangeable pieces. Blocks of the same daimyo and kind (and cards of the
same daimyo and kind) are alike in every rule, so legal_commands offers one of
each: the lowest ids of each kind (in sorted order). A command is legal if and
only if it is listed, or is the same as a listed one up to alike pieces, each
piece named once and really where the command needs it (`representative`)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any, Callable, Hashable, Iterable, Sequence

from attrs import frozen

from rules.components import default_components
from rules.immutable import evolve


def block_kind(block_id: str) -> tuple[str, str]:
    block = default_components().block(block_id)
    return block.daimyo, block.kind


def card_kind(card_id: str) -> tuple[str | None, str]:
    card = default_components().card(card_id)
    return card.daimyo, card.kind


def group_kind(block_ids: Sequence[str]) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(block_kind(b) for b in block_ids))


def one_of_each(items: Iterable, key) -> list:
    """The first item of each kind, by `key`, in the order given."""
    seen: dict[Hashable, object] = {}
    for item in items:
        seen.setdefault(key(item), item)
    return list(seen.values())


@frozen
class Pieces:
    """A command field that names interchangeable pieces: how alike pieces are
    told apart (`kind`), where they must be (`pool`, from the state and the
    command), and the rule that names each piece once."""

    field: str
    kind: Callable[[str], Hashable]
    pool: Callable[[Any, Any], Iterable[str]]
    rule: str


def _named(command: Any, pieces: Pieces) -> tuple[str, ...]:
    value = getattr(command, pieces.field)
    return value if isinstance(value, tuple) else (value,)


def named_twice(command: Any, fields: Sequence[Pieces]) -> str | None:
    """Why the command is illegal if it names one piece twice, else None."""
    for pieces in fields:
        named = _named(command, pieces)
        for piece in named:
            if named.count(piece) > 1:
                return f"{piece} is named twice: each piece counts once ({pieces.rule})"
    return None


def representative(state: Any, command: Any, fields: Sequence[Pieces]) -> Any | None:
    """The command as legal_commands would list it: each named piece replaced by
    the lowest-id pieces of its kind in its pool. None if a piece is named twice
    or is not in its pool, so it cannot match any listed command."""
    if not fields or named_twice(command, fields):
        return None if fields else command
    changes: dict[str, Any] = {}
    for pieces in fields:
        present = sorted(pieces.pool(state, command))
        named = _named(command, pieces)
        if not set(named) <= set(present):  # before any kind is looked up: an id may be no piece at all
            return None
        pool: dict[Hashable, list[str]] = defaultdict(list)
        for piece in present:
            pool[pieces.kind(piece)].append(piece)
        wanted: dict[Hashable, int] = defaultdict(int)
        for piece in named:
            wanted[pieces.kind(piece)] += 1
        chosen = tuple(piece for kind, n in wanted.items() for piece in pool[kind][:n])
        value = getattr(command, pieces.field)
        changes[pieces.field] = chosen if isinstance(value, tuple) else chosen[0]
    return evolve(command, **changes)
