"""Public information (R55): what both players may know, in one place: the Mori
Box, the discs, each side's hand size, draw and discard piles (with the top
card), bag and Recruitment Box, and the enemy blocks that have been revealed."""

from __future__ import annotations

from textual.widgets import Static

from rules.describe import card_text
from rules.surface import BOTH_SIDES, PlayerView, default_components
from sekigahara_tui.labels import block_label, place_label, side_name
from sekigahara_tui.widgets.steady_text import Leaf, update_steady


def public_text(view: PlayerView) -> str:
    lines = []
    box = ", ".join(block_label(b) for b in view.mori_box)
    lines.append(f"Mori Box: {box or 'empty'}")
    for disc in view.discs:
        where = f"in {place_label(disc.location)} castle" if disc.in_play else "lost"
        lines.append(f"{block_label(disc.id)} ({side_name(disc.side)} disc): {where}")
    for side in BOTH_SIDES:
        hand = view.hand_sizes[side]  # public (R55); a spectator holds no hand of its own
        top = view.top_discards[side]
        lines.append(
            f"{side_name(side)}: hand {hand}, draw {view.draw_pile_sizes[side]}, "
            f"discards {view.discard_pile_sizes[side]}" + (f" (top: {card_text(top)})" if top else "")
            + f", bag {view.bag_sizes[side]}, box {view.recruitment_box_sizes[side]}"
        )
    on_map = default_components().location_ids
    known = [(b, place) for b, place in view.enemy_known if place in on_map]
    if known:
        seen = "; ".join(f"{block_label(b)} at {place_label(place, view.side)}" for b, place in known)
        lines.append(f"Enemy blocks seen (R62): {seen}")
    return "\n".join(lines)


class PublicPanel(Leaf, Static):
    _shown: str | None = None

    def __init__(self, **kwargs) -> None:
        super().__init__(markup=False, **kwargs)

    def show(self, view: PlayerView) -> None:
        text = public_text(view)
        if text != self._shown:
            self._shown = text
            # Its tab hidden, it is laid out when shown; shown, only when its rows change.
            update_steady(self, text) if self.region else self.update(text, layout=False)
