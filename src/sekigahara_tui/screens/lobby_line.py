"""A lobby line's last cell (issue 24): whose move, both clocks, when the last
move was, whether the opponent is online, where the calendar stands, and
whether the game is private: "your move · 2d 4h⏵/23h 10m · 3h ago · online ·
week 2, turn 1, movement".

The lobby's table must fit the terminal (80 columns at least): when the
cell does not fit the room the other columns leave, it says less, in this
order: the calendar shortened ("w2 t1 movement"), then dropped; "private";
"(both)"; the clocks in one unit each ("23h⏵/2d"); "online" as a dot
(● online, ○ offline); the time of the last move; the dot; the clocks.
Whose move is never dropped, only cut ("…")."""

from __future__ import annotations

from rules.surface import BOTH_SIDES, Side
from sekigahara_tui.club.protocol import GameLine
from sekigahara_tui.screens.clock_text import short_clocks

COMPUTER = "computer"  # the club's computer seat (hosting/members.py COMPUTER): never "online"
PADDING = 2  # a DataTable cell's padding, both sides
SCROLLBAR = 2  # the table's vertical scrollbar, when its rows overflow


def whose_move(line: GameLine, me: Side | None) -> str:
    if line.status == "over":
        return line.result or "over"
    if any(line.player(side) is None for side in BOTH_SIDES):
        return "waiting for an opponent"
    if not line.to_move:
        return "-"
    if me is not None and me in line.to_move:
        return "your move" + (" (both)" if len(line.to_move) == 2 else "")
    return " and ".join(f"{line.player(side)}'s move" for side in line.to_move)


def since(updated: float, now: float) -> str:
    """How long ago the last move was, in the largest whole unit."""
    seconds = max(0, int(now - updated))
    for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
        if seconds >= size:
            return f"{seconds // size}{unit} ago"
    return "just now"


def opponent_online(line: GameLine, me: Side | None) -> str | None:
    """'online' or 'offline' for my opponent, a member; None where it says nothing."""
    opponent = line.player(me.other) if me is not None else None
    if line.status != "playing" or opponent in (None, COMPUTER):
        return None
    return "online" if me.other in line.online else "offline"


def status_cell(line: GameLine, me: Side | None, now: float, told_at: float | None = None, room: int | None = None) -> str:
    """The cell, within `room` columns (None: all of it). `told_at`: when the
    lobby came, on time.monotonic()'s scale (the clocks count down from it)."""
    first = f"invited {line.invited}" if line.invited is not None and me is not None else whose_move(line, me)
    if line.rated:  # first: whoever joins agrees to it, and a long result would push it out of sight
        first = f"rated · {first}"
    playing = line.status == "playing"
    ticking = playing and line.clocks is not None and told_at is not None
    parts: dict[str, str | None] = {
        "clocks": short_clocks(line.clocks, told_at) if ticking else None,
        "since": since(line.updated, now) if playing else None,
        "online": opponent_online(line, me),
        "where": line.where if playing else None,
        "private": "private" if line.private else None,
    }

    def said() -> str:
        return " · ".join([first, *(part for part in parts.values() if part)])

    text = said()
    for less in ("where-short", "where", "private", "both", "clocks-short", "online-short", "since", "online", "clocks"):
        if room is None or len(text) <= room:
            return text
        if less == "where-short":
            parts["where"] = short_where(parts["where"])
        elif less == "both":
            first = first.removesuffix(" (both)")
        elif less == "clocks-short":
            parts["clocks"] = short_clocks(line.clocks, told_at, units=1) if ticking else None
        elif less == "online-short":
            parts["online"] = {"online": "●", "offline": "○"}.get(parts["online"] or "")
        else:
            parts[less] = None
        text = said()
    return text if room is None or len(text) <= room else text[: max(1, room - 1)] + "…"


def short_where(where: str | None) -> str | None:
    """'week 2, turn 1, movement' -> 'w2 t1 movement'."""
    if not where:
        return where
    words = [word.strip() for word in where.split(",")]
    short = [w.replace("week ", "w").replace("turn ", "t") for w in words]
    return " ".join(short)


def status_room(cells: list[tuple[str, ...]], width: int) -> int:
    """The columns left for the last cell when the table is `width` wide."""
    widths = [max((len(c[i]) for c in cells), default=0) for i in range(len(cells[0]) - 1)] if cells else []
    return max(12, width - sum(w + PADDING for w in widths) - PADDING - SCROLLBAR)
