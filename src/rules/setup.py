"""5 Setup: shuffle, deal, place the fixed blocks, draw the random ones (R44)."""

from __future__ import annotations

from rules.components import default_components
from rules.decks import draw_cards
from rules.events import BlocksPlaced, BlocksShown, Event, OpponentPlacedBlocks
from rules.immutable import evolve
from rules.pair import Pair
from rules.randomness import sample, shuffled
from rules.reinforcement import draw_blocks_into_recruitment_box
from rules.sequence import begin_week
from rules.sides import BOTH_SIDES
from rules.state import (
    BAG,
    MORI_BOX,
    Decision,
    DecisionKind,
    GameState,
    Phase,
    SideCards,
    Turn,
    sorted_pairs,
    with_positions,
)


def initial_state(seed: int) -> GameState:
    """Every block in its bag, decks unshuffled, control as at the start (R6, 4.3)."""
    c = default_components()
    castles = {loc.id: loc.castle for loc in c.castles()}
    return GameState(
        seed=seed,
        rng_counter=0,
        week=1,
        turn=Turn.A,
        phase=Phase.BID,
        first_player=None,
        active=None,
        decision=Decision(DecisionKind.NONE, frozenset()),
        positions=tuple(BAG for _ in c.blocks),
        revealed=frozenset(),
        discs=frozenset(d.id for d in c.discs),
        cards=Pair.of(lambda side: SideCards((), tuple(card.id for card in c.cards_of(side)), ())),
        resource_control=sorted_pairs(dict(c.setup.start_control)),
        castle_control=sorted_pairs(castles),  # type: ignore[arg-type]
    )


def new_game(seed: int) -> tuple[GameState, list[Event]]:
    """5.1: the whole setup, ending at week 1's turn order step (no reinforcement in week 1)."""
    c = default_components()
    state = initial_state(seed)
    events: list[Event] = []
    for side in BOTH_SIDES:  # 5.1 step 2
        pile, state = shuffled(state, state.cards[side].draw_pile)
        state = evolve(state, cards=state.cards.replace(side, SideCards((), pile, ())))
    for side in BOTH_SIDES:  # 5.1 step 3
        state, more = draw_cards(state, side, c.setup.hand_size)
        events += more
    state, more = place_fixed_blocks(state)  # 5.2.1
    events += more
    state, more = place_random_blocks(state)  # 5.2.2, R44
    events += more
    for side in BOTH_SIDES:  # 5.2.3
        state, more = draw_blocks_into_recruitment_box(state, side, c.setup.recruitment_draws)
        events += more
    state, more = begin_week(state, 1)
    return state, events + more


def place_fixed_blocks(state: GameState) -> tuple[GameState, list[Event]]:
    """5.2.1: each block with a setup symbol goes to its symbol's place; the
    Mori Box's blocks are face up (5.1 step 5). The positions change once for
    them all (issue 25)."""
    c = default_components()
    events: list[Event] = []
    moves: dict[str, str] = {}
    for place, blocks in c.setup.fixed:
        moves.update((block, place) for block in blocks)
        side = c.block(blocks[0]).side
        if place == MORI_BOX:
            events.append(BlocksShown(side, place, blocks))
        else:
            events += [BlocksPlaced(side, place, blocks), OpponentPlacedBlocks(side, place, len(blocks))]
    return with_positions(state, moves), events


def place_random_blocks(state: GameState) -> tuple[GameState, list[Event]]:
    """5.2.2, R44: each location is named in turn, then its blocks are drawn
    from its side's bag. The bags are followed here, in component order as the
    place index gives them, and the positions change once at the end (issue 25)."""
    c = default_components()
    events: list[Event] = []
    moves: dict[str, str] = {}
    for side, placements in c.setup.random:
        bag = list(state.blocks_at(BAG, side))
        for location, count in placements:
            drawn, state = sample(state, bag, count)
            bag = [block for block in bag if block not in drawn]
            moves.update((block, location) for block in drawn)
            events += [BlocksPlaced(side, location, drawn), OpponentPlacedBlocks(side, location, len(drawn))]
    return with_positions(state, moves), events
