"""Hot seat: keys typed the instant a hand-over closes reach the game screen.
The hand-over hides the game until the player is ready (R55); the keys he
types with that Enter are his move, and none may be lost. Only an Enter
typed right after it (a double tap) is ignored: no choice unseen."""

from __future__ import annotations


import pytest
from rules.sides import Side
from sekigahara_tui.screens.info import HandOverScreen
from tui.driving import choice_notations, press_at_once, type_command, until
from tui.positions import opening_bid


def given(screen) -> int:
    """How many commands the game has been given."""
    return len(screen.table.host.record.commands)


async def tokugawa_takes_over(pilot):
    """Ishida bids on the command line (his focus, not Tokugawa's to inherit);
    the hand-over to Tokugawa is up."""
    screen = await type_command(pilot, "bid mori-plain-9")
    assert isinstance(pilot.app.screen, HandOverScreen) and pilot.app.screen.side is Side.TOKUGAWA
    return screen


@pytest.mark.parametrize("arrival", ["pilot", "burst"])
async def test_R55_the_keys_that_follow_the_hand_overs_enter_pick_a_choice(make_app, arrival):
    app = make_app(opening_bid())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await tokugawa_takes_over(pilot)
        second = choice_notations(screen)[1]  # Tokugawa's list, drawn under the hand-over
        if arrival == "pilot":
            await pilot.press("enter", "down", "enter")
        else:
            await press_at_once(pilot, "enter", "down", "enter")
        await until(pilot, lambda: given(screen) == 2, "Tokugawa's choice")
        assert screen.table.host.record.commands == ("ishida: bid mori-plain-9", f"tokugawa: {second}")


async def test_R55_a_command_typed_with_the_hand_overs_enter_is_given(make_app):
    app = make_app(opening_bid())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await tokugawa_takes_over(pilot)
        last = choice_notations(screen)[-1]  # not the highlighted first choice, which a lost line's Enter would pick
        assert last != choice_notations(screen)[0]
        await press_at_once(pilot, "enter", "colon", *last, "enter")
        await until(pilot, lambda: given(screen) == 2, "Tokugawa's command")
        assert screen.table.host.record.commands == ("ishida: bid mori-plain-9", f"tokugawa: {last}")


@pytest.mark.parametrize("arrival", ["pilot", "burst"])
async def test_R55_a_double_tapped_enter_on_the_hand_over_gives_no_choice(make_app, arrival, settle_clock):
    """Enter, Enter with nothing between, as a double tap: the hand-over closes and
    the second Enter is ignored; Tokugawa sees his choices before giving one.
    An Enter after the settle time gives the highlighted choice."""
    app = make_app(opening_bid())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await tokugawa_takes_over(pilot)
        first = choice_notations(screen)[0]
        # The settle clock stands still: the second Enter comes within SETTLE_S
        # of the first, however slow the machine.
        if arrival == "pilot":
            await pilot.press("enter", "enter")
        else:
            await press_at_once(pilot, "enter", "enter")
        # the second Enter was read by the game screen (the first key after the hand-over's ends its settling)
        await until(pilot, lambda: pilot.app.screen is screen and screen.hand_overs.settling is None, "the second Enter read")
        await pilot.pause()  # not for passing: had the Enter been let through, its choice would show by now
        assert screen.table.host.record.commands == ("ishida: bid mori-plain-9",)
        settle_clock.wait(HandOverScreen.SETTLE_S)
        await press_at_once(pilot, "enter")
        await until(pilot, lambda: given(screen) == 2, "Tokugawa's choice")
        assert screen.table.host.record.commands == ("ishida: bid mori-plain-9", f"tokugawa: {first}")


async def test_R55_an_enter_typed_after_the_hand_over_s_settle_time_gives_the_choice(make_app, settle_clock):
    """Only an Enter within the settle time is taken for a double tap."""
    app = make_app(opening_bid())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await tokugawa_takes_over(pilot)
        first = choice_notations(screen)[0]
        hand_over = pilot.app.screen
        await press_at_once(pilot, "enter")
        await until(pilot, lambda: pilot.app.screen is screen, "the hand-over closed by its Enter")
        await until(pilot, lambda: hand_over.shown_at is not None, "the board drawn")  # the settle time runs from then
        settle_clock.wait(HandOverScreen.SETTLE_S)
        await press_at_once(pilot, "enter")
        await until(pilot, lambda: given(screen) == 2, "Tokugawa's choice")
        assert screen.table.host.record.commands == ("ishida: bid mori-plain-9", f"tokugawa: {first}")


async def test_R55_the_settle_time_runs_from_the_board_drawn_not_from_the_hand_over_s_enter(make_app, settle_clock):
    """Play-test on a loaded machine: the hand-over's Enter was read, the board
    came late, and an Enter typed while the hand-over still showed gave
    Tokugawa's first choice unseen. However long after the hand-over's Enter,
    an Enter is a double tap until the board has been drawn, and for SETTLE_S
    after that."""
    app = make_app(opening_bid())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await tokugawa_takes_over(pilot)
        hand_over = pilot.app.screen
        assert isinstance(hand_over, HandOverScreen)
        await hand_over.action_ready()  # the Enter read; the board not yet drawn
        settle_clock.wait(1.0)  # a second of a loaded machine, over three times SETTLE_S
        assert hand_over.shown_at is None and hand_over.settling()
        await until(pilot, lambda: hand_over.shown_at is not None, "the board drawn")
        assert hand_over.settling()
        settle_clock.wait(HandOverScreen.SETTLE_S)
        assert not hand_over.settling()
        assert screen.table.host.record.commands == ("ishida: bid mori-plain-9",)


async def test_the_screen_under_the_hand_over_is_drawn_after_the_hand_over(make_app):
    """Issue 27, item 11: a command that hands the keyboard over puts the
    hand-over up first; the game screen under it is drawn for the new seat
    after that, once, and the hand-over's Enter uncovers Tokugawa's screen,
    never Ishida's (R55)."""
    app = make_app(opening_bid())
    async with app.run_test(size=(80, 24)) as pilot:
        from tui.driving import take_seat

        screen = await take_seat(pilot)
        happened: list[tuple[str, str]] = []  # (the seat drawn for, the screen on top then)
        drawn = screen.redraw

        def redraw() -> None:
            top = pilot.app.screen
            happened.append((screen.seat.value, f"hand-over to {top.side.value}" if isinstance(top, HandOverScreen) else "game"))
            drawn()

        screen.redraw = redraw
        await type_command(pilot, "bid mori-plain-9")
        await pilot.pause()
        assert isinstance(pilot.app.screen, HandOverScreen) and pilot.app.screen.side is Side.TOKUGAWA
        assert happened == [("tokugawa", "hand-over to tokugawa")]
        await pilot.press("enter")
        await pilot.pause()
        assert pilot.app.screen is screen and screen.seat is Side.TOKUGAWA
        assert happened == [("tokugawa", "hand-over to tokugawa")]
        assert str(screen.query_one("#decision").render()).startswith("You: ")
        assert choice_notations(screen)[0].startswith("bid ")


async def test_R55_an_enter_before_the_hand_over_is_drawn_uncovers_the_new_seats_screen(make_app, monkeypatch):
    """The hand-over's Enter uncovers the new seat's screen even if it comes
    before the hand-over was drawn (here in the same turn of the loop as
    Ishida's command, with no guard against so quick an Enter): the screen
    under it is drawn for Tokugawa first."""
    monkeypatch.setattr(HandOverScreen, "APPEAR_SETTLE_S", 0.0)
    app = make_app(opening_bid())
    async with app.run_test(size=(80, 24)) as pilot:
        from tui.driving import take_seat

        screen = await take_seat(pilot)
        ishida = set(choice_notations(screen))
        screen.submit_text("bid mori-plain-9")
        hand_over = pilot.app.screen
        assert isinstance(hand_over, HandOverScreen) and screen.seat is Side.TOKUGAWA
        assert set(choice_notations(screen)) == ishida  # not drawn yet for Tokugawa
        await hand_over.action_ready()
        await pilot.pause()
        assert pilot.app.screen is screen and given(screen) == 1
        shown = choice_notations(screen)
        assert shown and set(shown) <= {text for text, _ in screen.legal_texts()}  # Tokugawa's, not Ishida's bids
        assert not set(shown) & ishida
