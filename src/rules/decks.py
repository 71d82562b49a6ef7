"""3.3 Cards: drawing, reshuffling, discarding. Every played card is public (R2)."""

from __future__ import annotations

from rules.events import CardsDiscarded, CardsDrawn, DrawPileReshuffled, Event, OpponentDrewCards
from rules.immutable import evolve, with_field
from rules.randomness import shuffled
from rules.sides import Side
from rules.state import GameState, SideCards


def side_cards(state: GameState, side: Side) -> SideCards:
    return state.cards[side]


def _with_cards(state: GameState, side: Side, cards: SideCards) -> GameState:
    return with_field(state, "cards", state.cards.replace(side, cards))


def draw_cards(state: GameState, side: Side, count: int) -> tuple[GameState, list[Event]]:
    """3.3: draw `count` cards; an empty draw pile is refilled by shuffling the
    discard pile. If both are empty, no more cards are drawn (R45)."""
    cards = side_cards(state, side)
    if 0 < count <= len(cards.draw_pile):  # no reshuffle on the way: all at once, as the loop below would
        drawn_now = cards.draw_pile[:count]
        state = _with_cards(state, side, evolve(cards, hand=cards.hand + drawn_now, draw_pile=cards.draw_pile[count:]))
        return state, [CardsDrawn(side, drawn_now), OpponentDrewCards(side, count)]
    events: list[Event] = []
    drawn: list[str] = []
    for _ in range(count):
        cards = side_cards(state, side)
        if not cards.draw_pile:
            if not cards.discard_pile:
                break
            pile, state = shuffled(state, cards.discard_pile)
            state = _with_cards(state, side, evolve(cards, draw_pile=pile, discard_pile=()))
            events.append(DrawPileReshuffled(side, len(pile)))
            cards = side_cards(state, side)
        drawn.append(cards.draw_pile[0])
        state = _with_cards(
            state,
            side,
            evolve(cards, hand=cards.hand + cards.draw_pile[:1], draw_pile=cards.draw_pile[1:]),
        )
    if drawn:
        events += [CardsDrawn(side, tuple(drawn)), OpponentDrewCards(side, len(drawn))]
    return state, events


def discard_cards(
    state: GameState, side: Side, cards: tuple[str, ...], reason: str
) -> tuple[GameState, list[Event]]:
    """Move cards from the hand to the top of the discard pile, face up (3.3, R2)."""
    if not cards:
        return state, []
    current = side_cards(state, side)
    hand = list(current.hand)
    for card in cards:
        hand.remove(card)
    state = _with_cards(
        state, side, evolve(current, hand=tuple(hand), discard_pile=current.discard_pile + tuple(cards))
    )
    return state, [CardsDiscarded(side, tuple(cards), reason)]
