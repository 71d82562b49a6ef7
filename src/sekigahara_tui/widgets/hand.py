"""The hand panel: your cards by the name the command line takes (mori-swords-3,
tokugawa-loyalty-1: issue 27, fault 3), each with its bid value (3.2); the
enemy's count only."""

from __future__ import annotations

from rich.table import Table
from textual.widgets import Static

from rules.surface import PlayerView, default_components
from sekigahara_tui.widgets.steady_text import Leaf


def _sort_key(card_id: str) -> tuple:
    card = default_components().card(card_id)
    return (card.daimyo or "~", -card.bid, card_id)


def hand_table(view: PlayerView) -> Table:
    table = Table(box=None, padding=(0, 1), expand=True, show_edge=False)
    table.add_column("card (as typed)")
    table.add_column("bid", justify="right")
    c = default_components()
    for card_id in sorted(view.hand, key=_sort_key):
        table.add_row(card_id, str(c.card(card_id).bid))
    for card_id in view.set_aside:
        table.add_row(f"{card_id} (set aside)", str(c.card(card_id).bid), style="dim")
    table.caption = hand_caption(view)
    return table


def cards(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


def hand_caption(view: PlayerView) -> str:
    """A player's own count and the enemy's; a spectator holds no hand, so it
    is told both sides' counts, which are public (R55)."""
    if view.spectator:
        ishida, tokugawa = view.hand_sizes
        return f"Ishida holds {cards(ishida)}; Tokugawa {tokugawa}"
    return f"{cards(len(view.hand))}; enemy holds {cards(view.enemy_hand_size)}"


class HandPanel(Leaf, Static):
    """Its height is the tab's (the stylesheet), whatever the hand holds: a new
    hand repaints the panel and lays nothing out (issue 27, item 11)."""

    _shown: tuple | None = None

    def show(self, view: PlayerView) -> None:
        cards = (view.hand, view.set_aside, view.enemy_hand_size, view.hand_sizes)
        if cards != self._shown:  # nothing changed: not even a repaint
            self._shown = cards
            self.update(hand_table(view), layout=False)
