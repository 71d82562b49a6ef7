"""Choice labels (rules.describe_commands): one registry, beside the log's
describers, with exactly one label per command type of rules.commands."""

from __future__ import annotations

import pytest

from helpers import movement_phase, run
from rules.commands import COMMAND_TYPES, Bid, Deselect, Select
from rules.describe_commands import COMMAND_LABELS, _labels, command_label
from rules.engine import legal_commands
from rules.sides import Side
from rules.state import MovementOption
from rules.view import view


def test_every_command_type_has_exactly_one_label():
    missing = sorted(cls.__name__ for cls in COMMAND_TYPES if cls not in COMMAND_LABELS)
    assert missing == []
    assert set(COMMAND_LABELS) == set(COMMAND_TYPES)


def test_a_second_label_for_a_command_type_is_refused():
    with pytest.raises(TypeError, match="two labels for Bid"):
        _labels(Bid)(lambda command, view: "again")
    assert command_label(Bid(Side.ISHIDA, "ukita-plain-1")) == "Bid: Ukita plain (1)"


def test_what_is_no_command_has_no_label():
    with pytest.raises(TypeError, match="no label for command str"):
        command_label("bid ukita-plain-1")


def test_a_label_says_how_far_a_block_of_the_stack_move_has_come():
    """The seat's view adds what it knows: a block's steps so far (7.3)."""
    state = movement_phase(Side.ISHIDA, MovementOption.FULL, osaka=["ukita-2-1", "ukita-2-2"])
    state, _ = run(state, "ishida: move osaka", "ishida: select ukita-2-1", "ishida: step kyoto")
    assert _stack_labels(state) == ["Leave Ukita 2-mon behind (moved 1)"]
    state, _ = run(state, "ishida: deselect ukita-2-1")
    assert _stack_labels(state) == ["Select Ukita 2-mon (moved 1)", "Select Ukita 2-mon"]
    assert command_label(Deselect(Side.ISHIDA, "ukita-2-1")) == "Leave Ukita 2-mon behind"


def _stack_labels(state) -> list[str]:
    seat = view(state, Side.ISHIDA)
    return [command_label(c, seat) for c in legal_commands(state, Side.ISHIDA) if isinstance(c, (Select, Deselect))]
