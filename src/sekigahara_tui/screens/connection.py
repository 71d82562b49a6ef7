"""A networked seat (two terminals, the club): the game screen's line on the
connection to the host, the other player, and a command on its way."""

from __future__ import annotations

from sekigahara_tui.labels import side_name
from sekigahara_tui.screens.clock_text import clock_text
from sekigahara_tui.seat import Seat


def connection_line(seat: Seat) -> str:
    """One line on the connection to the host and the other player (empty for hot seat)."""
    if seat.connection is None:
        return ""
    parts = [seat.connection]
    other = side_name(seat.side.other)
    if seat.opponent_present is True:
        parts.append(f"{other} is connected")
    elif seat.opponent_present is False:
        parts.append(f"{other} is not connected" + (f"; they join with: {seat.join_hint}" if seat.join_hint else ""))
    if seat.waiting_for_answer is not None:
        parts.append(f"sending: {seat.waiting_for_answer}")
    clocks = clock_text(getattr(seat.client, "clocks", None), getattr(seat.client, "clocks_at", 0.0)) if hasattr(seat, "client") else ""
    if clocks:
        parts.insert(0, clocks)  # first: it fits at 80 columns before the rest is cut
    return " │ ".join(parts)
