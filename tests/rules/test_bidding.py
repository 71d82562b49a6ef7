"""6.3 Turn order step (R9)."""

import pytest

from helpers import with_hand
from rules.commands import Bid, ChooseFirstPlayer, ChooseMovement
from rules.engine import apply, legal_commands
from rules.errors import IllegalCommand
from rules.events import BidsRevealed, CardsDiscarded, PhaseBegan
from rules.sides import Side
from rules.state import DecisionKind, MovementOption, Phase, Turn
from rules.view import view

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA


def hands(state, ishida, tokugawa):
    return with_hand(with_hand(state, ISHIDA, ishida), TOKUGAWA, tokugawa)


def test_6_3_higher_bid_wins_and_both_bids_are_discarded(started):
    state = hands(started, ("mori-double", "mori-plain-1"), ("tokugawa-swords-1",))
    state, _ = apply(state, Bid(TOKUGAWA, "tokugawa-swords-1"))  # 4
    state, events = apply(state, Bid(ISHIDA, "mori-double"))  # 5
    assert BidsRevealed("mori-double", "tokugawa-swords-1", ISHIDA) in events
    assert CardsDiscarded(ISHIDA, ("mori-double",), "bid") in events
    assert CardsDiscarded(TOKUGAWA, ("tokugawa-swords-1",), "bid") in events
    assert state.cards[ISHIDA].hand == ("mori-plain-1",)
    assert state.decision.kind is DecisionKind.CHOOSE_FIRST_PLAYER
    assert state.decision.sides == {ISHIDA}


def test_6_3_bids_stay_hidden_until_both_are_in(started):
    state = hands(started, ("mori-double",), ("tokugawa-plain-1", "tokugawa-plain-2"))
    state, events = apply(state, Bid(TOKUGAWA, "tokugawa-plain-1"))
    assert [e.visible_to() for e in events] == [{TOKUGAWA}, {ISHIDA}]
    seen = view(state, ISHIDA)
    assert seen.set_aside == () and "tokugawa-plain-1" not in str(seen)
    assert state.decision.sides == {ISHIDA}
    with pytest.raises(IllegalCommand, match="not tokugawa's decision"):
        apply(state, Bid(TOKUGAWA, "tokugawa-plain-2"))


def test_r9_a_side_without_cards_bids_zero(started):
    state = hands(started, (), ("tokugawa-plain-1",))
    from rules.bidding import begin_bid
    state, _ = begin_bid(state)
    assert state.decision.sides == {TOKUGAWA}
    assert legal_commands(state, ISHIDA) == []
    state, events = apply(state, Bid(TOKUGAWA, "tokugawa-plain-1"))
    assert BidsRevealed(None, "tokugawa-plain-1", TOKUGAWA) in events


def test_r9_zero_zero_goes_to_ishida(started):
    from rules.bidding import begin_bid
    state, events = begin_bid(hands(started, (), ()))
    assert BidsRevealed(None, None, ISHIDA) in events
    assert state.decision.kind is DecisionKind.CHOOSE_FIRST_PLAYER and state.decision.sides == {ISHIDA}


def test_r9_must_bid_a_card_from_hand(started):
    state = hands(started, ("mori-plain-1",), ("tokugawa-plain-1",))
    with pytest.raises(IllegalCommand, match=r"mori-plain-2 is not in your hand \(6.3\)"):
        apply(state, Bid(ISHIDA, "mori-plain-2"))


def test_6_3_winner_names_first_player_who_moves_first(started):
    state = hands(started, ("mori-plain-1",), ("tokugawa-plain-1",))
    state, _ = apply(state, Bid(ISHIDA, "mori-plain-1"))
    state, _ = apply(state, Bid(TOKUGAWA, "tokugawa-plain-1"))  # 2 beats 1
    assert legal_commands(state, TOKUGAWA) == [ChooseFirstPlayer(TOKUGAWA, ISHIDA), ChooseFirstPlayer(TOKUGAWA, TOKUGAWA)]
    state, events = apply(state, ChooseFirstPlayer(TOKUGAWA, ISHIDA))
    assert state.first_player is ISHIDA
    assert PhaseBegan(1, Turn.A, Phase.MOVEMENT, ISHIDA) in events
    assert state.decision.kind is DecisionKind.CHOOSE_MOVEMENT and state.decision.sides == {ISHIDA}
    assert legal_commands(state, ISHIDA) == [ChooseMovement(ISHIDA, MovementOption.PASS), ChooseMovement(ISHIDA, MovementOption.MINIMAL)]


def test_6_3_a_bid_is_set_aside_in_secret_and_the_opponent_told_only_that_it_is_in(started):
    from rules.events import CardSetAside, OpponentDecided

    state = hands(started, ("mori-double",), ("tokugawa-plain-1", "tokugawa-plain-2"))
    _, events = apply(state, Bid(TOKUGAWA, "tokugawa-plain-1"))
    assert events == (CardSetAside(TOKUGAWA, "tokugawa-plain-1", "bid"), OpponentDecided(TOKUGAWA, "bid"))


def test_6_3_the_second_bid_is_set_aside_then_both_are_revealed(started):
    from rules.events import CardSetAside, OpponentDecided

    state = hands(started, ("mori-double", "mori-plain-1"), ("tokugawa-swords-1",))
    state, _ = apply(state, Bid(TOKUGAWA, "tokugawa-swords-1"))
    state, events = apply(state, Bid(ISHIDA, "mori-double"))
    assert events[:3] == (CardSetAside(ISHIDA, "mori-double", "bid"), OpponentDecided(ISHIDA, "bid"),
                          BidsRevealed("mori-double", "tokugawa-swords-1", ISHIDA))
    # Revealed and discarded: nothing is left set aside.
    assert view(state, ISHIDA).set_aside == () and view(state, TOKUGAWA).set_aside == ()


def test_r9_no_card_is_a_bid_of_zero():
    from rules.bidding import bid_value

    assert bid_value(None) == 0
    assert bid_value("tokugawa-plain-1") == 2
