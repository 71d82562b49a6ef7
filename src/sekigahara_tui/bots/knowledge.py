"""What a bot knows besides its view: the map's distances and the enemy cards
it has seen go by (all public: played and discarded cards, R2, 3.3).

Only the client surface is used (rules.surface)."""

from __future__ import annotations

from collections import deque
from functools import lru_cache
from math import comb
from typing import Iterable, Sequence

from rules.surface import EVENT_TYPES, Components, Event, Side, default_components

_EVENTS = {cls.__name__: cls for cls in EVENT_TYPES}
BlockDeployed = _EVENTS["BlockDeployed"]
CardsDiscarded = _EVENTS["CardsDiscarded"]
ChallengeRefuted = _EVENTS["ChallengeRefuted"]
LoyaltyChallenged = _EVENTS["LoyaltyChallenged"]
DrawPileReshuffled = _EVENTS["DrawPileReshuffled"]

HIDEYORI = "hideyori"  # disc ids start with these (components.md)
MAIN_LEADERS = {Side.ISHIDA: "ishida-leader", Side.TOKUGAWA: "tokugawa-leader"}
HOME = {Side.ISHIDA: "osaka", Side.TOKUGAWA: "edo"}


class MapData:
    """Distances on the map, worked out once (breadth first from every location)."""

    def __init__(self, components: Components) -> None:
        self.c = components
        self.ids = sorted(components.location_ids)
        self.neighbours = {loc: components.neighbours(loc) for loc in self.ids}
        self.highway = {
            loc: tuple(n for n in self.neighbours[loc] if components.connection(loc, n).highway) for loc in self.ids
        }
        self.dist = {loc: self._bfs(loc, self.neighbours) for loc in self.ids}
        self.castles = {loc.id: loc.castle for loc in components.locations if loc.castle is not None}
        self.resources = {loc.id for loc in components.locations if loc.resource}
        self.capitals = {loc.capital: loc.id for loc in components.locations if loc.capital is not None}

    @staticmethod
    def _bfs(start: str, step) -> dict[str, int]:
        seen = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in step[here]:
                if there not in seen:
                    seen[there] = seen[here] + 1
                    queue.append(there)
        return seen

    def distance(self, a: str, b: str) -> int:
        return self.dist.get(a, {}).get(b, 99)

    def reach(self, source: str, allowance: int, blocked: set[str]) -> dict[str, int]:
        """Locations a group can reach from `source` with `allowance` steps
        (a whole-highway move gets one more), stopping where enemy units stand."""
        found: dict[str, int] = {}
        for step, limit in ((self.neighbours, allowance), (self.highway, allowance + 1)):
            seen = {source: 0}
            queue = deque([source])
            while queue:
                here = queue.popleft()
                if here != source and here in blocked:
                    continue
                if seen[here] >= limit:
                    continue
                for there in step[here]:
                    if there not in seen:
                        seen[there] = seen[here] + 1
                        queue.append(there)
            for loc, d in seen.items():
                if loc != source:
                    found[loc] = min(d, found.get(loc, 99))
        return found


@lru_cache(maxsize=1)
def map_data() -> MapData:
    return MapData(default_components())


def refute_probability_none(hand_size: int, pool: int, refuters: int) -> float:
    """The chance that a hand of `hand_size` cards drawn from `pool` unseen
    cards holds none of `refuters` of them (hypergeometric)."""
    if hand_size <= 0 or refuters <= 0:
        return 1.0
    if pool <= 0 or pool - refuters < hand_size:
        return 0.0
    return comb(pool - refuters, hand_size) / comb(pool, hand_size)


class CardMemory:
    """The enemy cards seen played or discarded since the enemy last
    reshuffled (so not in its hand), and the cards it showed to refute a
    challenge (so in its hand until it plays them)."""

    def __init__(self, side: Side) -> None:
        self.side = side
        self.enemy = side.other
        self.out: set[str] = set()
        self.in_hand: set[str] = set()

    def observe(self, events: Iterable[Event]) -> None:
        for event in events:
            owner = getattr(event, "side", None)
            if isinstance(event, DrawPileReshuffled):
                if owner is self.enemy:
                    self.out.clear()
            elif isinstance(event, CardsDiscarded) and owner is self.enemy:
                self.out.update(event.cards)
                self.in_hand.difference_update(event.cards)
            elif isinstance(event, BlockDeployed) and owner is self.enemy and event.card:
                self.out.add(event.card)
                self.in_hand.discard(event.card)
            elif isinstance(event, LoyaltyChallenged) and owner is self.enemy:
                self.out.add(event.card)
                self.in_hand.discard(event.card)
            elif isinstance(event, ChallengeRefuted) and owner is self.enemy:
                self.in_hand.add(event.shown)
                self.out.discard(event.shown)

    def chance_unrefuted(self, block_id: str, hand_size: int, played: Sequence[str] = ()) -> float:
        """The chance that the enemy holds no card that could refute a challenge
        to its block (R48): another card of the block's mon, or any daimyo card
        for Ishida Mitsunari and Ii Naomasa."""
        c = default_components()
        block = c.block(block_id)

        def refutes(card) -> bool:
            if card.is_loyalty:
                return False
            return block.any_card or card.daimyo == block.daimyo

        if any(refutes(c.card(card)) for card in self.in_hand):
            return 0.0
        gone = self.out | set(played)
        unseen = [card for card in c.cards_of(self.enemy) if card.id not in gone]
        return refute_probability_none(hand_size, len(unseen), sum(1 for card in unseen if refutes(card)))
