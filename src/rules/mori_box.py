"""9.3 Mori Terumoto and the Mori Box (R40, R42; R41 and R43 belong to combat)."""

from __future__ import annotations

from functools import cache

from rules.alike import Pieces, block_kind, card_kind, one_of_each
from rules.arrival import arrive, has_enemy_units, held_against
from rules.commands import EnterFromMoriBox
from rules.components import default_components
from rules.decision import Answer, in_hand
from rules.decks import discard_cards
from rules.events import Event, MoriBlockEntered
from rules.immutable import evolve
from rules.places import place_index
from rules.sides import ISHIDA, Side
from rules.state import MORI_BOX, GameState, with_positions

OSAKA = "osaka"


def entry_blocked(state: GameState) -> bool:
    """R42, R61: no entry while Osaka holds enemy units and no Ishida blocks
    (the Hideyori disc is not a block)."""
    return has_enemy_units(state, ISHIDA, OSAKA) and not state.blocks_at(OSAKA, ISHIDA)


def next_entrants(state: GameState) -> tuple[str, ...]:
    """R40: the Mori leader enters last. Alike blocks are interchangeable, so
    one block of each kind is offered."""
    return _entrants(state.blocks_at(MORI_BOX, ISHIDA))


@cache
def _entrants(box: tuple[str, ...]) -> tuple[str, ...]:
    """next_entrants by the box's contents: 9 blocks, leaving one by one."""
    c = default_components()
    others = [b for b in sorted(box) if not c.block(b).is_leader]
    if not others:
        return box
    return tuple(one_of_each(others, block_kind))


def legal_mori_entries(state: GameState, side: Side) -> list[EnterFromMoriBox]:
    """R42: a block of the next entrants, for a card of the hand. Who may enter
    depends on the discs and the blocks in Osaka and the Mori Box alone: kept
    with the positions' index while no block comes to or goes from either
    (rules.places), as every Ishida MOVE decision asks (issue 25)."""
    if side is not ISHIDA:
        return []
    index = place_index(state.positions)
    known = index.memo.get("mori entrants")
    if known is None or known[0] != state.discs:
        entrants = () if entry_blocked(state) else next_entrants(state)
        known = (state.discs, tuple([_entries(block) for block in entrants]))
        index.keep("mori entrants", known, places=_MORI_PLACES)
    hand = state.cards[side].hand
    return [by_card[card] for by_card in known[1] for card in hand]


_MORI_PLACES = frozenset({OSAKA, MORI_BOX})


@cache
def _entries(block: str) -> dict[str, EnterFromMoriBox]:
    """A block's entries by card, made once: listed at every Ishida MOVE decision (issue 25)."""
    return {card.id: EnterFromMoriBox(Side.ISHIDA, block, card.id) for card in default_components().cards}


def why_mori_entry_illegal(state: GameState, command: EnterFromMoriBox) -> str | None:
    c = default_components()
    if command.side is not Side.ISHIDA:
        return "only Ishida has the Mori Box (9.3)"
    box = state.blocks_at(MORI_BOX, Side.ISHIDA)
    if command.block not in box:
        return f"{command.block} is not in the Mori Box (9.3)"
    if c.block(command.block).is_leader and len(box) > 1:
        return "the Mori leader enters last (9.3, R40)"
    if command.card not in state.cards[command.side].hand:
        return f"{command.card} is not in your hand (R40)"
    if entry_blocked(state):
        return f"{held_against(state, Side.ISHIDA, OSAKA)}: no Mori block may enter (R42)"
    return None


def enter_all_from_mori_box(state: GameState) -> tuple[GameState, list[Event]]:
    """R41 hook for combat: when Tokugawa attacks Osaka, every block still in
    the Mori Box enters Osaka at no card cost, the leader last. The caller
    (combat, 8.1) checks the trigger and R43."""
    c = default_components()
    box = sorted(state.blocks_at(MORI_BOX, Side.ISHIDA), key=lambda b: c.block(b).is_leader)
    if not box:
        return state, []
    state = with_positions(state, {block: OSAKA for block in box})
    state = evolve(state, revealed=state.revealed | set(box))  # face up, known in Osaka (R62)
    events: list[Event] = [MoriBlockEntered(Side.ISHIDA, block) for block in box]
    state, more = arrive(state, Side.ISHIDA, OSAKA)
    return state, events + more


def apply_mori_entry(state: GameState, command: EnterFromMoriBox) -> tuple[GameState, list[Event]]:
    """R40, R42: one card a block; the block cannot move this turn; its
    arrival may overrun. It entered from no location (R51). It came face up
    from the box, so it stays known in Osaka until it moves (R62)."""
    state, events = discard_cards(state, command.side, (command.card,), "mori box")
    state = with_positions(state, {command.block: OSAKA})
    state = evolve(state, revealed=state.revealed | {command.block})  # face up, known in Osaka (R62)
    if state.movement is not None:
        state = evolve(state, movement=evolve(state.movement, fixed=state.movement.fixed | {command.block}))
    events.append(MoriBlockEntered(command.side, command.block))
    state, more = arrive(state, Side.ISHIDA, OSAKA)
    return state, events + more


def _in_mori_box(state: GameState, command: EnterFromMoriBox) -> tuple[str, ...]:
    return state.blocks_at(MORI_BOX, command.side)


# An answer to the Movement Phase's decisions under any option (R42).
MORI_ENTRY = Answer(
    why_mori_entry_illegal,
    apply_mori_entry,
    (Pieces("block", block_kind, _in_mori_box, "9.3"), Pieces("card", card_kind, in_hand, "R40")),
)
