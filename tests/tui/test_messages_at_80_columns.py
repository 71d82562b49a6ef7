"""Issue 27, fault 5: no message line is cut at 80 columns. The message under
the choices wraps to the rows it needs (up to 3), and a refusal that listed all
26 verbs of the notation says where to look instead. Each refusal below is
given at 80x24 and must be on screen whole (from the position file
battle_at_gifu: Tokugawa declares the next combat)."""

from __future__ import annotations

import pytest

from sekigahara_tui.widgets.prompt import PromptPanel, shortened
from tui.driving import take_seat, type_command
from tui.positions import record_from_position
from tui.screen_text import screen_text

SIDE_PANEL = 46  # where the side panel begins at 80 columns


def side_panel_words(app) -> str:
    return " ".join(" ".join(line[SIDE_PANEL:] for line in screen_text(app).splitlines()).split())


@pytest.mark.parametrize("line", [
    "asdf",  # unknown command: the 26 verbs no longer listed
    "combat osaka",  # a combat where none may be declared: the rule's reason
    "bid tokugawa-plain-1",  # a command that does not answer this decision
    "deploy fukushima-swords-1 fukushima-cav-1",  # nor this one
])
async def test_a_refusal_is_on_screen_whole(make_app, line):
    async with make_app(record_from_position("battle_at_gifu")).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        await type_command(pilot, line)
        await pilot.pause()
        said = screen.seat_memory.feedback[screen.seat][0]
        assert said.startswith("Illegal: ")
        shown = str(screen.query_one("#message").render())
        assert " ".join(shown.split()) == " ".join(shortened(said).split())
        assert " ".join(shown.split()) in side_panel_words(pilot.app)  # every word of it, wrapped, not cut


async def test_the_unknown_command_refusal_no_longer_lists_every_verb(make_app):
    async with make_app(record_from_position("battle_at_gifu")).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        await type_command(pilot, "asdf")
        await pilot.pause()
        shown = " ".join(str(screen.query_one(PromptPanel).query_one("#message").render()).split())
        assert shown == "Illegal: unknown command 'asdf': the choices above are what you may give now (? helps)"
        assert shown in side_panel_words(pilot.app)


async def test_the_replay_title_and_footer_fit_80_columns(make_app):
    from sekigahara_tui.replay_model import ReplayModel
    from sekigahara_tui.screens.replay import ReplayScreen
    from tui.positions import finished_game

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(ReplayScreen(ReplayModel.from_record(finished_game())))
        await pilot.pause()
        lines = screen_text(app).splitlines()
        assert any("─ board: the public view ─" in line for line in lines)  # the title whole, not "the public v…"
        assert "esc Back" in lines[-1] and "…" not in screen_text(app)
