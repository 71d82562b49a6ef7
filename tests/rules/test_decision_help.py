"""The in-game help: one entry per decision kind, citing well-formed rule
numbers, and the player's guide shipped inside the sekigahara_tui package."""

import re
from importlib.resources import files

import pytest

from rules.decision import DecisionHelp
from rules.engine import DECISIONS, help_for
from rules.state import DecisionKind

RULE_NUMBER = re.compile(r"^\d+(\.\d+)*$|^R\d+$")


def test_every_decision_kind_has_help():
    for kind in DecisionKind:
        assert isinstance(help_for(kind), DecisionHelp)
        assert help_for(kind) is DECISIONS[kind].help


@pytest.mark.parametrize("kind", list(DecisionKind), ids=lambda k: k.value)
def test_help_cites_well_formed_rule_numbers(kind):
    entry = help_for(kind)
    assert entry.title.strip()
    assert entry.rules.strip()
    numbers = [part.strip() for part in entry.rules.split(",")]
    assert numbers and all(numbers)
    for number in numbers:
        assert RULE_NUMBER.match(number), f"{kind.value}: bad rule number {number!r}"
    assert entry.rule_numbers() == tuple(numbers)


@pytest.mark.parametrize("kind", list(DecisionKind), ids=lambda k: k.value)
def test_help_text_is_3_to_10_lines(kind):
    lines = help_for(kind).text.splitlines()
    assert 3 <= len(lines) <= 10
    assert all(line.strip() for line in lines)


@pytest.mark.parametrize("kind", list(DecisionKind), ids=lambda k: k.value)
def test_help_names_the_verbs_that_answer(kind):
    """The verbs of rules.commands that answer the decision (its answers)."""
    text = help_for(kind).text
    for verb in sorted(command.VERB for command in DECISIONS[kind].answers):
        assert re.search(rf"\b{verb}\b", text), f"{kind.value}: help does not name `{verb}`"


def test_game_over_help_cites_victory_rules():
    assert {"2.1", "2.2", "R56"} <= set(help_for(DecisionKind.NONE).rule_numbers())


def test_help_is_frozen():
    entry = help_for(DecisionKind.BID)
    with pytest.raises(AttributeError):
        entry.title = "x"  # type: ignore[misc]


def test_rules_help_is_packaged_with_the_module():
    guide = files("sekigahara_tui") / "rules_help.md"
    text = guide.read_text(encoding="utf-8")
    headings = [line for line in text.splitlines() if line.startswith("#")]
    for part in range(2, 10):
        assert any(re.match(rf"^##+ {part}(\.\d+)* ", h) for h in headings), f"no heading for part {part}"
    assert any(h.startswith("## Playing in the terminal") for h in headings)
