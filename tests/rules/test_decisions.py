"""A decision in one place (issue 22): one DecisionRules per decision kind,
defined in the rulebook module that asks it; the command that finishes it,
worked out on the view and never sent; and one definition of legality, the
legal list, with a reason worked out only for a refused command."""

from __future__ import annotations

import attrs
import pytest

from rules import engine
from helpers import movement_phase
from rules.commands import AllowPlay, Bid, DeclareDone, EndExchange, EndMovement, EndStackMove, Muster
from rules.decision import DecisionRules
from rules.engine import DECISIONS, apply, legal_commands, start_game
from rules.errors import IllegalCommand
from rules.infra.selfplay import random_game
from rules.sides import BOTH_SIDES, Side
from rules.state import DecisionKind, MovementOption
from rules.view import PlayerView, spectator_view, view
from sekigahara_tui.net.protocol import State, decode_host_message, encode
from sekigahara_tui.net.state_encoding import ViewEncoder

# What the app's ctrl+e gave before the decisions said it: whichever of these was legal.
ENDING_COMMANDS = (EndStackMove, EndMovement, EndExchange, DeclareDone, AllowPlay)


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


def test_the_finishing_commands_are_the_ones_that_end_a_move_or_a_phase_pass_or_allow():
    finishing = {kind: d.finishing for kind, d in DECISIONS.items() if d.finishing is not None}
    assert finishing == {
        DecisionKind.EXCHANGE_CARDS: EndExchange,
        DecisionKind.MOVE: EndMovement,
        DecisionKind.STACK_MOVE: EndStackMove,
        DecisionKind.DEPLOY: DeclareDone,
        DecisionKind.CHALLENGE: AllowPlay,
    }


def test_a_finishing_command_must_answer_its_decision():
    bid = DECISIONS[DecisionKind.BID]
    with pytest.raises(TypeError, match="EndMovement finishes it but does not answer it"):
        attrs.evolve(bid, finishing=EndMovement)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_view_finishing_command_is_the_legal_one_that_ends_something(seed):
    seen = set()

    def on_step(before, command, after, events) -> None:
        for side in BOTH_SIDES:
            v = view(after, side)
            expected = next((c for c in v.legal if isinstance(c, ENDING_COMMANDS)), None)
            assert v.finishing_command == expected
            seen.add(type(expected))
        assert spectator_view(after).finishing_command is None

    random_game(seed, on_step=on_step)
    assert set(ENDING_COMMANDS) <= seen and type(None) in seen


def test_the_finishing_command_is_not_sent_but_worked_out_by_the_client():
    assert "finishing_command" not in {a.name for a in attrs.fields(PlayerView)}
    state, _ = start_game(3)
    state = _until(state, DecisionKind.MOVE)
    side = next(iter(state.decision.sides))
    sent = view(state, side)
    line = encode(State(1, 1, None, sent, 1, (), None, False))
    assert b"finishing" not in line
    assert ViewEncoder().encode(sent).encode() in line
    received = decode_host_message(line).view
    assert received.finishing_command == sent.finishing_command == EndMovement(side)


def _until(state, kind: DecisionKind):
    """Play the last legal command of each decision (full movement, at the
    movement option) until one of `kind`."""
    while state.decision.kind is not kind:
        side = min(state.decision.sides)
        state, _ = apply(state, legal_commands(state, side)[-1])
    return state


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
