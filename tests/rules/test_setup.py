"""5 Setup (5.1, 5.2.1-5.2.3, R44)."""

from collections import Counter

from rules.components import default_components
from rules.engine import start_game
from rules.events import BlocksShown
from rules.sides import Side
from rules.state import BAG, MORI_BOX, DecisionKind, Phase
from rules.view import view

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA


def counts(state, side):
    c = default_components()
    return Counter(p for b, p in zip(c.blocks, state.positions) if b.side is side)


def test_5_1_each_player_draws_5_cards(started):
    for side in (ISHIDA, TOKUGAWA):
        assert len(started.cards[side].hand) == 5
        assert len(started.cards[side].draw_pile) == 50
        assert started.cards[side].discard_pile == ()


def test_5_1_week_1_begins_with_the_bid_not_reinforcement(started):
    assert (started.week, started.phase) == (1, Phase.BID)
    assert started.decision.kind is DecisionKind.BID
    assert started.decision.sides == {ISHIDA, TOKUGAWA}


def test_5_2_1_fixed_blocks_stand_at_their_symbols(started):
    for location, blocks in default_components().setup.fixed:
        for block in blocks:
            assert started.place_of(block) == location


def test_5_2_1_mori_box_blocks_are_face_up(started):
    assert started.blocks_at(MORI_BOX) == ("mori-leader", "mori-3-1", "mori-3-2", "mori-3-3", "mori-3-4")
    seen = view(started, TOKUGAWA)
    assert {b for b, p in seen.enemy_known if p == MORI_BOX} == set(started.blocks_at(MORI_BOX))
    _, events = start_game(1)
    assert BlocksShown(ISHIDA, MORI_BOX, started.blocks_at(MORI_BOX)) in events


def test_5_2_2_random_blocks_fill_the_plus_markers(started):
    ishida, tokugawa = counts(started, ISHIDA), counts(started, TOKUGAWA)
    # fixed + random markers
    assert {k: ishida[k] for k in ("kyoto", "osaka", "gifu", "ueda", "aizu")} == {
        "kyoto": 2, "osaka": 6 + 2, "gifu": 2, "ueda": 3, "aizu": 3 + 1}
    assert {k: tokugawa[k] for k in ("miyazu", "kanazawa", "anotsu", "kiyosu", "sendai", "hakone", "edo")} == {
        "miyazu": 1, "kanazawa": 4 + 1, "anotsu": 1, "kiyosu": 3 + 1, "sendai": 3 + 1, "hakone": 1, "edo": 4 + 2}


def test_5_2_3_four_blocks_in_each_recruitment_box_and_the_rest_in_the_bags(started):
    ishida, tokugawa = counts(started, ISHIDA), counts(started, TOKUGAWA)
    assert ishida["ishida_recruitment"] == 4 and tokugawa["tokugawa_recruitment"] == 4
    assert ishida[BAG] == 20 and tokugawa[BAG] == 22
    assert ishida[MORI_BOX] == 5


def test_r44_setup_draws_come_from_the_seed():
    assert start_game(5)[0] == start_game(5)[0]
    assert start_game(5)[0].positions != start_game(6)[0].positions


def test_5_1_starting_control_and_discs(started):
    assert started.discs == {"hideyori", "sanada"}
    assert dict(started.castle_control) == {
        "osaka": ISHIDA, "gifu": ISHIDA, "ueda": ISHIDA, "aizu": ISHIDA,
        "miyazu": TOKUGAWA, "kanazawa": TOKUGAWA, "anotsu": TOKUGAWA, "okazaki": TOKUGAWA, "hakone": TOKUGAWA}


def test_a_pair_iterates_ishida_then_tokugawa():
    from rules.pair import Pair

    assert list(Pair(1, 2)) == [1, 2]
    assert any(Pair(0, 3)) and not any(Pair(0, 0))


def test_5_1_both_decks_are_shuffled_before_the_five_cards_are_drawn():
    c = default_components()
    state, _ = start_game(1)
    for side in (ISHIDA, TOKUGAWA):
        deck_order = tuple(card.id for card in c.cards_of(side))
        cards = state.cards[side]
        assert sorted(cards.hand + cards.draw_pile) == sorted(deck_order)
        assert cards.hand + cards.draw_pile != deck_order


def test_5_1_5_2_r55_the_setup_tells_each_draw_and_placement_to_its_side_and_the_count_to_the_other():
    from rules.events import BlocksPlaced, CardsDrawn, OpponentPlacedBlocks, WeekBegan

    c = default_components()
    _, events = start_game(1)
    drawn = [e for e in events if isinstance(e, CardsDrawn)]
    assert [(e.side, len(e.cards)) for e in drawn] == [(ISHIDA, 5), (TOKUGAWA, 5)]
    placed = [e for e in events if isinstance(e, BlocksPlaced)]
    told = [e for e in events if isinstance(e, OpponentPlacedBlocks)]
    assert [(e.side, e.place, len(e.blocks)) for e in placed] == [(e.side, e.place, e.count) for e in told]
    assert all(c.block(b).side is e.side for e in placed for b in e.blocks)
    places = {e.place for e in placed}
    assert {"ishida_recruitment", "tokugawa_recruitment"} <= places  # 5.2.3
    assert {place for place, _ in c.setup.fixed if place != MORI_BOX} <= places  # 5.2.1
    assert {loc for _, placements in c.setup.random for loc, _ in placements} <= places  # 5.2.2
    assert WeekBegan(1) in events


def test_5_1_before_setup_the_marker_is_on_week_1_and_every_card_is_in_its_deck():
    """The state setup starts from (5.1 steps 1-2): week 1, turn A, the bid
    next; hands and discard piles empty, each deck whole and not yet shuffled."""
    from rules.setup import initial_state
    from rules.state import Decision, Turn

    c = default_components()
    state = initial_state(7)
    assert (state.seed, state.rng_counter, state.week, state.turn, state.phase) == (7, 0, 1, Turn.A, Phase.BID)
    assert state.decision == Decision(DecisionKind.NONE, frozenset())
    for side in (ISHIDA, TOKUGAWA):
        cards = state.cards[side]
        assert (cards.hand, cards.discard_pile) == ((), ())
        assert cards.draw_pile == tuple(card.id for card in c.cards_of(side))
    assert set(state.positions) == {BAG}
