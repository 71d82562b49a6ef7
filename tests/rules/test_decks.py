"""3.3 Cards: draw, reshuffle, public plays (R2, R45)."""

from attrs import evolve

from helpers import with_hand
from rules.decks import discard_cards, draw_cards
from rules.events import CardsDiscarded, CardsDrawn, DrawPileReshuffled, OpponentDrewCards
from rules.sides import Side
from rules.view import view

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA


def test_3_3_draw_takes_cards_from_the_top(started):
    pile = started.cards[ISHIDA].draw_pile
    state, events = draw_cards(started, ISHIDA, 2)
    assert state.cards[ISHIDA].hand[-2:] == pile[:2]
    assert state.cards[ISHIDA].draw_pile == pile[2:]
    assert events == [CardsDrawn(ISHIDA, pile[:2]), OpponentDrewCards(ISHIDA, 2)]


def test_3_3_drawn_cards_are_seen_only_by_their_owner(started):
    _, events = draw_cards(started, ISHIDA, 1)
    assert events[0].visible_to() == {ISHIDA}
    assert events[1].visible_to() == {TOKUGAWA}


def test_3_3_empty_draw_pile_reshuffles_the_discard_pile(started):
    state = with_hand(started, ISHIDA, ("mori-plain-1",), draw_pile=("mori-plain-2",),
                      discard_pile=("ukita-plain-1", "ukita-plain-2", "ukita-plain-3"))
    state, events = draw_cards(state, ISHIDA, 3)
    cards = state.cards[ISHIDA]
    assert cards.hand[:2] == ("mori-plain-1", "mori-plain-2")
    assert len(cards.hand) == 4 and len(cards.draw_pile) == 1
    assert sorted(cards.hand[2:] + cards.draw_pile) == ["ukita-plain-1", "ukita-plain-2", "ukita-plain-3"]
    assert cards.discard_pile == ()
    assert DrawPileReshuffled(ISHIDA, 3) in events


def test_3_3_r45_no_card_is_drawn_when_both_piles_are_empty(started):
    state = with_hand(started, ISHIDA, ("mori-plain-1",), draw_pile=(), discard_pile=())
    after, events = draw_cards(state, ISHIDA, 5)
    assert after.cards[ISHIDA].hand == ("mori-plain-1",)
    assert events == []


def test_3_3_r2_discards_are_public(started):
    card = started.cards[TOKUGAWA].hand[0]
    state, events = discard_cards(started, TOKUGAWA, (card,), "movement")
    assert events == [CardsDiscarded(TOKUGAWA, (card,), "movement")]
    assert events[0].visible_to() == {ISHIDA, TOKUGAWA}
    assert state.cards[TOKUGAWA].discard_pile[-1] == card


def test_r2_views_show_pile_sizes_and_top_discards_only(started):
    hand = started.cards[TOKUGAWA].hand
    state, _ = discard_cards(started, TOKUGAWA, hand[:2], "movement")
    seen = view(state, ISHIDA)
    assert seen.top_discards.tokugawa == hand[1]
    assert seen.discard_pile_sizes.tokugawa == 2
    assert seen.draw_pile_sizes == evolve(seen.draw_pile_sizes, ishida=50, tokugawa=50)
    assert seen.enemy_hand_size == 3
    assert not hasattr(seen, "enemy_hand")
