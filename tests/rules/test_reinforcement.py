"""6.2 Reinforcement step (R7, R8, R45)."""

from collections import Counter

from attrs import evolve

from helpers import place, with_hand
from rules.commands import ReinforcementDiscard
from rules.components import default_components
from rules.engine import apply, legal_commands
from rules.events import CardsDiscarded, CardSetAside, OpponentDecided
from rules.reinforcement import begin_reinforcement, discard_requirement
from rules.sides import Side
from rules.state import BAG, DecisionKind, Phase, sorted_pairs
from rules.view import view

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA


def week(state, number, ishida_hand, tokugawa_hand):
    state = with_hand(state, ISHIDA, ishida_hand)
    state = with_hand(state, TOKUGAWA, tokugawa_hand)
    return begin_reinforcement(evolve(state, week=number))


ISHIDA_7 = tuple(f"mori-plain-{n}" for n in range(1, 8))
TOKUGAWA_4 = tuple(f"tokugawa-plain-{n}" for n in range(1, 5))


def box_count(state, side):
    return Counter(state.place_of(b.id) for b in default_components().blocks_of(side))[f"{side.value}_recruitment"]


def test_r7_discard_half_rounded_down(started):
    state = with_hand(started, ISHIDA, ISHIDA_7)
    assert discard_requirement(state, ISHIDA) == 3
    state = with_hand(state, ISHIDA, ("mori-plain-1",))
    assert discard_requirement(state, ISHIDA) == 0


def test_6_2_both_sides_discard_at_once(started):
    state, _ = week(started, 2, ISHIDA_7, TOKUGAWA_4)
    assert state.phase is Phase.REINFORCEMENT
    assert state.decision.kind is DecisionKind.REINFORCEMENT_DISCARD
    assert state.decision.sides == {ISHIDA, TOKUGAWA}
    assert len(legal_commands(state, ISHIDA)) == 7


def test_r45_discards_are_secret_until_both_have_chosen(started):
    state, _ = week(started, 2, ISHIDA_7, TOKUGAWA_4)
    state, events = apply(state, ReinforcementDiscard(ISHIDA, "mori-plain-1"))
    assert events == (CardSetAside(ISHIDA, "mori-plain-1", "reinforcement"),)
    assert events[0].visible_to() == {ISHIDA}
    assert view(state, ISHIDA).set_aside == ("mori-plain-1",)
    assert view(state, TOKUGAWA).set_aside == ()
    assert "mori-plain-1" not in str(view(state, TOKUGAWA))
    for card in ("mori-plain-2", "mori-plain-3"):
        state, events = apply(state, ReinforcementDiscard(ISHIDA, card))
    assert OpponentDecided(ISHIDA, "reinforcement") in events
    assert state.decision.sides == {TOKUGAWA}
    assert state.cards[ISHIDA].discard_pile == ()  # nothing shown yet


def test_6_2_discards_revealed_then_cards_and_blocks_drawn(started):
    state, _ = week(started, 2, ISHIDA_7, TOKUGAWA_4)
    boxes = box_count(state, ISHIDA), box_count(state, TOKUGAWA)
    for card in ("mori-plain-1", "mori-plain-2", "mori-plain-3"):
        state, _ = apply(state, ReinforcementDiscard(ISHIDA, card))
    state, _ = apply(state, ReinforcementDiscard(TOKUGAWA, "tokugawa-plain-1"))
    state, events = apply(state, ReinforcementDiscard(TOKUGAWA, "tokugawa-plain-2"))
    assert CardsDiscarded(ISHIDA, ("mori-plain-1", "mori-plain-2", "mori-plain-3"), "reinforcement") in events
    assert CardsDiscarded(TOKUGAWA, ("tokugawa-plain-1", "tokugawa-plain-2"), "reinforcement") in events
    # Tokugawa controls 5 castles to Ishida's 4: a 6th card (6.2 step 2).
    assert len(state.cards[ISHIDA].hand) == 4 + 5
    assert len(state.cards[TOKUGAWA].hand) == 2 + 6
    # Week 2: 2 blocks; resources tied 1-1, so both draw +1 (6.2 step 3).
    assert (box_count(state, ISHIDA), box_count(state, TOKUGAWA)) == (boxes[0] + 3, boxes[1] + 3)
    assert state.phase is Phase.BID


def test_r8_the_side_with_more_castles_draws_the_sixth_card(started):
    """Every one of the 9 castles always has a controller (4.3), so the counts
    can never tie and R8's tie case cannot arise; the 6th card follows the lead."""
    castles = dict(started.castle_control) | {"hakone": ISHIDA}
    state = evolve(started, castle_control=sorted_pairs(castles))
    state, _ = week(state, 3, ("mori-plain-1",), ("tokugawa-plain-1",))  # nothing to discard
    assert len(state.cards[ISHIDA].hand) == 1 + 6
    assert len(state.cards[TOKUGAWA].hand) == 1 + 5


def test_6_2_more_resource_locations_draw_an_extra_block_in_weeks_5_to_7(started):
    control = dict(started.resource_control) | {"tsuruga": ISHIDA}
    state = evolve(started, resource_control=sorted_pairs(control))
    boxes = box_count(state, ISHIDA), box_count(state, TOKUGAWA)
    state, _ = week(state, 5, (), ())
    assert (box_count(state, ISHIDA), box_count(state, TOKUGAWA)) == (boxes[0] + 2, boxes[1] + 1)


def test_r45_an_empty_bag_gives_only_what_it_holds(started):
    c = default_components()
    in_bag = [b for b in started.blocks_at(BAG, ISHIDA)]
    state = place(started, eliminated=in_bag[1:])
    state, _ = week(state, 2, (), ())
    assert state.blocks_at(BAG, ISHIDA) == ()
    assert state.place_of(in_bag[0]) == "ishida_recruitment"
    assert len(c.blocks_of(ISHIDA)) == 48


def test_r45_the_last_discard_is_set_aside_and_told_before_both_are_revealed(started):
    state, _ = week(started, 2, ISHIDA_7, TOKUGAWA_4)
    for side, card in [(ISHIDA, "mori-plain-1"), (ISHIDA, "mori-plain-2"), (ISHIDA, "mori-plain-3"),
                       (TOKUGAWA, "tokugawa-plain-1")]:
        state, _ = apply(state, ReinforcementDiscard(side, card))
    state, events = apply(state, ReinforcementDiscard(TOKUGAWA, "tokugawa-plain-2"))
    assert events[:3] == (CardSetAside(TOKUGAWA, "tokugawa-plain-2", "reinforcement"),
                          OpponentDecided(TOKUGAWA, "reinforcement"),
                          CardsDiscarded(ISHIDA, ("mori-plain-1", "mori-plain-2", "mori-plain-3"), "reinforcement"))


def test_r45_both_sides_decide_at_once_so_no_side_is_active(started):
    state, _ = week(evolve(started, active=TOKUGAWA), 2, ISHIDA_7, TOKUGAWA_4)
    assert state.phase is Phase.REINFORCEMENT and state.active is None

