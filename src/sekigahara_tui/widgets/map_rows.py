"""The map's rows as text: each label (a location's name, its castle and
resource marks, its "own:enemy" block counts) and the roads between them.

A row is redrawn only when what its labels show changes (MapFacts.label_key):
a command moves a few blocks, so the map panel rebuilds a few rows, not the
map (issue 27, item 11: the map was most of a command's time).
"""

from __future__ import annotations

from collections import Counter

from rich.text import Text

from rules.surface import PlayerView, Side, default_components, places
from sekigahara_tui.map_drawing import OVERVIEW_WIDTH
from sekigahara_tui.map_layout import LABEL_WIDTH


def marks(location_id: str) -> str:
    """'#' castle, '*' capital, '$' other resource location (4.1-4.3)."""
    loc = default_components().location(location_id)
    return ("#" if loc.is_castle else "") + ("*" if loc.capital else "$" if loc.resource else "")


def label_pieces(location_id: str, short: str, own: int, enemy: int, mode: str) -> list[tuple[str, str]]:
    """A label as (text, role) runs: role "name", "marks", "own", "enemy" or "" (separators,
    padding). It fills the label's cells but always leaves the last one blank, so a
    two-digit count never runs into a road; the marks go first when room is short,
    then the name's end. In "overview" mode it is the short form and compact counts
    ("Osa8", "Gif2:3", "Kyo:4")."""
    if mode == "overview":
        width = OVERVIEW_WIDTH
        counts = _count_pieces(own, enemy, compact=True)
        room = width - sum(len(t) for t, _ in counts)
        pieces = [(short[: max(1, room)], "name")] + counts
    else:
        width = LABEL_WIDTH[mode] - 1
        counts = _count_pieces(own, enemy, compact=False)
        count_len = sum(len(t) for t, _ in counts)
        name = short if mode == "short" else default_components().location(location_id).name
        mark = marks(location_id)
        gap = 1 if counts else 0
        if len(name) + len(mark) + gap + count_len > width:
            gap = 0  # "Osa#12:0": the colours keep name and counts apart
        if len(name) + len(mark) + gap + count_len > width:
            mark = ""
        name = name[: max(2, width - gap - count_len - len(mark))]
        pieces = [(name, "name"), (mark, "marks"), (" " * gap, "")] + counts
    used = sum(len(t) for t, _ in pieces)
    full = OVERVIEW_WIDTH if mode == "overview" else LABEL_WIDTH[mode]
    pieces.append((" " * max(0, full - used), ""))
    return [(t, role) for t, role in pieces if t]


def _count_pieces(own: int, enemy: int, compact: bool) -> list[tuple[str, str]]:
    """"own:enemy"; compact (overview) leaves out a zero: "8", ":3", "2:3"."""
    if not own and not enemy:
        return []
    if compact and not enemy:
        return [(str(own), "own")]
    if compact and not own:
        return [(":", ""), (str(enemy), "enemy")]
    return [(str(own), "own"), (":", ""), (str(enemy), "enemy")]


def label_text(location_id: str, short: str, own: int, enemy: int, mode: str) -> str:
    return "".join(text for text, _ in label_pieces(location_id, short, own, enemy, mode))


def legal_locations(view: PlayerView) -> frozenset[str]:
    """Every location named by a legal command: destinations, sources, muster sites."""
    return frozenset(place for command in view.legal for place in places(command))


class MapFacts:
    """What the labels show of one view, worked out once per drawing."""

    def __init__(self, view: PlayerView) -> None:
        self.side = view.side
        self.legal = legal_locations(view)
        self.control: dict[str, Side] = dict(view.castle_control) | dict(view.resource_control)
        self.own = Counter(place for _, place in view.own_blocks) + Counter(dict(view.own_hidden_counts))
        self.enemy = dict(view.enemy_counts)

    def label_key(self, location: str, cursor: str) -> tuple:
        """Everything `location`'s label is drawn from (with the mode, edges and styles)."""
        return (location in self.legal, self.control.get(location), self.own[location],
                self.enemy.get(location, 0), location == cursor)


class RowDrawer:
    """What every row of one drawing shares: a row of runs becomes a Text
    (roads and highways in their styles, labels with their marks and counts)."""

    def __init__(self, facts: MapFacts, style: dict, mode: str, left: int, right: int, slot_width: int, layout_data) -> None:
        self.facts, self.style, self.mode = facts, style, mode
        self.left, self.right, self.slot_width = left, right, slot_width
        self.shorts = {p.location: p.short for p in layout_data.placements}
        self.sides = {"own": style[facts.side.value], "enemy": style[facts.side.other.value]}

    def row(self, pieces: list[tuple[str, str]], cursor: str) -> Text:
        style, mode, slot_width, facts = self.style, self.mode, self.slot_width, self.facts
        text = Text(no_wrap=True, end="")
        for kind, run in pieces:
            if kind != "@label":
                text.append(run, style[kind])
                continue
            loc = run
            start = text.cell_len
            if cut(start, slot_width, self.left, self.right):
                text.append(" " * slot_width)
                continue
            label_style = style["label"]
            if loc in facts.legal:
                label_style += style["legal"]
            if loc == cursor:
                label_style += style["cursor"]
            owner: Side | None = facts.control.get(loc)
            for piece, role in label_pieces(loc, self.shorts[loc], facts.own[loc], facts.enemy.get(loc, 0), mode):
                if role in self.sides:
                    piece_style = label_style + self.sides[role]
                elif owner is not None and (role == "marks" or (role == "name" and mode == "overview")):
                    # The castle/resource marks take the controller's colour (4.2, 4.3).
                    piece_style = label_style + style[owner.value]
                else:
                    piece_style = label_style
                text.append(piece, piece_style)
        return text


def cut(start: int, width: int, left: int, right: int) -> bool:
    """A label from column `start` crossed by the panel's left or right edge: left out."""
    return start < left < start + width or start < right < start + width
