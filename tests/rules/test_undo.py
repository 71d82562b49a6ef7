"""R58: which steps a player may take back."""

from __future__ import annotations

from helpers import combat_phase, fresh_game, movement_phase, run
from rules.engine import apply, legal_commands
from rules.sides import Side
from rules.state import MovementOption
from rules.undo import why_step_is_final, why_undo_illegal

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA


def step(state, line):
    after, events = run(state, line)
    return after, why_step_is_final(state, after, tuple(events))


def test_R58_a_hidden_move_may_be_taken_back():
    state = movement_phase(ISHIDA, MovementOption.FULL, osaka=["ukita-2-1", "ukita-2-2"])
    state, final = step(state, "ishida: move osaka")
    assert final is None
    state, final = step(state, "ishida: select ukita-2-1")
    assert final is None
    state, final = step(state, "ishida: step kyoto")
    assert final is None


def test_R58_a_secret_bid_may_be_taken_back_until_the_bids_are_revealed():
    state = fresh_game(1)
    ishida_bid = legal_commands(state, ISHIDA)[0]
    after, events = apply(state, ishida_bid)
    assert why_step_is_final(state, after, events) is None
    tokugawa_bid = legal_commands(after, TOKUGAWA)[0]
    revealed, events = apply(after, tokugawa_bid)
    assert why_step_is_final(after, revealed, events) == "it revealed hidden information: BidsRevealed (R58)"


def test_R58_a_card_play_is_final():
    state = combat_phase(ISHIDA, ("mori-plain-1",), ("date-plain-1",), sawayama=["mori-2-1", "date-2-1"],
                         entered=[("sawayama", ISHIDA, "kyoto")])
    state, final = step(state, "ishida: combat sawayama")
    assert final is None
    state, final = step(state, "ishida: deploy mori-plain-1 mori-2-1")
    assert final == "it revealed a block (R58)"


def test_R58_r17_a_leader_declaration_is_final():
    state = movement_phase(ISHIDA, MovementOption.FULL, tanabe=["kobayakawa-leader", "kobayakawa-2-1"])
    _, final = step(state, "ishida: move tanabe leader")
    assert final == "it revealed hidden information: LeaderDeclared (R58)"


def test_R58_only_the_side_that_gave_the_last_command_may_undo_it():
    assert why_undo_illegal(ISHIDA, TOKUGAWA, None) == "the last decision was tokugawa's (R58)"
    assert why_undo_illegal(ISHIDA, ISHIDA, None) is None
    assert why_undo_illegal(ISHIDA, ISHIDA, "it made a random draw (R58)") == "it made a random draw (R58)"
    assert why_undo_illegal(ISHIDA, None, None) == "there is nothing to undo"
