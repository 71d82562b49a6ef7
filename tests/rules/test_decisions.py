"""A decision in one place (issue 22): one DecisionRules per decision kind,
defined in the rulebook module that asks it; and one definition of legality,
the legal list, with a reason worked out only for a refused command."""

from __future__ import annotations

import attrs
import pytest

from rules import engine
from helpers import movement_phase
from rules.commands import Bid, Muster
from rules.decision import DecisionRules
from rules.engine import DECISIONS, apply, start_game
from rules.errors import IllegalCommand
from rules.sides import Side
from rules.state import DecisionKind, MovementOption


def test_every_decision_kind_is_one_object_of_a_rulebook_module():
    """The engine gathers them; each is defined where its decision is asked."""
    import rules.battle, rules.bidding, rules.combat, rules.movement  # noqa: E401
    import rules.reinforcement, rules.stack_moves, rules.victory  # noqa: E401

    modules = (rules.battle, rules.bidding, rules.combat, rules.movement, rules.reinforcement,
               rules.stack_moves, rules.victory)
    assert set(DECISIONS) == set(DecisionKind)
    for kind, decision in DECISIONS.items():
        assert decision.kind is kind
        owners = [m.__name__ for m in modules if any(value is decision for value in vars(m).values())]
        assert len(owners) == 1, f"{kind.value}: defined in {owners}"
    assert not any(isinstance(value, DecisionRules) for value in vars(engine).values())


def test_a_legal_command_is_applied_without_working_out_a_reason(monkeypatch):
    """One definition of legality: a listed command is taken as listed; the
    answer's check runs only to say why a command is refused."""
    asked = []
    bid = DECISIONS[DecisionKind.BID]
    answer = bid.answers[Bid]

    def check(state, command):
        asked.append(command)
        return answer.check(state, command)

    checked = attrs.evolve(bid, answers={Bid: attrs.evolve(answer, check=check)})
    monkeypatch.setitem(engine.DECISIONS, DecisionKind.BID, checked)
    state, _ = start_game(1)
    hand = state.cards[Side.ISHIDA].hand
    apply(state, Bid(Side.ISHIDA, hand[0]))
    assert asked == []
    wrong = Bid(Side.ISHIDA, "tokugawa-plain-1")
    with pytest.raises(IllegalCommand, match=r"^tokugawa-plain-1 is not in your hand \(6\.3\)$"):
        apply(state, wrong)
    assert asked == [wrong]


def test_a_command_naming_no_piece_at_all_is_refused_with_its_reason():
    """Telling alike pieces apart never looks up an id that is no piece: the
    command is refused in the check's words (7.2)."""
    state = movement_phase(Side.ISHIDA, MovementOption.FULL, ishida_recruitment=["mori-2-2"])
    with pytest.raises(IllegalCommand, match=r"^no-such-block is not in your Recruitment Box \(7\.2\)$"):
        apply(state, Muster(Side.ISHIDA, "himeji", ("no-such-block",)))
