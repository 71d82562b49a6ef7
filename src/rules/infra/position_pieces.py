"""Position files, the pieces: [blocks], where each block is (4.1, 4.4, 9.3),
and [hands], [draw_piles], [discard_piles], [unlisted_cards], the decks (3.3)."""

from __future__ import annotations

from typing import Any

from rules.components import default_components
from rules.immutable import evolve
from rules.infra.position_toml import Where, read_ids, read_side_key, read_table
from rules.randomness import shuffled
from rules.sides import BOTH_SIDES, Side
from rules.state import MORI_BOX, OFF_MAP, RECRUITMENT_BOX, GameState, SideCards, with_positions

CARD_TABLES = {"hands": "hand", "draw_piles": "draw_pile", "discard_piles": "discard_pile"}
UNLISTED_DESTINATIONS = ("draw_pile", "discard_pile")


# ---------------------------------------------------------------------------
# [blocks]: where each block is (4.1, 4.4, 9.3)


def place_blocks(state: GameState, where: Where, table: dict[str, Any]) -> GameState:
    """Each listed block at its place; every other block stays in its bag."""
    placed: dict[str, str] = {}
    for place, value in table.items():
        _check_place(where, place)
        for block in read_ids(where, place, value):
            _check_block(where, place, block, placed)
            placed[block] = place
    _check_mori_leader_last(where, placed)
    return with_positions(state, placed)


def _check_place(where: Where, place: str) -> None:
    if place in OFF_MAP:
        return
    try:
        default_components().location(place)
    except KeyError:
        raise where.error(
            place,
            f"unknown place {place!r}: expected a location id or one of: {', '.join(sorted(OFF_MAP))}",
        ) from None


def _check_block(where: Where, place: str, block_id: str, placed: dict[str, str]) -> None:
    """One place per block; a side's own Recruitment Box only (4.4); the Mori
    Box holds only the blocks that start in it, since none may be added (9.3)."""
    c = default_components()
    try:
        block = c.block(block_id)
    except KeyError:
        raise where.error(place, f"unknown block {block_id!r}") from None
    if block_id in placed:
        raise where.error(place, f"block {block_id!r} is already at {placed[block_id]}")
    if place in (RECRUITMENT_BOX.ishida, RECRUITMENT_BOX.tokugawa) and place != RECRUITMENT_BOX[block.side]:
        raise where.error(
            place, f"{block_id!r} is a block of the {block.side} side, not of this Recruitment Box's (4.4)"
        )
    if place == MORI_BOX and block_id not in c.setup.fixed_at(MORI_BOX):
        starters = ", ".join(c.setup.fixed_at(MORI_BOX))
        raise where.error(
            place,
            f"{block_id!r} cannot be in the Mori Box: only {starters} start there "
            "and no block may be added (5.2.1, 9.3)",
        )


def _check_mori_leader_last(where: Where, placed: dict[str, str]) -> None:
    """9.3, R40: the Mori leader leaves the Mori Box last."""
    c = default_components()
    in_box = [b for b in c.setup.fixed_at(MORI_BOX) if placed.get(b) == MORI_BOX]
    for leader in (b for b in c.setup.fixed_at(MORI_BOX) if c.block(b).is_leader):
        if in_box and leader not in in_box:
            raise where.error(
                MORI_BOX,
                f"{in_box[0]!r} is in the Mori Box but {leader!r} is not: "
                "the Mori leader enters last (9.3, R40)",
            )


# ---------------------------------------------------------------------------
# [hands], [draw_piles], [discard_piles], [unlisted_cards]: the decks (3.3)


def deal_cards(state: GameState, root: Where, data: dict[str, Any]) -> GameState:
    """3.3: every card of a deck is in its hand, draw pile or discard pile."""
    listed = _read_card_lists(root, data)
    rest_to = _read_unlisted(root.at("unlisted_cards"), read_table(root, data, "unlisted_cards"))
    for side in BOTH_SIDES:
        state = _deal_side(state, side, listed[side], rest_to[side])
    return state


def _read_card_lists(root: Where, data: dict[str, Any]) -> dict[Side, dict[str, tuple[str, ...]]]:
    lists: dict[Side, dict[str, tuple[str, ...]]] = {side: {} for side in BOTH_SIDES}
    seen: dict[str, str] = {}
    for table_name, pile in CARD_TABLES.items():
        where = root.at(table_name)
        for key, value in read_table(root, data, table_name).items():
            side = read_side_key(where, key)
            cards = read_ids(where, key, value)
            for card in cards:
                _check_card(where, key, side, card, seen)
                seen[card] = f"[{table_name}] {key}"
            lists[side][pile] = cards
    return lists


def _check_card(where: Where, key: str, side: Side, card_id: str, seen: dict[str, str]) -> None:
    """Each card is in one place, and in its own side's deck (3.3)."""
    try:
        card = default_components().card(card_id)
    except KeyError:
        raise where.error(key, f"unknown card {card_id!r}") from None
    if card.side is not side:
        raise where.error(key, f"{card_id!r} is a card of the {card.side} deck, not the {side} deck (3.3)")
    if card_id in seen:
        raise where.error(key, f"card {card_id!r} is already in {seen[card_id]}")


def _read_unlisted(where: Where, table: dict[str, Any]) -> dict[Side, str]:
    rest_to = {side: "draw_pile" for side in BOTH_SIDES}
    for key, value in table.items():
        side = read_side_key(where, key)
        if value not in UNLISTED_DESTINATIONS:
            raise where.error(key, f"{value!r}: expected \"draw_pile\" or \"discard_pile\"")
        rest_to[side] = value
    return rest_to


def _deal_side(state: GameState, side: Side, listed: dict[str, tuple[str, ...]], rest_to: str) -> GameState:
    """Unlisted cards are shuffled with the seed and go below the listed draw
    pile (its top first) or below the listed discard pile (its top last)."""
    named = {card for cards in listed.values() for card in cards}
    unlisted = [card.id for card in default_components().cards_of(side) if card.id not in named]
    rest, state = shuffled(state, unlisted)
    draw, discard = listed.get("draw_pile", ()), listed.get("discard_pile", ())
    if rest_to == "draw_pile":
        draw = draw + rest
    else:
        discard = rest + discard
    cards = SideCards(hand=listed.get("hand", ()), draw_pile=draw, discard_pile=discard)
    return evolve(state, cards=state.cards.replace(side, cards))
