"""Issue 27, item 9: after the other player's Movement Phase (the computer's,
or another terminal's), a summary like the battle summary: the option, what
moved where (counts only: hidden blocks stay hidden, R55), musters, and where
both sides now stand. From tests/tui/position_files/stack_of_four_at_osaka.toml."""

from __future__ import annotations

import attrs

from rules.sides import Side
from sekigahara_tui.hosting.host import GameHost
from sekigahara_tui.screens.info import BattleSummaryScreen
from sekigahara_tui.screens.movement_summaries import movement_summaries
from tui.driving import until
from tui.positions import record_from_position

ISHIDA_MOVES = ("movement minimal", "move osaka", "select ishida-leader", "select ukita-leader", "step kyoto", "done", "end")


def test_the_other_sides_movement_phase_in_words_from_this_sides_log():
    host = GameHost.from_record(record_from_position("stack_of_four_at_osaka"))
    for line in ISHIDA_MOVES:
        host.submit_text(line, Side.ISHIDA)
    log = [event for step in host.step_events(Side.TOKUGAWA) for event in step]
    summaries, done = movement_summaries(log, 0, Side.TOKUGAWA)
    assert summaries == [("Ishida's movement", [
        "Ishida chooses Minimal movement: 1 stack move or 1 muster (7.1).",
        "Ishida moves 2 blocks from Osaka to Kyoto (7.3).",
        "Ishida's Movement Phase ends.",
    ])]
    assert done == len(log)
    assert movement_summaries(log, 0, Side.ISHIDA) == ([], len(log))  # a side is not told its own moves
    partial = [event for step in host.step_events(Side.TOKUGAWA)[:3] for event in step]
    assert movement_summaries(partial, 0, Side.TOKUGAWA)[0] == []  # a phase under way: told when it ends


async def test_after_the_computers_movement_the_player_sees_the_summary(make_app):
    record = attrs.evolve(record_from_position("stack_of_four_at_osaka"), computer="ishida:heuristic")
    app = make_app(record)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, BattleSummaryScreen) and app.screen._title == "Ishida's movement",
                    "the summary of the computer's Movement Phase")
        lines = app.screen._lines
        assert lines[0].startswith("Ishida chooses ") and lines[-1].endswith(("(8.1).", "blocks."))
