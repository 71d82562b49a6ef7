"""What level 1 (bots/heuristic.py) reads of its view once per decision: its
blocks by place, the enemy's counts, who controls what, and the threat near a
place; and a block's kind and strength."""

from __future__ import annotations

from attrs import define, field

from rules.surface import PlayerView, Side, default_components
from sekigahara_tui.bots.knowledge import map_data

Kind = tuple[str, str]  # (daimyo, kind): alike blocks (rules.alike)


@define
class Situation:
    """The view, read once per decision into what the rules of thumb need."""

    me: Side
    own: dict[str, list[str]]  # place -> own block ids
    enemy: dict[str, int]  # place -> enemy blocks
    castle: dict[str, Side]
    resource: dict[str, Side]
    enemy_discs: set[str] = field(factory=set)  # locations holding an enemy disc in play

    @classmethod
    def of(cls, view: PlayerView) -> Situation:
        own: dict[str, list[str]] = {}
        for block, place in view.own_blocks:
            own.setdefault(place, []).append(block)
        discs = {d.location for d in view.discs if d.in_play and d.side is not view.side}
        return cls(view.side, own, dict(view.enemy_counts), dict(view.castle_control), dict(view.resource_control), discs)

    def mine(self, place: str) -> int:
        return len(self.own.get(place, ()))

    def threat(self, place: str) -> float:
        """Enemy blocks near a place: all of those one step away, half of those two away."""
        m = map_data()
        total = 0.0
        for loc, count in self.enemy.items():
            d = m.distance(place, loc)
            if d <= 1:
                total += count
            elif d == 2:
                total += count / 2
        return total


def kind_of(block_id: str) -> Kind:
    block = default_components().block(block_id)
    return block.daimyo, block.kind


def strength(block_id: str) -> int:
    return default_components().block(block_id).strength
