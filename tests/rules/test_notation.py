"""The one-line text form of commands (docs/notation.md)."""

import pytest

from rules.commands import (
    BeginMove, Bid, ChooseFirstPlayer, ChooseMovement, Deselect, EndExchange, EndMovement, EndStackMove,
    EnterFromMoriBox, ExchangeCard, ForceMarch, Halt, Muster, ReinforcementDiscard, Select, Step,
)
from rules.notation import NotationError, format_command, parse_command
from rules.sides import Side
from rules.state import MovementOption

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA

EXAMPLES = [
    (ReinforcementDiscard(ISHIDA, "mori-plain-3"), "ishida: discard mori-plain-3"),
    (Bid(TOKUGAWA, "tokugawa-swords-2"), "tokugawa: bid tokugawa-swords-2"),
    (ChooseFirstPlayer(ISHIDA, TOKUGAWA), "ishida: first tokugawa"),
    (ChooseMovement(TOKUGAWA, MovementOption.PASS), "tokugawa: movement pass"),
    (ChooseMovement(TOKUGAWA, MovementOption.LIMITED, ("date-plain-1",)), "tokugawa: movement limited date-plain-1"),
    (ChooseMovement(ISHIDA, MovementOption.FULL, ("ukita-plain-1", "mori-plain-2")), "ishida: movement full mori-plain-2 ukita-plain-1"),
    (ExchangeCard(ISHIDA, "uesugi-double"), "ishida: exchange uesugi-double"),
    (EndExchange(ISHIDA), "ishida: draw"),
    (EndMovement(TOKUGAWA), "tokugawa: end"),
    (BeginMove(ISHIDA, "osaka"), "ishida: move osaka"),
    (BeginMove(ISHIDA, "tanabe", leader=True), "ishida: move tanabe leader"),
    (Select(ISHIDA, "ukita-2-1"), "ishida: select ukita-2-1"),
    (Deselect(ISHIDA, "ukita-2-1"), "ishida: deselect ukita-2-1"),
    (ForceMarch(TOKUGAWA, "date-plain-3"), "tokugawa: march date-plain-3"),
    (Step(TOKUGAWA, "kiyosu"), "tokugawa: step kiyosu"),
    (Halt(TOKUGAWA), "tokugawa: halt"),
    (EndStackMove(TOKUGAWA), "tokugawa: done"),
    (Muster(ISHIDA, "himeji", ("mori-2-2", "mori-2-1")), "ishida: muster himeji mori-2-1 mori-2-2"),
    (EnterFromMoriBox(ISHIDA, "mori-3-1", "ukita-plain-3"), "ishida: mori mori-3-1 ukita-plain-3"),
]


@pytest.mark.parametrize("command, text", EXAMPLES)
def test_every_command_formats_and_parses_back(command, text):
    assert format_command(command) == text
    assert parse_command(text) == command
    assert parse_command(format_command(command, with_side=False), side=command.side) == command


def test_parse_tolerates_spacing():
    assert parse_command("  ishida :  bid   mori-plain-1 ") == Bid(ISHIDA, "mori-plain-1")


@pytest.mark.parametrize("line, message", [
    ("osaka: bid mori-plain-1", "unknown side 'osaka'"),
    ("bid mori-plain-1", "does not say which side"),
    ("ishida: fly kyoto", "unknown command 'fly'"),
    ("ishida: bid", r"bid: missing card: bid <card>"),
    ("ishida: bid a b", "too many words"),
    ("ishida: movement sprint", "option must be one of pass, minimal, limited, full, not 'sprint'"),
    ("ishida:", "an empty line is not a command"),
])
def test_bad_lines_say_what_is_wrong(line, message):
    with pytest.raises(NotationError, match=message):
        parse_command(line)
