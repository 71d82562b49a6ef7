"""The bot interface (issue 14, section 2).

A bot is started with its side and a seed, is given the events visible to its
side as they happen (`observe`), and is asked for a command with that side's
view and a time budget (`choose`). It returns one of `view.legal`. It never
receives a GameState: bots import from `rules` only the client surface
(rules.surface, rules.notation, rules.describe).
"""

from __future__ import annotations

from typing import Callable, Protocol, Sequence

from rules.surface import Command, Event, PlayerView, Side


class Bot(Protocol):
    side: Side

    def observe(self, events: Sequence[Event]) -> None:
        """Events visible to this bot's side, in order, as they happen."""

    def choose(self, view: PlayerView, budget_s: float) -> Command:
        """One of `view.legal` (never empty when asked), within `budget_s` seconds."""


BotFactory = Callable[[Side, int], Bot]


def _random(side: Side, seed: int) -> Bot:
    from sekigahara_tui.bots.random_bot import RandomBot

    return RandomBot(side, seed)


def _heuristic(side: Side, seed: int) -> Bot:
    from sekigahara_tui.bots.heuristic import HeuristicBot

    return HeuristicBot(side, seed)


def _planner(side: Side, seed: int) -> Bot:
    from sekigahara_tui.bots.planner import PlannerBot

    return PlannerBot(side, seed)


def _search(side: Side, seed: int) -> Bot:
    from sekigahara_tui.bots.search import SearchBot

    return SearchBot(side, seed)


# Level name -> factory(side, seed). "random" is level 0, "heuristic" level 1,
# "planner" level 2 (look-ahead by playouts at the big decisions), "search"
# level 3 (a tree search over the big decisions, ISMCTS).
LEVELS: dict[str, BotFactory] = {"random": _random, "heuristic": _heuristic, "planner": _planner, "search": _search}


def make_bot(level: str, side: Side, seed: int) -> Bot:
    try:
        factory = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown bot level {level!r}: choose from {', '.join(LEVELS)}") from None
    return factory(side, seed)
