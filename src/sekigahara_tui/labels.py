"""Readable names for pieces, places and cards in the panels.

The names themselves come from rules.describe, so the log and the panels agree.
"""

from __future__ import annotations

import functools
from collections import Counter

from rules.describe import card_name, daimyo_name, piece_name, place_name
from rules.surface import Side, default_components

CARD_KINDS = {"double": "double", "swords": "swords", "plain": "plain", "loyalty": "Loyalty Challenge"}

__all__ = [
    "CARD_KINDS", "block_label", "blocks_label", "card_label", "card_mon", "card_text", "choice_labels", "command_label", "done_label", "notation_label",
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

MOVEMENT_WORDS = {
    "pass": "No movement: exchange cards (7.1)",
    "minimal": "Minimal: 1 stack move or 1 muster, free",
    "limited": "Limited: 3 stack moves (a muster may replace one)",
    "full": "Full: every stack may move, plus 1 muster",
}


def card_text(card_id: str) -> str:
    """A card with its kind and bid value: 'Ukita plain (1)', 'Loyalty Challenge (1)'.
    The bid is in brackets so a card id's number is never read as its value."""
    return f"{card_name(card_id)} ({default_components().card(card_id).bid})"


def _blocks_text(block_ids: tuple[str, ...]) -> str:
    return ", ".join(piece_name(b) for b in block_ids)


def _moved(view, block: str) -> str:
    """' (moved 2)': how far a block of the stack move under way has come."""
    move = view.movement.stack_move if view is not None and view.movement else None
    if move is None or not any(p.block == block for p in move.blocks):
        return ""
    steps = len(move.progress(block).path) - 1
    return f" (moved {steps})" if steps else ""


def command_label(command, view=None) -> str:
    """A legal command in plain words, for the choices list (`view`, the seat's
    PlayerView, adds what the seat knows, like how far a block has moved). The
    notation stays on the command line and in the palette."""
    from rules.surface import (  # the command classes; imported here so labels stays light
        AllowPlay, BeginMove, Bid, Challenge, ChooseCasualty, ChooseFirstPlayer, ChooseMovement,
        ComeOutside, DeclareCombat, DeclareDone, Deploy, DeployLeader, Deselect, EndExchange,
        EndMovement, EndStackMove, EnterFromMoriBox, ExchangeCard, ForceMarch, Halt, Muster,
        ReinforcementDiscard, Retreat, Select, StayInside, Step,
    )

    c = command
    if isinstance(c, ReinforcementDiscard):
        return f"Discard: {card_text(c.card)}"
    if isinstance(c, Bid):
        return f"Bid: {card_text(c.card)}"
    if isinstance(c, ChooseFirstPlayer):
        return f"{side_name(c.first)} plays first"
    if isinstance(c, ChooseMovement):
        words = MOVEMENT_WORDS[c.option.value]
        return words + (f"; pay {' + '.join(card_text(card) for card in c.cards)}" if c.cards else "")
    if isinstance(c, ExchangeCard):
        return f"Exchange {card_text(c.card)}"
    if isinstance(c, EndExchange):
        return "Draw the replacements (ends the phase)"
    if isinstance(c, EndMovement):
        return "End the Movement Phase"
    if isinstance(c, BeginMove):
        return f"Move a stack from {place_label(c.source)}" + (" (a leader leads)" if c.leader else "")
    if isinstance(c, Select):
        return f"Select {piece_name(c.block)}{_moved(view, c.block)}"
    if isinstance(c, Deselect):
        return f"Leave {piece_name(c.block)} behind{_moved(view, c.block)}"
    if isinstance(c, ForceMarch):
        return f"Force march (+1), discard {card_text(c.card)}"
    if isinstance(c, Step):
        return f"Step to {place_label(c.to)}"
    if isinstance(c, Halt):
        return "Halt the selected group here"
    if isinstance(c, EndStackMove):
        return "Done: end this stack move"
    if isinstance(c, Muster):
        daimyos = {default_components().block(b).daimyo for b in c.blocks}
        if len(c.blocks) == 1:
            return f"Muster {piece_name(c.blocks[0])} at {place_label(c.location)} (hidden)"
        who = daimyo_name(next(iter(daimyos))) if len(daimyos) == 1 else "several daimyo"
        kinds = ", ".join(piece_name(b).removeprefix(who + " ") for b in c.blocks)
        return f"Muster {len(c.blocks)} blocks of {who} at {place_label(c.location)} (shown): {kinds}"
    if isinstance(c, EnterFromMoriBox):
        return f"Mori Box: {piece_name(c.block)} into Osaka for {card_text(c.card)}"
    if isinstance(c, DeclareCombat):
        return f"Combat at {place_label(c.location)}"
    if isinstance(c, StayInside):
        return "Stay inside the castle"
    if isinstance(c, ComeOutside):
        return "Come outside and fight a battle"
    if isinstance(c, Deploy):
        return f"Deploy {_blocks_text(c.blocks)} with {card_text(c.card)}"
    if isinstance(c, DeployLeader):
        return f"Deploy {piece_name(c.block)}, no card"
    if isinstance(c, DeclareDone):
        return "Pass: deploy no more"
    if isinstance(c, Challenge):
        return f"Challenge with {card_text(c.card)}"
    if isinstance(c, AllowPlay):
        return "Allow the play"
    if isinstance(c, ChooseCasualty):
        return f"Lose {piece_name(c.piece)}"
    if isinstance(c, Retreat):
        if c.to == "castle":
            return f"Retreat into the castle: {_blocks_text(c.garrison)}"
        if c.garrison:
            return f"Retreat: {_blocks_text(c.garrison)} into the castle, the rest to {place_label(c.to)}"
        return f"Retreat all to {place_label(c.to)}"
    return type(c).__name__


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


def choice_labels(commands, view=None) -> list[str]:
    """Labels for a list of commands, never two alike: a label that would repeat
    gets its notation in brackets."""
    from rules.notation import format_command

    labels = [command_label(c, view) for c in commands]
    counts = Counter(labels)
    return [
        f"{label} [{format_command(c, with_side=False)}]" if counts[label] > 1 else label
        for label, c in zip(labels, commands)
    ]
