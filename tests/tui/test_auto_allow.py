"""Hot seat: "allow without asking when I hold no Loyalty card" (issue 13, R48)."""

from __future__ import annotations

from rules.infra.record import save_record
from rules.sides import Side
from sekigahara_tui.screens.game import GameScreen
from sekigahara_tui.screens.info import AutoAllowDialog, HandOverScreen
from tui.driving import take_seat, type_command
from tui.positions import record_from_position
from tui.screen_text import screen_text


async def open_battle(make_app, tmp_path, pilot_size=(120, 40)):
    """Gifu's battle at its start: Tokugawa declares it (battle_at_gifu.toml).
    Tokugawa holds no Loyalty card; Ishida holds one."""
    path = tmp_path / "gifu.json"
    save_record(record_from_position("battle_at_gifu"), path)
    return make_app(load=path)


async def test_with_the_setting_on_a_seat_without_a_loyalty_card_allows_at_once(make_app, tmp_path):
    app = await open_battle(make_app, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await take_seat(pilot)
        assert screen.seat is Side.TOKUGAWA
        assert "^y Auto" in screen_text(app)  # in the Footer, in hot seat
        await pilot.press("ctrl+y")
        assert isinstance(app.screen, AutoAllowDialog)
        said = " ".join(str(w.content) for w in app.screen.query("Static"))
        assert "the other player will know you hold no Loyalty card when play goes on at once" in said
        await pilot.press("enter")
        assert screen.auto_allow == {Side.TOKUGAWA: True}
        await type_command(pilot, "combat gifu")
        await type_command(pilot, "deploy fukushima-swords-1 fukushima-cav-1")
        assert isinstance(app.screen, HandOverScreen)  # to Ishida, who holds a Loyalty card
        screen = await take_seat(pilot)
        assert screen.seat is Side.ISHIDA
        await type_command(pilot, "allow")
        await type_command(pilot, "deploy ukita-plain-1 ukita-2-1")
        # Tokugawa may only allow, holds no Loyalty card, and asked not to be asked:
        # no hand-over, Ishida goes on at once.
        assert not isinstance(app.screen, HandOverScreen)
        assert app.screen is screen and screen.seat is Side.ISHIDA
        commands = [str(c) for c in screen.table.host.record.commands]
        assert commands[-2:] == ["ishida: deploy ukita-plain-1 ukita-2-1", "tokugawa: allow"]
        assert screen.view.legal  # Ishida's next deployment


async def test_without_the_setting_the_window_is_handed_over(make_app, tmp_path):
    app = await open_battle(make_app, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await type_command(pilot, "combat gifu")
        await type_command(pilot, "deploy fukushima-swords-1 fukushima-cav-1")
        screen = await take_seat(pilot)
        # Ishida holds a Loyalty card: the setting cannot apply, so it is not offered.
        assert "^y Auto" not in screen_text(app)
        await pilot.press("ctrl+y")
        assert app.screen is screen and screen.auto_allow == {}
        assert screen.seat is Side.ISHIDA and len(screen.view.legal) == 2
        await type_command(pilot, "allow")
        await type_command(pilot, "deploy ukita-plain-1 ukita-2-1")
        assert isinstance(app.screen, HandOverScreen) and app.screen.side is Side.TOKUGAWA
        screen = await take_seat(pilot)
        assert [type(c).__name__ for c in screen.view.legal] == ["AllowPlay"]


async def test_the_setting_can_be_turned_off_and_esc_leaves_it(make_app, tmp_path):
    app = await open_battle(make_app, tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await take_seat(pilot)
        await pilot.press("ctrl+y", "escape")
        assert not screen.auto_allow.get(Side.TOKUGAWA)
        await pilot.press("ctrl+y", "enter")
        assert screen.auto_allow == {Side.TOKUGAWA: True}
        await pilot.press("ctrl+y", "escape")
        assert screen.auto_allow == {Side.TOKUGAWA: True}
        await pilot.press("ctrl+y", "enter")
        assert screen.auto_allow == {Side.TOKUGAWA: False}
        assert isinstance(app.screen, GameScreen)
