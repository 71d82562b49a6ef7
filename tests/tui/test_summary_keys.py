"""Keys typed in one burst with the Enter that closes a battle summary, or a
hand-over followed by a summary, as a terminal (or SSH) delivers them: none is
lost, and none acts on the game while a hand-over hides it (R55)."""

from __future__ import annotations

import pytest

from rules.infra.record import save_record
from rules.sides import Side
from sekigahara_tui.screens.game import GameScreen
from sekigahara_tui.screens.info import BattleSummaryScreen, HandOverScreen
from sekigahara_tui.widgets.prompt import PromptPanel
from tui.driving import choice_notations, press_at_once, submit_command_line, take_seat, until
from tui.positions import record_from_position
from tui.screen_text import screen_text

# The battle at Gifu (8.6: Ishida challenges Tokugawa's swords card), up to
# Ishida's casualties (8.7); his retreat (8.8.3) ends the battle.
BATTLE_TO_ISHIDA_S_RETREAT = (
    "tokugawa: combat gifu",
    "tokugawa: deploy fukushima-swords-1 fukushima-cav-1",
    "ishida: challenge ishida-loyalty-2",
    "ishida: deploy mori-swords-1 mori-2-1",
    "tokugawa: allow",
    "ishida: deploy ukita-plain-1 ukita-2-1",
    "tokugawa: allow",
    "tokugawa: deploy fukushima-plain-1 fukushima-2-1",
    "ishida: pass",
    "tokugawa: pass",
    "ishida: lose mori-2-1",
)
# Ishida's turn after the battle, to his last decision before Tokugawa's turn.
ISHIDA_S_TURN = ("movement pass", "exchange ukita-swords-3", "exchange mori-double", "exchange ukita-swords-1")


async def load_before_the_retreat(pilot, app) -> GameScreen:
    """Ishida has the seat (his hand-over passed), to retreat from Gifu."""
    screen = await take_seat(pilot)
    assert screen.seat is Side.ISHIDA and "retreat iwamura" in choice_notations(screen)
    return screen


async def ishida_s_summary_up(pilot, app) -> GameScreen:
    """Ishida retreats (8.8.3), the battle ends: his summary shows over his next decision."""
    screen = await load_before_the_retreat(pilot, app)
    await submit_command_line(pilot, "ishida", "retreat iwamura")
    await pilot.pause()
    assert isinstance(app.screen, BattleSummaryScreen)
    return screen


def make_loaded_app(make_app, tmp_path):
    path = tmp_path / "position.json"
    save_record(record_from_position("battle_at_gifu", *BATTLE_TO_ISHIDA_S_RETREAT), path)
    return make_app(load=path)


def given(screen: GameScreen) -> tuple[str, ...]:
    return screen.table.host.record.commands[len(BATTLE_TO_ISHIDA_S_RETREAT):]


async def test_keys_typed_with_the_summary_s_enter_pick_a_choice(make_app, tmp_path):
    """Ishida retreats (8.8.3), the battle ends: his summary shows over his next decision.
    Enter, Down, Enter at once: the summary closes, the second choice is given."""
    app = make_loaded_app(make_app, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await ishida_s_summary_up(pilot, app)
        second = choice_notations(screen)[1]
        await press_at_once(pilot, "enter", "down", "enter")
        await pilot.pause()
        assert app.screen is screen
        assert given(screen) == ("ishida: retreat iwamura", f"ishida: {second}")


async def test_a_command_typed_with_the_summary_s_enter_is_given(make_app, tmp_path):
    """Enter, `:`, a command, Enter at once: the summary closes, the command is
    given, not the highlighted first choice (what a lost `:` and command leave)."""
    app = make_loaded_app(make_app, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await ishida_s_summary_up(pilot, app)
        last = choice_notations(screen)[-1]
        assert last != choice_notations(screen)[0]
        await press_at_once(pilot, "enter", "colon", *last, "enter")
        await pilot.pause()
        assert given(screen) == ("ishida: retreat iwamura", f"ishida: {last}")


async def ishida_at_his_last_decision(pilot, app) -> GameScreen:
    """Ishida retreats (his summary read) and plays his turn up to the draw that
    passes the seat to Tokugawa; his choices have the focus."""
    screen = await load_before_the_retreat(pilot, app)
    await submit_command_line(pilot, "ishida", "retreat iwamura")
    for line in ISHIDA_S_TURN:
        await submit_command_line(pilot, "ishida", line)
    assert choice_notations(screen) == ["draw"] and app.focused is screen.query_one(PromptPanel).choices
    return screen


async def tokugawa_takes_over_after_the_battle(pilot, app) -> GameScreen:
    """Ishida draws with the Enter of his choices: the hand-over to Tokugawa is
    up, with Tokugawa's summary of the battle to follow it."""
    screen = await ishida_at_his_last_decision(pilot, app)
    await pilot.press("enter")
    assert isinstance(app.screen, HandOverScreen) and app.screen.side is Side.TOKUGAWA
    return screen


@pytest.mark.parametrize("arrival", ["pilot", "burst"])
async def test_R55_keys_typed_after_the_last_decision_s_enter_never_act_behind_the_hand_over(make_app, tmp_path, arrival, settle_clock):
    """Ishida's draw passes the seat: Down and Enter typed after it, at once or
    one by one, never act for Tokugawa on the game behind the hand-over. One by
    one, the Enter is the hand-over's (ready); at once, it is lost with Ishida's."""
    app = make_loaded_app(make_app, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await ishida_at_his_last_decision(pilot, app)
        if arrival == "pilot":
            await pilot.press("enter", "down", "enter")
        else:
            await press_at_once(pilot, "enter", "down", "enter")
        await pilot.pause()
        assert given(screen)[-1] == "ishida: draw"
        if arrival == "burst":
            assert isinstance(app.screen, HandOverScreen) and app.screen.side is Side.TOKUGAWA
        else:
            assert isinstance(app.screen, BattleSummaryScreen)  # Tokugawa's, uncovered by the hand-over's Enter


@pytest.mark.parametrize("burst", [("enter", "enter"), ("enter", "enter", "down", "enter")])
async def test_R55_the_summary_a_hand_over_uncovers_is_not_closed_by_keys_typed_with_its_enter(make_app, tmp_path, burst, settle_clock):
    """Tokugawa's summary of the battle lies under his hand-over: its Enter
    uncovers it at once. An Enter typed with that one (a double tap, or Enters
    typed blind) does not close it unread, and gives no choice under it; after
    the settle time Enter closes it, and keys typed with that Enter pick a choice.
    The settle guards' clock moves only when the test says (settle_clock): on a
    loaded machine the burst took longer than the settle time, and CI failed."""
    app = make_loaded_app(make_app, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await tokugawa_takes_over_after_the_battle(pilot, app)
        assert [type(s) for s in app.screen_stack[-3:]] == [GameScreen, BattleSummaryScreen, HandOverScreen]
        hand_over = app.screen
        settle_clock.wait(HandOverScreen.SETTLE_S)  # Tokugawa has come to the keyboard: his Enter is meant
        await press_at_once(pilot, *burst)
        await until(pilot, lambda: hand_over.shown_at is not None, "the summary drawn")  # the settle time runs from then
        await pilot.pause()
        assert isinstance(app.screen, BattleSummaryScreen) and "Battle at Gifu" in screen_text(app)
        assert given(screen)[-1] == "ishida: draw"
        settle_clock.wait(HandOverScreen.SETTLE_S)
        second = choice_notations(screen)[1]  # Tokugawa's choices, under his summary
        await press_at_once(pilot, "enter", "down", "enter")
        await pilot.pause()
        assert app.screen is screen
        assert given(screen)[-2:] == ("ishida: draw", f"tokugawa: {second}")


async def test_ctrl_l_on_a_hot_seat_summary_does_nothing(make_app, tmp_path):
    """The lobby key is a club game's: over a hot-seat game the summary stays up."""
    app = make_loaded_app(make_app, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await ishida_s_summary_up(pilot, app)
        summary = app.screen
        await pilot.press("ctrl+l")
        await pilot.pause()
        assert app.screen is summary and app.screen_stack[-2] is screen
        assert given(screen) == ("ishida: retreat iwamura",)
