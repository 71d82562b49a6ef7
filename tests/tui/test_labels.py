"""The choices list in plain words (issue 13): two different commands never look
the same, and a card always shows its kind and bid value."""

from __future__ import annotations

import pytest

from rules.components import default_components
from rules.describe import card_name
from rules.describe_commands import command_label
from rules.engine import legal_commands
from rules.notation import parse_command
from rules.infra.selfplay import random_game
from rules.sides import BOTH_SIDES, Side
from rules.view import view
from sekigahara_tui.labels import choice_lines


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_alike_commands_are_one_line_with_their_count_and_no_notation(seed):
    checked = []

    def on_step(before, command, after, events) -> None:
        for side in BOTH_SIDES:
            commands = legal_commands(after, side)
            if not commands:
                continue
            lines = choice_lines(commands, view(after, side))
            labels = [label for _, label in lines]
            assert len(set(labels)) == len(labels), [l for l in labels if labels.count(l) > 1]
            assert not any("[" in label for label in labels)  # no raw notation (issue 27, fault 4)
            # A line stands for alike commands only: its count is how many share its words.
            for command, label in lines:
                count = int(label.rsplit("×", 1)[1]) if " ×" in label else 1
                assert count == sum(1 for c in commands if command_label(c, view(after, side)) == command_label(command, view(after, side)))
            checked.append(len(labels))

    random_game(seed, on_step=on_step)
    assert sum(checked) > 1000


@pytest.mark.parametrize("line, label", [
    ("bid ukita-plain-1", "Bid: Ukita plain (1)"),
    ("bid mori-plain-10", "Bid: Mori plain (1)"),
    ("deploy ukita-double ukita-3-1", "Deploy Ukita 3-mon with Ukita double (5)"),
    ("muster osaka mori-2-1 mori-2-2 mori-3-1", "Muster 3 blocks of Mori at Osaka (shown): 2-mon, 2-mon, 3-mon"),
    ("muster sawayama ukita-2-1", "Muster Ukita 2-mon at Sawayama (hidden)"),
    ("movement limited mori-plain-3", "Limited: 3 stack moves (a muster may replace one); pay Mori plain (1)"),
    ("retreat kyoto mori-2-1", "Retreat: Mori 2-mon into the castle, the rest to Kyoto"),
    ("retreat castle mori-2-1 mori-3-1", "Retreat into the castle: Mori 2-mon, Mori 3-mon"),
    ("retreat kyoto", "Retreat all to Kyoto"),
    ("challenge ishida-loyalty-2", f"Challenge with Loyalty Challenge ({default_components().card('ishida-loyalty-2').bid})"),
    ("step kyoto", "Step to Kyoto"),
    ("first tokugawa", "Tokugawa plays first"),
])
def test_labels_read_as_words(line, label):
    assert command_label(parse_command(line, side=Side.ISHIDA)) == label


def test_every_card_shows_its_kind_and_bid_value():
    for card in default_components().cards:
        label = command_label(parse_command(f"bid {card.id}", side=Side.ISHIDA))
        assert label == f"Bid: {card_name(card.id)} ({card.bid})"


async def test_one_choice_is_counted_as_one_choice(make_app):
    """Ishida's bid with the one card in play (R9): one_card_to_bid.toml."""
    from sekigahara_tui.widgets.prompt import PromptPanel
    from tui.driving import take_seat
    from tui.positions import record_from_position

    app = make_app(record_from_position("one_card_to_bid"))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        assert screen.query_one(PromptPanel).choices.border_title == "1 choice"
