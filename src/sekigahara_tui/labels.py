"""Readable names for pieces, places and cards in the panels.

The names themselves come from rules.describe, so the log and the panels agree.
"""

from __future__ import annotations

import functools

from rules.describe import card_name, daimyo_name, piece_name, place_name
from rules.surface import Side, default_components

CARD_KINDS = {"double": "double", "swords": "swords", "plain": "plain", "loyalty": "Loyalty Challenge"}

__all__ = ["CARD_KINDS", "block_label", "card_label", "card_mon", "place_label", "side_name", "word_label"]


def side_name(side: Side | None) -> str:
    return side.value.capitalize() if side else "-"


def place_label(place: str, viewer: Side = Side.ISHIDA) -> str:
    return place_name(place, viewer)


def block_label(block_id: str) -> str:
    """'Mori 2-mon', 'Ishida Mitsunari' (see rules.describe.piece_name)."""
    return piece_name(block_id)


def card_mon(card_id: str) -> str:
    card = default_components().card(card_id)
    return daimyo_name(card.daimyo) if card.daimyo else "(any)"


def card_label(card_id: str) -> str:
    """'Mori swords, bid 4' or 'Loyalty Challenge, bid 1'."""
    return f"{card_name(card_id)}, bid {default_components().card(card_id).bid}"


@functools.cache
def _block_and_card_ids() -> tuple[frozenset[str], frozenset[str]]:
    c = default_components()
    return frozenset(b.id for b in c.blocks), frozenset(card.id for card in c.cards)


def word_label(word: str) -> str:
    """A notation word in plain words: a location, block or card id, or itself."""
    blocks, cards = _block_and_card_ids()
    if word in default_components().location_ids:
        return place_name(word, Side.ISHIDA)
    if word in cards:
        return card_label(word)
    if word in blocks:
        return block_label(word)
    return word
