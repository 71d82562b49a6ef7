"""Hot seat: a seat's own setting, allow the enemy's play without asking
(R48). A seat whose only choice is to allow, holding no Loyalty Challenge card
(so it could never challenge), allows at once: no hand-over, and the keyboard
stays with the other player. The setting itself is the game screen's
(`GameScreen.auto_allow`, changed by ctrl+y)."""

from __future__ import annotations

from rules.notation import format_command
from rules.surface import AllowPlay, PlayerView, Side, default_components
from sekigahara_tui.seat import Table


def holds_loyalty_card(view: PlayerView) -> bool:
    components = default_components()
    return any(components.card(card).is_loyalty for card in view.hand)


def setting_matters(table: Table, view: PlayerView | None) -> bool:
    """Where the setting can matter: hot seat (a networked seat is never handed
    over), the Combat Phase, no Loyalty card in hand (with one, this seat is
    always asked)."""
    return table.hot_seat and view is not None and view.combat is not None and not holds_loyalty_card(view)


def allow_without_asking(table: Table, settings: dict[Side, bool]) -> bool:
    """Hot seat: a seat whose only choice is to allow the enemy's play (R48),
    holding no Loyalty Challenge card, with its setting on, allows at once,
    with no hand-over. True if it did."""
    if not table.hot_seat:
        return False
    for seat in table.seats.values():
        view = seat.view
        if not settings.get(seat.side) or view is None or len(view.legal) != 1:
            continue
        if isinstance(view.legal[0], AllowPlay) and not holds_loyalty_card(view):
            seat.submit(format_command(view.legal[0], with_side=False))
            return True
    return False


def ask_auto_allow(screen) -> None:
    """ctrl+y: this seat's own setting (hot seat); the dialog says what it gives away."""
    from sekigahara_tui.screens.info import AUTO_ALLOW_INFERENCE, AutoAllowDialog

    side = screen.seat

    def chosen(on: bool | None) -> None:
        if on is None:
            return
        screen.auto_allow[side] = on
        if side is screen.seat:
            screen.say(f"Auto-allow {'on' if on else 'off'}" + (f": {AUTO_ALLOW_INFERENCE}." if on else "."))

    screen.app.push_screen(AutoAllowDialog(side, screen.auto_allow.get(side, False)), chosen)
