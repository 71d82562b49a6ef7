"""6.1 and 6.4: the weekly cycle and the phases of turns A and B."""

from helpers import with_hand
from rules.commands import Bid, ChooseFirstPlayer, ChooseMovement, EndMovement
from rules.engine import apply
from rules.events import PhaseBegan, WeekBegan
from rules.sides import Side
from rules.state import DecisionKind, MovementOption, Phase, Turn

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA


def through_the_bid(state, first):
    state = with_hand(with_hand(state, ISHIDA, ("mori-plain-1",)), TOKUGAWA, ("tokugawa-plain-1",))
    state, _ = apply(state, Bid(ISHIDA, "mori-plain-1"))
    state, _ = apply(state, Bid(TOKUGAWA, "tokugawa-plain-1"))
    return apply(state, ChooseFirstPlayer(TOKUGAWA, first))


def minimal_move(state):
    side = state.active
    state, events1 = apply(state, ChooseMovement(side, MovementOption.MINIMAL))
    state, events2 = apply(state, EndMovement(side))
    return state, events1 + events2


def test_6_4_four_phases_a_turn_first_player_first_in_both_turns(started):
    state, events = through_the_bid(started, ISHIDA)
    phases = [e for e in events if isinstance(e, PhaseBegan)]
    for _ in range(4):
        state, events = minimal_move(state)
        phases += [e for e in events if isinstance(e, PhaseBegan)]
    assert [(e.turn, e.phase, e.active) for e in phases] == [
        (Turn.A, Phase.MOVEMENT, ISHIDA), (Turn.A, Phase.COMBAT, ISHIDA),
        (Turn.A, Phase.MOVEMENT, TOKUGAWA), (Turn.A, Phase.COMBAT, TOKUGAWA),
        (Turn.B, Phase.MOVEMENT, ISHIDA), (Turn.B, Phase.COMBAT, ISHIDA),
        (Turn.B, Phase.MOVEMENT, TOKUGAWA), (Turn.B, Phase.COMBAT, TOKUGAWA),
    ]


def test_6_1_after_turn_b_the_next_week_begins_with_reinforcement(started):
    state, _ = through_the_bid(started, TOKUGAWA)
    for _ in range(4):
        state, events = minimal_move(state)
    assert WeekBegan(2) in events
    assert (state.week, state.turn) == (2, Turn.A)
    assert state.phase in (Phase.REINFORCEMENT, Phase.BID)
    if state.phase is Phase.REINFORCEMENT:
        assert state.decision.kind is DecisionKind.REINFORCEMENT_DISCARD


def test_6_4_a_combat_phase_with_no_combat_passes_at_once(started):
    state, _ = through_the_bid(started, ISHIDA)
    state, events = minimal_move(state)
    assert PhaseBegan(1, Turn.A, Phase.COMBAT, ISHIDA) in events
    assert (state.phase, state.active) == (Phase.MOVEMENT, TOKUGAWA)


def test_r51_the_record_of_entries_starts_afresh_with_a_new_weeks_first_turn(started):
    """A move in week 1's turn B is recorded (R51); when week 2's turn A
    begins, after reinforcement and the bid, the record is empty again."""
    from attrs import evolve

    from rules.engine import legal_commands

    state, _ = through_the_bid(started, ISHIDA)
    for _ in range(2):
        state, _ = minimal_move(state)
    state = evolve(state, entered_from=(("kyoto", ISHIDA, "osaka"),))  # as if a turn B move had been made
    for _ in range(2):
        state, _ = minimal_move(state)
    while state.phase is not Phase.MOVEMENT:
        side = sorted(state.decision.sides)[0]
        state, _ = apply(state, legal_commands(state, side)[0])
    assert (state.week, state.turn) == (2, Turn.A) and state.entered_from == ()


def test_6_1_a_new_week_has_no_first_player_until_its_bid(started):
    """Week 2's reinforcement step (6.2) comes before the bid (6.3): until the
    bid is won nobody is first, and nobody is active."""
    state, _ = through_the_bid(started, ISHIDA)
    for _ in range(3):
        state, _ = minimal_move(state)
    state = with_hand(with_hand(state, ISHIDA, ("mori-plain-1", "mori-plain-2")), TOKUGAWA,
                      ("tokugawa-plain-1", "tokugawa-plain-2"))
    state, _ = minimal_move(state)
    assert (state.week, state.phase) == (2, Phase.REINFORCEMENT)
    assert state.first_player is None and state.active is None
