"""Interchangeable pieces. Blocks of the same daimyo and kind (and cards of the
same daimyo and kind) are alike in every rule, so legal_commands offers one
of each; the validators accept any of them."""

from __future__ import annotations

from typing import Hashable, Iterable, Sequence

from rules.components import default_components


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
