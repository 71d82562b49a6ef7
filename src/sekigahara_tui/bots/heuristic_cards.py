"""Level 1's card decisions: what a card is worth to keep, and so which to
give up in the reinforcement discard (6.2) and the bid (6.3); the winner of
the bid moves first."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.surface import Bid, ChooseFirstPlayer, Command, PlayerView, ReinforcementDiscard, default_components
from sekigahara_tui.bots.knowledge import map_data

if TYPE_CHECKING:
    from sekigahara_tui.bots.heuristic import HeuristicBot


def card_value(view: PlayerView, card_id: str) -> float:
    c = default_components()
    card = c.card(card_id)
    if card.is_loyalty:
        return 2.5
    value = {"double": 3.0, "swords": 2.0, "plain": 1.0}.get(card.kind, 1.0)
    on_map = [c.block(b) for b, p in view.own_blocks if p in map_data().dist and c.block(b).daimyo == card.daimyo]
    value += min(1.5, 0.3 * len(on_map))
    if card.has_swords and any(b.symbol for b in on_map):
        value += 0.5
    return value + card.bid / 100


def cheapest(view: PlayerView, commands, cards_of) -> Command | None:
    """The command that gives up the least card value (`cards_of` names its cards)."""
    return min(commands, key=lambda cmd: sum(card_value(view, card) for card in cards_of(cmd)), default=None)


def reinforcement_discard(bot: HeuristicBot, view: PlayerView) -> Command | None:
    return cheapest(view, [c for c in view.legal if isinstance(c, ReinforcementDiscard)], lambda c: (c.card,))


def bid(bot: HeuristicBot, view: PlayerView) -> Command | None:
    return cheapest(view, [c for c in view.legal if isinstance(c, Bid)], lambda c: (c.card,))


def choose_first_player(bot: HeuristicBot, view: PlayerView) -> Command | None:
    return ChooseFirstPlayer(bot.side, bot.side)
