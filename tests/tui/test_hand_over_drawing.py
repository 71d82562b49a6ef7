"""Issue 27, item 11: a command that hands the keyboard over is done on screen
when the hand-over is. The game screen is drawn for the new seat under it
(hand_over.py); Textual paints the screen next under the top one as if it
showed through and repainted the hand-over over every region it painted, a
terminal write each, the last 50-100 ms after the key. The hand-over's reason
takes a new row only by one layout (and no second, a frame later). Counted
with the hand-over's own drawing (its render_lines) and the screen's public
layout signal."""

from __future__ import annotations

from sekigahara_tui.screens.info import HandOverScreen
from tui.driving import choose, take_seat
from tui.positions import opening_bid
from tui.screen_text import screen_text
from tui.test_steady_layout import count_layouts, settle


async def hand_over_up(pilot) -> tuple:
    screen = await take_seat(pilot)
    await choose(pilot, "bid mori-plain-9")  # Ishida's bid: Tokugawa's to give (6.3)
    hand_over = pilot.app.screen
    assert isinstance(hand_over, HandOverScreen) and hand_over.side.value == "tokugawa"
    await settle(pilot)  # the hand-over drawn, and the game screen under it for Tokugawa
    assert screen.seat.value == "tokugawa"
    return screen, hand_over


async def test_the_game_screen_painted_under_the_hand_over_repaints_nothing_on_it(make_app, monkeypatch):
    painted = []
    render_lines = HandOverScreen.render_lines

    def counted(self, crop):
        painted.append(crop)
        return render_lines(self, crop)

    monkeypatch.setattr(HandOverScreen, "render_lines", counted)
    async with make_app(record=opening_bid()).run_test(size=(80, 24)) as pilot:
        screen, hand_over = await hand_over_up(pilot)
        painted.clear()
        screen.refresh()  # all of it painted again, under the hand-over
        await settle(pilot)
        assert pilot.app.screen is hand_over and painted == []
        assert "Pass the keyboard to Tokugawa" in screen_text(pilot.app)
        hand_over.refresh()  # its own repaint still draws it
        await settle(pilot)
        assert painted


async def test_a_hand_over_reason_of_more_rows_lays_it_out_once(make_app):
    async with make_app(record=opening_bid()).run_test(size=(80, 24)) as pilot:
        _, hand_over = await hand_over_up(pilot)
        hand_over.again("Tokugawa is to bid.")
        await settle(pilot)
        laid_out = count_layouts(hand_over)
        long = "Tokugawa is to " + "give a reason long enough for two rows of the box, " * 2
        hand_over.again(long)
        await settle(pilot)
        assert len(laid_out) == 1  # the rows changed: one layout, and none a frame later
        hand_over.again(long.replace("give", "have"))  # as many rows: a repaint
        await settle(pilot)
        assert len(laid_out) == 1
        assert "have a reason" in screen_text(pilot.app)
