"""Readable names for pieces, places and cards in the panels.

The names themselves come from rules.describe, so the log and the panels agree.
"""

from __future__ import annotations

import functools
from collections import Counter

from rules.describe import card_name, daimyo_name, piece_name, place_name
from rules.surface import Command, Side, command_label, default_components

CARD_KINDS = {"double": "double", "swords": "swords", "plain": "plain", "loyalty": "Loyalty Challenge"}

__all__ = [
    "CARD_KINDS", "block_label", "blocks_label", "card_label", "card_mon", "choice_lines", "done_label", "notation_label",
    "place_label", "side_name", "word_label",
]


def side_name(side: Side | None) -> str:
    return side.value.capitalize() if side else "-"


def place_label(place: str, viewer: Side = Side.ISHIDA) -> str:
    return place_name(place, viewer)


def block_label(block_id: str) -> str:
    """'Mori 2-mon', 'Ishida Mitsunari' (see rules.describe.piece_name)."""
    return piece_name(block_id)


def blocks_label(block_ids) -> str:
    """Blocks in a short form that still names each one: by daimyo, the leader
    first, the daimyo said once and alike blocks counted:
    'Ishida Mitsunari; Mori 2-mon, cavalry; Kobayakawa leader, 3-mon ×2'."""
    components = default_components()
    groups: dict[str, list[str]] = {}
    for block_id in block_ids:
        groups.setdefault(components.block(block_id).daimyo, []).append(block_id)
    said = []
    for daimyo, blocks in groups.items():
        blocks.sort(key=lambda b: components.block(b).kind != "leader")  # stable: the leader first
        prefix = f"{daimyo_name(daimyo)} "
        words = []
        for n, (name, count) in enumerate(Counter(block_label(b) for b in blocks).items()):
            if n and name.startswith(prefix):
                name = name[len(prefix):]
            words.append(name if count == 1 else f"{name} ×{count}")
        said.append(", ".join(words))
    return "; ".join(said)


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


# --- choices in words ------------------------------------------------------------------
# A command's label comes from the rules' registry beside the log's lines
# (rules.describe_commands, through rules.surface); here it is fitted to a list.


def notation_label(text: str, side: Side) -> str:
    """A line of notation in plain words ("step saku": "Step to Saku"), for what a
    seat is told it did or took back; the line itself if it does not parse."""
    from rules.notation import NotationError, parse_command

    try:
        return command_label(parse_command(text, side))
    except (NotationError, ValueError):
        return text


def done_label(text: str, side: Side) -> str:
    """What a seat is told after a command: "Done: Step to Saku"."""
    label = notation_label(text, side)
    return label if label.startswith("Done:") else f"Done: {label}"


def choice_lines(commands, view=None) -> list[tuple[Command, str]]:
    """One line a choice, as the choices list shows them (issue 27, fault 4):
    commands with the same words are the same choice (alike pieces, rules.alike:
    two Ukita plain cards of bid 1), shown once with their count, "×2", and
    given by their first command; never raw notation in a label."""
    lines: dict[str, list] = {}
    for command in commands:
        lines.setdefault(command_label(command, view), []).append(command)
    return [(alike[0], f"{label} ×{len(alike)}" if len(alike) > 1 else label) for label, alike in lines.items()]
