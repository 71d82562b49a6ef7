"""The engine boundary: illegal commands change nothing and say which rule forbids them."""

import pytest

from rules.commands import Bid, ChooseFirstPlayer, EndMovement
from rules.engine import apply, legal_commands, why_illegal
from rules.errors import IllegalCommand
from helpers import peaceful_game
from rules.infra.selfplay import random_game
from rules.infra.serialise import CorruptSave, state_from_json, state_to_json
from rules.sides import Side

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA


def test_illegal_command_names_the_decision_awaited(started):
    with pytest.raises(IllegalCommand, match=r"waiting for ishida and tokugawa to bid a card for first player \(6.3\)"):
        apply(started, EndMovement(ISHIDA))


def test_illegal_command_leaves_the_state_unchanged(started):
    before = state_to_json(started)
    with pytest.raises(IllegalCommand):
        apply(started, ChooseFirstPlayer(ISHIDA, ISHIDA))
    assert state_to_json(started) == before


def test_every_legal_command_is_accepted_and_others_refused(started):
    for side in (ISHIDA, TOKUGAWA):
        for command in legal_commands(started, side):
            assert why_illegal(started, command) is None
    assert why_illegal(started, Bid(ISHIDA, "tokugawa-plain-1")) == "tokugawa-plain-1 is not in your hand (6.3)"


def test_commands_after_the_end_are_refused():
    state = peaceful_game(2).state
    with pytest.raises(IllegalCommand, match=r"the game is over \(R56\)"):
        apply(state, EndMovement(ISHIDA))


def test_saving_and_loading_gives_an_equal_state(started):
    assert state_from_json(state_to_json(started)) == started
    final = random_game(4).state  # stops at the first combat (8)
    assert state_from_json(state_to_json(final)) == final
    final = peaceful_game(4).state
    assert state_from_json(state_to_json(final)) == final


@pytest.mark.parametrize("text, message", [
    ("{not json", "not JSON"),
    ('{"seed": 1}', "not a saved game state"),
])
def test_a_corrupt_save_says_what_is_wrong(text, message):
    with pytest.raises(CorruptSave, match=message):
        state_from_json(text)
