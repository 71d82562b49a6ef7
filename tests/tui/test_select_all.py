"""Issue 27, item 8: a whole-stack move (7.3) in a few keys. ctrl+a selects
every block that may move with the stack, one Select a block as the rules take
them (7.3.1); pressed again, it deselects them all. From
tests/tui/position_files/stack_of_four_at_osaka.toml: four Ishida blocks at
Osaka, Minimal movement chosen (one stack move, free)."""

from __future__ import annotations

from rules.surface import Deselect, Select
from sekigahara_tui.widgets.map_panel import MapPanel
from tui.driving import choice_notations, take_seat
from tui.screen_text import screen_text
from tui.positions import record_from_position

OSAKA_FOUR = ("ishida-leader", "ukita-leader", "ukita-3-1", "mori-cav-1")


def stack_move_record():
    return record_from_position("stack_of_four_at_osaka", "ishida: movement minimal")


async def test_a_whole_stack_moves_in_at_most_8_keys_from_the_map(make_app):
    async with make_app(stack_move_record()).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        map_panel = screen.query_one(MapPanel)
        map_panel.focus()
        map_panel.move_cursor("osaka")
        await pilot.pause()
        given = len(screen.table.host.record.commands)
        keys = ["enter"]  # Osaka: the choices there (a stack move, and musters: Osaka recruits, 7.2)
        await pilot.press(*keys)
        await pilot.pause()
        if screen.view.movement.stack_move is None:  # the list shows Osaka's choices: pick the stack move
            notations = choice_notations(screen)
            keys += ["down"] * notations.index("move osaka") + ["enter"]
            await pilot.press(*keys[1:])
            await pilot.pause()
        keys.append("ctrl+a")
        await pilot.press("ctrl+a")
        await pilot.pause()
        assert sorted(screen.view.movement.stack_move.selection) == sorted(OSAKA_FOUR)
        map_panel.focus()
        map_panel.move_cursor("kyoto")  # the cursor as the arrows would leave it (counted below as one key)
        keys.append("right")
        await pilot.press("enter")
        keys.append("enter")
        await pilot.pause()
        await pilot.press("ctrl+e")
        keys.append("ctrl+e")
        await pilot.pause()
        commands = screen.table.host.record.commands[given:]
        assert commands[0] == "ishida: move osaka"
        assert sorted(c.split()[-1] for c in commands if " select " in c) == sorted(OSAKA_FOUR)
        assert "ishida: step kyoto" in commands
        assert len(keys) <= 8
        assert screen.view.movement.stack_move is None  # the move is over


async def test_ctrl_a_again_deselects_them_all(make_app):
    async with make_app(stack_move_record()).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        from tui.driving import type_command

        await type_command(pilot, "move osaka")
        await pilot.press("ctrl+a")
        await pilot.pause()
        assert not any(isinstance(c, Select) for c in screen.view.legal)
        await pilot.press("ctrl+a")
        await pilot.pause()
        assert screen.view.movement.stack_move.selection == ()
        assert not any(isinstance(c, Deselect) for c in screen.view.legal)


async def test_ctrl_a_outside_a_stack_move_says_why_and_gives_nothing(make_app):
    async with make_app(stack_move_record()).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        assert screen.check_action("select_all", ())  # the Movement Phase: the key bar shows it
        await pilot.press("ctrl+a")
        await pilot.pause()
        assert screen.table.host.record.commands[-1] == "ishida: movement minimal"
        assert str(screen.query_one("#message").render()).startswith("ctrl+a: no blocks to select now")


async def test_the_key_bar_is_not_built_again_as_a_stack_move_begins_and_ends(make_app):
    """Issue 27, item 11: "^a All" stays in the key bar the whole Movement Phase,
    so a stack move's first and last commands keep the bar's keys (the same
    widgets: no new keys mounted, no layout for them)."""
    async with make_app(stack_move_record()).run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        await pilot.pause()
        keys = list(screen.query("FooterKey"))
        assert "^a All" in screen_text(pilot.app).splitlines()[-1]
        for line in ("move osaka", "done"):  # given as the choices give them: the focus stays
            screen.submit_text(line)
            await pilot.pause()
            await pilot.pause()
            assert list(screen.query("FooterKey")) == keys, line
            assert "^a All" in screen_text(pilot.app).splitlines()[-1]
        assert screen.view.movement.stack_move is None  # the move is over
