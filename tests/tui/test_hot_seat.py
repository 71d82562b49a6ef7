"""Hot-seat privacy (R55), saves, undo (R58), help and the palette, through the app."""

from __future__ import annotations


import pytest

from textual.command import CommandList, CommandPalette

from rules.components import default_components
from rules.describe import card_name, piece_name
from rules.infra.record import load_record, save_record
from rules.sides import BOTH_SIDES, Side
from rules.state import BAG
from sekigahara_tui.screens.dialogs import SaveDialog
from sekigahara_tui.screens.game import GameScreen
from sekigahara_tui.screens.info import DecisionHelpScreen, HandOverScreen
from sekigahara_tui.widgets.hand import HandPanel
from sekigahara_tui.widgets.prompt import PromptPanel
from tui.driving import choose, take_seat, type_command, until
from tui.positions import finished_game, ishida_moves_from_osaka, opening_bid, record_from_position
from tui.screen_text import screen_text


def hidden_names(state, viewer: Side) -> set[str]:
    """Names of the other side's pieces on the map that `viewer` may not know (R55),
    leaving out names a piece `viewer` may see also carries."""
    c = default_components()
    hidden, seen = set(), set()
    for block, place in zip(c.blocks, state.positions):
        name = piece_name(block.id)
        if block.side is viewer or block.id in state.revealed or place == BAG:
            seen.add(name)
        elif place in c.location_ids:
            hidden.add(name)
    return hidden - seen


async def test_R55_the_hand_over_screen_shows_nothing_of_either_side(make_app):
    app = make_app(opening_bid())
    async with app.run_test(size=(80, 24)):
        assert isinstance(app.screen, HandOverScreen)
        shown = screen_text(app)
        state = app.screen_stack[-2].table.host.state
        for side in BOTH_SIDES:
            for card in state.cards[side].hand:
                assert card_name(card) not in shown
        assert "Pass the keyboard to Ishida" in shown


async def test_R55_a_seat_sees_its_own_hand_and_no_hidden_enemy_block(make_app, tmp_path):
    record = record_from_position("tokugawa_moves_in_week_2", "tokugawa: movement minimal")
    app = make_app(record=record)
    async with app.run_test(size=(160, 50)) as pilot:
        screen = await take_seat(pilot)
        state = screen.table.host.state
        hand = screen.query_one(HandPanel)
        assert hand._shown[0] == state.cards[screen.seat].hand
        shown = screen_text(app)
        hidden = hidden_names(state, screen.seat)
        assert len(hidden) >= 3  # the check below has something to find
        for name in hidden:
            assert name not in shown, f"{screen.seat.value} sees {name}"


async def test_R58_ctrl_z_takes_back_a_secret_bid_but_not_a_revealed_one(make_app):
    app = make_app(opening_bid())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        await pilot.press("ctrl+z")  # nothing to take back: the key says so (R58)
        assert str(screen.query_one("#message").render()).startswith("Cannot undo: ")
        assert screen.table.host.record.commands == ()
        await choose(pilot, "bid mori-plain-9")
        # The seat passed to Tokugawa: Ishida's bid is no longer Tokugawa's to take back.
        screen = await take_seat(pilot)
        assert screen.seat is Side.TOKUGAWA
        assert screen.table.host.why_no_undo(Side.TOKUGAWA) == "the last decision was ishida's (R58)"
        await pilot.press("ctrl+z")
        assert screen.table.host.record.commands == ("ishida: bid mori-plain-9",)
        assert str(screen.query_one("#message").render()) == "Cannot undo: the last decision was ishida's (R58)"
        await choose(pilot, "bid date-swords-3")
        assert screen.table.host.why_no_undo(Side.TOKUGAWA) == "it revealed hidden information: BidsRevealed (R58)"


async def test_R58_ctrl_z_takes_back_a_step_of_a_stack_move(make_app, tmp_path):
    record = ishida_moves_from_osaka()
    app = make_app(record=record)
    async with app.run_test(size=(80, 24)) as pilot:
        await type_command(pilot, "move osaka")
        screen = await type_command(pilot, "select ukita-2-1")
        await type_command(pilot, "step kyoto")
        assert ("ukita-2-1", "kyoto") in screen.table.host.view(Side.ISHIDA).own_blocks
        await pilot.press("ctrl+z")
        assert ("ukita-2-1", "osaka") in screen.table.host.view(Side.ISHIDA).own_blocks
        assert screen.table.host.record.commands[-1] == "ishida: select ukita-2-1"
        screen.table.host.flush_autosave()  # written by a thread: on disk once flushed
        assert load_record(app.autosave_path) == screen.table.host.record


async def test_an_illegal_command_line_says_why_and_changes_nothing(make_app):
    app = make_app(opening_bid())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await type_command(pilot, "step kyoto")
        assert screen.table.host.record.commands == ()
        message = str(screen.query_one("#message").render())
        assert message.startswith("Illegal: ")
        await type_command(pilot, "bid no-such-card")
        assert screen.table.host.record.commands == ()


async def test_ctrl_s_saves_the_game_record_and_load_resumes_it(make_app, tmp_path):
    app = make_app(opening_bid())
    target = tmp_path / "my-game.json"
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        await choose(pilot, screen.query_one(PromptPanel).notation_of(0))
        screen = await take_seat(pilot)
        await pilot.press("ctrl+s")
        assert isinstance(app.screen, SaveDialog)
        dialog_input = app.screen.query_one("#path")
        dialog_input.value = str(target)
        await pilot.press("enter")
        saved = screen.table.host.record
    assert load_record(target) == saved
    resumed = make_app(load=target)
    async with resumed.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        assert screen.table.host.record == saved
        assert screen.seat is Side.TOKUGAWA


async def test_a_corrupt_save_is_refused_with_the_reason(make_app, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"seed": 1}', encoding="utf-8")
    app = make_app(load=bad)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: any("not a game record" in n.message for n in app._notifications), "the reason")
        assert not isinstance(app.screen, GameScreen)


async def test_question_mark_explains_the_current_decision_with_its_rule(make_app):
    app = make_app(opening_bid())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        screen.query_one(PromptPanel).choices.focus()
        await pilot.press("question_mark")
        assert isinstance(app.screen, DecisionHelpScreen)
        assert "6.3" in screen_text(app)
        await pilot.press("escape")
        assert isinstance(app.screen, GameScreen)


async def test_the_command_palette_offers_the_legal_commands(make_app):
    app = make_app(opening_bid())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        await pilot.press("ctrl+p")
        await pilot.press(*"bid mori")
        palette = app.screen
        assert isinstance(palette, CommandPalette)

        def offered() -> str | None:
            """The highlighted command, once the search for the whole query is over."""
            if any(w.group == CommandPalette._GATHER_COMMANDS_GROUP and not w.is_finished for w in app.workers):
                return None
            commands = palette.query_one(CommandList)
            if commands.highlighted is None:
                return None
            return commands.get_option_at_index(commands.highlighted).hit.text

        await until(pilot, lambda: offered() == "bid mori-plain-9", "the palette offering bid mori-plain-9")
        await pilot.press("enter")
        await until(pilot, lambda: screen.table.host.record.commands != (), "the command given")
        assert screen.table.host.record.commands == ("ishida: bid mori-plain-9",)


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
async def test_no_color_keeps_roads_and_highways_apart(make_app, monkeypatch, size):
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(opening_bid())
    async with app.run_test(size=size) as pilot:
        await take_seat(pilot)
        assert app.no_color
        shown = screen_text(app)
        assert "─" in shown and "┄" in shown  # highway and road glyphs differ without colour


async def test_the_menu_loads_a_save_and_a_finished_game_returns_to_the_menu(make_app, tmp_path, settle_clock):
    from sekigahara_tui.screens.dialogs import LoadDialog
    from sekigahara_tui.screens.info import GameOverScreen
    from sekigahara_tui.screens.menu import MenuScreen

    finished = tmp_path / "finished.json"
    save_record(finished_game(), finished)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("l")
        assert isinstance(app.screen, LoadDialog)
        app.screen.query_one("#path").value = str(finished)
        await pilot.press("enter")
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen), "the game over screen")
        assert "Tokugawa wins." in screen_text(app)
        # The settle clock stands still: this Enter comes within SETTLE_S of the
        # screen showing, however slow the machine (a double tap from the last decision).
        await pilot.press("enter")  # not read yet
        await pilot.pause()
        assert isinstance(app.screen, GameOverScreen)
        settle_clock.wait(GameOverScreen.SETTLE_S)
        await pilot.press("enter")  # read: the screen has been up for SETTLE_S
        await until(pilot, lambda: isinstance(app.screen, MenuScreen), "the menu")


async def test_the_rules_help_opens_from_the_menu(make_app):
    from sekigahara_tui.screens.info import RulesScreen

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("r")
        assert isinstance(app.screen, RulesScreen)
        assert "Victory" in screen_text(app)
        await pilot.press("escape")
        assert not isinstance(app.screen, RulesScreen)


async def test_a_mouse_click_on_a_map_label_chooses_that_location(make_app, tmp_path):
    from sekigahara_tui.map_layout import label_origin
    from sekigahara_tui.widgets.map_panel import MapPanel

    record = ishida_moves_from_osaka()
    app = make_app(record=record)
    async with app.run_test(size=(160, 50)) as pilot:
        screen = await take_seat(pilot)
        map_panel = screen.query_one(MapPanel)
        col, row = label_origin(map_panel.layout_data, "gifu", "short")
        given = len(screen.table.host.record.commands)
        await pilot.click(MapPanel, offset=(col + 1 + map_panel.styles.gutter.left - round(map_panel.scroll_x), row + map_panel.styles.gutter.top - round(map_panel.scroll_y)))
        await until(pilot, lambda: len(screen.table.host.record.commands) > given, "a command given")
        assert map_panel.cursor == "gifu"
        assert screen.table.host.record.commands[-1] == "ishida: move gifu"  # the one choice at Gifu


async def test_R55_a_seat_cannot_type_the_other_sides_command_during_a_simultaneous_bid(make_app):
    app = make_app(opening_bid())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await type_command(pilot, "tokugawa: bid date-swords-3")
        assert screen.seat is Side.ISHIDA
        assert screen.table.host.record.commands == ()
        assert "a command for tokugawa is not yours" in str(screen.query_one("#message").render())


def test_the_hand_over_names_the_decision_in_the_third_person():
    """"Ishida is to {prompt}": a prompt says "the hand", never "your hand"."""
    import re

    from rules.infra.selfplay import random_game
    from rules.sides import BOTH_SIDES as SIDES
    from rules.view import view

    prompts: set[str] = set()

    def on_step(before, command, after, events) -> None:
        for side in SIDES:
            prompts.add(view(after, side).prompt)

    for seed in (1, 2, 3):
        random_game(seed, on_step=on_step)
    assert len(prompts) > 8
    assert not [p for p in prompts if re.search(r"\byou(r|rself)?\b", p, re.IGNORECASE)]


async def test_a_sides_hand_over_screen_is_shown_again_with_the_new_reason_and_nothing_of_either_side(make_app, settle_clock):
    """Issue 27, item 11: each side's hand-over screen is made once and shown
    again (a new one was composed, mounted and laid out at every hand-over).
    Shown again it says why now, its double-tap guard starts afresh, and it
    still shows nothing of either side (R55)."""
    app = make_app(opening_bid())
    async with app.run_test(size=(80, 24)) as pilot:
        first, hand_overs = {}, 0
        for _ in range(12):  # the highlighted choice each time, until four hand-overs
            if isinstance(app.screen, HandOverScreen):
                hand_over = app.screen
                hand_overs += 1
                first.setdefault(hand_over.side, hand_over)
                assert hand_over is first[hand_over.side] and hand_over.ready_at is None
                game = app.screen_stack[-2]
                shown = " ".join(screen_text(app).split())
                assert f"{hand_over.side.value.title()} is to {game.view.prompt}." in shown
                state = game.table.host.state
                assert not any(card_name(card) in shown for side in BOTH_SIDES for card in state.cards[side].hand)
                settle_clock.wait(HandOverScreen.APPEAR_SETTLE_S)
                if hand_overs == 4:
                    break
            screen = await take_seat(pilot)
            prompt = screen.query_one(PromptPanel)
            await type_command(pilot, prompt.notation_of(prompt.choices.highlighted))
            await pilot.pause()
        assert hand_overs == 4 and len(first) == 2
