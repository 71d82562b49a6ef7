"""One is singular (issue 27 play-test, item 7): "1 card", "1 match".
tests/tui/position_files/one_card_to_bid.toml: Ishida holds one card, Tokugawa none."""

from __future__ import annotations

from pathlib import Path

from rules.infra.record import save_record
from sekigahara_tui.local import LocalTable
from sekigahara_tui.widgets.hand import hand_caption
from sekigahara_tui.widgets.prompt import PromptPanel
from tui.driving import take_seat
from tui.positions import record_from_position


def test_a_hand_of_one_is_one_card(tmp_path: Path):
    save_record(record_from_position("one_card_to_bid"), tmp_path / "game.json")
    table = LocalTable.load(tmp_path / "game.json", autosave=tmp_path / "autosave.json")
    ishida, tokugawa = (table.seats[side].view for side in sorted(table.seats, key=lambda s: s.value))
    assert hand_caption(ishida) == "1 card; enemy holds 0 cards"
    assert hand_caption(tokugawa) == "0 cards; enemy holds 1 card"


async def test_one_match_is_one_match_and_two_are_matches(make_app):
    async with make_app(record_from_position("tokugawa_chooses_movement")).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        prompt = screen.query_one(PromptPanel)
        await pilot.press("colon", *"movement limited tokugawa-")
        assert prompt.choices.border_title == "2 matches"
        await pilot.press("p")
        assert prompt.choices.border_title == "1 match: Enter gives it"
