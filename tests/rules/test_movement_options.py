"""7.1 Movement Phase and cards for movement (R10)."""

import pytest
from attrs import evolve

from helpers import movement_phase, run, with_hand
from rules.commands import BeginMove, ChooseMovement, EnterFromMoriBox, EndExchange, EndMovement, ExchangeCard, Muster
from rules.describe import describe
from rules.describe_commands import command_label
from rules.engine import apply, help_for, legal_commands
from rules.errors import IllegalCommand
from rules.events import CardsDiscarded, CardsDrawn, MovementChosen
from rules.movement import MOVEMENT_OPTIONS, begin_movement_phase, card_cost
from rules.sides import Side
from rules.state import DecisionKind, MovementOption

ISHIDA = Side.ISHIDA
HAND = ("mori-plain-1", "mori-plain-2", "ukita-plain-1", "ukita-swords-1", "uesugi-double")


def phase(started, hand=HAND):
    state = evolve(with_hand(started, ISHIDA, hand), first_player=ISHIDA)
    return begin_movement_phase(state, ISHIDA)[0]


def test_7_1_r10_four_options_costing_0_0_1_2_cards(started):
    choices = legal_commands(phase(started), ISHIDA)
    by_option = {o: [c for c in choices if c.option is o] for o in MovementOption}
    assert [len(by_option[o]) for o in MovementOption] == [1, 1, 5, 10]
    assert [card_cost(o) for o in MovementOption] == [0, 0, 1, 2]
    assert all(len(c.cards) == card_cost(c.option) for c in choices)


def test_7_1_full_movement_discards_two_cards_face_up(started):
    state, events = apply(phase(started), ChooseMovement(ISHIDA, MovementOption.FULL, ("ukita-plain-1", "mori-plain-2")))
    assert events == (MovementChosen(ISHIDA, MovementOption.FULL),
                      CardsDiscarded(ISHIDA, ("mori-plain-2", "ukita-plain-1"), "movement"))
    assert state.cards[ISHIDA].hand == ("mori-plain-1", "ukita-swords-1", "uesugi-double")
    assert state.decision.kind is DecisionKind.MOVE
    legal = legal_commands(state, ISHIDA)
    assert BeginMove(ISHIDA, "osaka") in legal and legal[-1] == EndMovement(ISHIDA)


def test_7_1_limited_movement_costs_exactly_one_card(started):
    with pytest.raises(IllegalCommand, match=r"limited movement costs 1 card, not 2 \(7.1\)"):
        apply(phase(started), ChooseMovement(ISHIDA, MovementOption.LIMITED, ("mori-plain-1", "mori-plain-2")))


def test_7_1_cannot_pay_with_a_card_not_in_hand(started):
    with pytest.raises(IllegalCommand, match=r"ukita-plain-7 is not in your hand \(7.1\)"):
        apply(phase(started), ChooseMovement(ISHIDA, MovementOption.LIMITED, ("ukita-plain-7",)))


def test_7_1_with_one_card_full_movement_is_not_offered(started):
    choices = legal_commands(phase(started, ("mori-plain-1",)), ISHIDA)
    assert {c.option for c in choices} == {MovementOption.PASS, MovementOption.MINIMAL, MovementOption.LIMITED}


def test_7_1_no_movement_exchanges_any_number_of_cards(started):
    state, _ = apply(phase(started), ChooseMovement(ISHIDA, MovementOption.PASS))
    assert state.decision.kind is DecisionKind.EXCHANGE_CARDS
    legal = legal_commands(state, ISHIDA)
    mori = [EnterFromMoriBox(ISHIDA, "mori-3-1", c) for c in HAND]  # R42: under any option
    assert legal == [*(ExchangeCard(ISHIDA, c) for c in HAND), *mori, EndExchange(ISHIDA)]
    top = state.cards[ISHIDA].draw_pile[:2]
    state, events = apply(state, ExchangeCard(ISHIDA, "mori-plain-1"))
    assert events == (CardsDiscarded(ISHIDA, ("mori-plain-1",), "exchange"),)
    state, _ = apply(state, ExchangeCard(ISHIDA, "uesugi-double"))
    state, events = apply(state, EndExchange(ISHIDA))
    assert CardsDrawn(ISHIDA, top) in events
    assert state.cards[ISHIDA].hand == ("mori-plain-2", "ukita-plain-1", "ukita-swords-1", *top)
    assert state.cards[ISHIDA].discard_pile[-2:] == ("mori-plain-1", "uesugi-double")
    assert state.active is Side.TOKUGAWA  # the phase is over; Ishida's empty Combat Phase too


def test_7_1_no_movement_with_no_exchange_keeps_the_hand(started):
    state, _ = apply(phase(started), ChooseMovement(ISHIDA, MovementOption.PASS))
    state, events = apply(state, EndExchange(ISHIDA))
    assert state.cards[ISHIDA].hand == HAND
    assert not any(isinstance(e, CardsDrawn) for e in events)


def test_7_1_full_movement_costs_two_cards_and_the_same_card_cannot_pay_twice(started):
    with pytest.raises(IllegalCommand, match=r"^full movement costs 2 cards, not 1 \(7\.1\)$"):
        apply(phase(started), ChooseMovement(ISHIDA, MovementOption.FULL, ("mori-plain-1",)))
    with pytest.raises(IllegalCommand, match=r"^the same card cannot be discarded twice \(7\.1\)$"):
        apply(phase(started), ChooseMovement(ISHIDA, MovementOption.FULL, ("mori-plain-1", "mori-plain-1")))


def test_7_1_a_movement_phase_begins_with_nothing_chosen_or_used(started):
    from rules.state import MovementPhase

    state = phase(started)
    assert state.decision.kind is DecisionKind.CHOOSE_MOVEMENT
    assert state.movement == MovementPhase()


# --- the table of options: what each allows, and its words ------------------------------

SOURCES = {"osaka": ["ukita-2-1"], "kyoto": ["mori-2-1"], "gifu": ["mori-2-2"], "ueda": ["mori-2-3"], "sawayama": ["ukita-2-2"]}


@pytest.mark.parametrize("muster_first", [False, True], ids=["moves-only", "muster-first"])
@pytest.mark.parametrize("option", [MovementOption.MINIMAL, MovementOption.LIMITED, MovementOption.FULL], ids=lambda option: option.value)
def test_7_1_each_option_allows_the_stack_moves_and_muster_of_its_row(option, muster_first):
    """Minimal: 1 stack move or 1 muster; Limited: 3 stack moves, one of which
    may be a muster; Full: every stack, plus 1 muster (movement.MOVEMENT_OPTIONS)."""
    state = movement_phase(ISHIDA, option, **SOURCES, ishida_recruitment=["mori-3-5"])
    if muster_first:
        state, _ = run(state, "ishida: muster himeji mori-3-5")
    moves = 0
    while begins := [c for c in legal_commands(state, ISHIDA) if isinstance(c, BeginMove)]:
        state, _ = run(state, f"ishida: move {begins[0].source}", "ishida: done")
        moves += 1
    allowed = MOVEMENT_OPTIONS[option]
    if allowed.stack_moves is None:
        assert moves == len(SOURCES)
    else:
        assert moves == allowed.stack_moves - (muster_first and allowed.muster_is_a_move)
    muster_left = any(isinstance(c, Muster) for c in legal_commands(state, ISHIDA))
    assert muster_left == (not muster_first and not allowed.muster_is_a_move)
    assert [moves, muster_left] == {
        (MovementOption.MINIMAL, False): [1, False], (MovementOption.MINIMAL, True): [0, False],
        (MovementOption.LIMITED, False): [3, False], (MovementOption.LIMITED, True): [2, False],
        (MovementOption.FULL, False): [5, True], (MovementOption.FULL, True): [5, False],
    }[option, muster_first]


@pytest.mark.parametrize("option", list(MovementOption), ids=lambda option: option.value)
def test_7_1_the_choices_the_log_and_the_help_word_an_option_from_its_row(option):
    allowed = MOVEMENT_OPTIONS[option]
    assert command_label(ChooseMovement(ISHIDA, option)) == allowed.choice
    assert describe(MovementChosen(ISHIDA, option), ISHIDA) == f"You choose {allowed.chosen} (7.1)."
    cards = f"{allowed.cards} card" + "s" * (allowed.cards != 1)
    assert f"{option.value} ({cards}): {allowed.explained}" in help_for(DecisionKind.CHOOSE_MOVEMENT).text.splitlines()
