"""Level 1's movement plans (7.2-7.4): for each stack it may move, which blocks
stay as its guard, which single blocks raid undefended prizes, and where the
main body goes (an attack only with a clear edge, else the nearest prize).
bots/heuristic_movement.py picks among the plans and carries them out."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from attrs import define

from rules.surface import BeginMove, DecisionKind, PlayerView, Side, default_components
from sekigahara_tui.bots.heuristic_situation import Situation, kind_of, strength
from sekigahara_tui.bots.knowledge import HIDEYORI, HOME, MAIN_LEADERS, map_data

if TYPE_CHECKING:
    from sekigahara_tui.bots.heuristic import HeuristicBot


@define
class Group:
    kinds: Counter  # of Kind
    target: str
    value: float


@define
class Plan:
    source: str
    leader: bool
    groups: list[Group]
    value: float
    index: int = 0
    selecting: bool = True
    commands: int = 0


def guards(side: Side, situation: Situation, source: str, movable: list[str]) -> set[str]:
    """Blocks that stay: the great leader and its bodyguard, a castle's garrison."""
    m = map_data()
    keep: set[str] = set()
    threat = situation.threat(source)
    ranked = sorted(movable, key=lambda b: (-strength(b), b))
    leader = MAIN_LEADERS[side]
    if leader in situation.own.get(source, ()):
        keep.add(leader)
        others = [b for b in ranked if b != leader]
        keep.update(others[: max(4, int(threat) + 2)])
    elif source in m.castles and situation.castle.get(source) is side:
        wanted = 1 if m.castles[source] is not side else 0
        if threat >= 1:
            wanted = max(wanted, min(2, int(threat)))
        keep.update(ranked[:wanted])
    return keep & set(movable)


def gain(me: Side, situation: Situation, target: str, size: int) -> float | None:
    """What a group of `size` blocks gains by ending its move at `target`;
    None where it should not go (an attack without a clear edge)."""
    m = map_data()
    enemies = situation.enemy.get(target, 0)
    force = size + situation.mine(target)
    value = 0.0
    castle_owner = situation.castle.get(target)
    if target in m.castles and castle_owner is not me:
        value += 4.0 if castle_owner is me.other else 2.0
    if target in m.resources and situation.resource.get(target) is not me:
        value += 2.0 if situation.resource.get(target) is me.other else 1.5
    if enemies:
        if force >= 4 * enemies and not (target in m.castles and castle_owner is me.other):
            value += 1.5 * enemies + 1.0
        elif force >= 2 * enemies + 1 and force >= enemies + 2:
            value = 0.8 * value + 1.0 * enemies
        else:
            return None
    elif target in situation.enemy_discs:
        if HIDEYORI and target == HOME[me.other] and me is Side.TOKUGAWA:
            value += 6.0 if force >= 3 else 0.0
        value *= 0.6
    near = sum(situation.enemy.get(n, 0) for n in m.neighbours[target])
    if near > force:
        value -= 0.5 * (near - force)
    return value


def plans(bot: HeuristicBot, view: PlayerView, situation: Situation) -> list[Plan]:
    """A plan for every stack that has somewhere worth going, leaving alone the
    targets this phase's earlier moves claimed."""
    m = map_data()
    movement = view.movement
    fixed = movement.fixed if movement else frozenset()
    begins: dict[str, bool] = {}
    for command in view.legal:
        if isinstance(command, BeginMove):
            begins[command.source] = begins.get(command.source, False) or command.leader
    if not begins and view.decision.kind is DecisionKind.CHOOSE_MOVEMENT:
        begins = {place: False for place in situation.own if place in m.dist}
        for place in list(begins):
            begins[place] = any(default_components().block(b).is_leader for b in situation.own[place])
    claimed = set(bot.claimed)
    blocked = {loc for loc, n in situation.enemy.items() if n} | situation.enemy_discs
    found = []
    for source, leader_move in begins.items():
        if situation.enemy.get(source, 0):
            continue  # stay and fight where the enemy is
        movable = [b for b in situation.own.get(source, ()) if b not in fixed]
        movers = [b for b in movable if b not in guards(bot.side, situation, source, movable)]
        if not movers:
            continue
        own_lead = (m.castles.get(source) is bot.side and situation.castle.get(source) is bot.side) or m.capitals.get(bot.side) == source
        lead = own_lead or leader_move
        leader_flag = leader_move and not own_lead
        reach = m.reach(source, 1 + (1 if lead else 0), blocked)
        groups: list[Group] = []
        movers.sort(key=lambda b: (strength(b), b))  # weakest first: raiders
        # Raids: single blocks to undefended prizes.
        for target in sorted(reach, key=lambda t: (reach[t], t)):
            if len(movers) <= 1 or target in claimed or situation.enemy.get(target, 0):
                continue
            value = gain(bot.side, situation, target, 1)
            if value is not None and value >= 1.5:
                block = movers.pop(0)
                groups.append(Group(Counter([kind_of(block)]), target, value))
                claimed.add(target)
        # The main body: the best target in reach, else toward the nearest prize.
        body = movers[-4:] if len(movers) > 4 else movers
        best: tuple[float, str] | None = None
        for target in reach:
            if target in claimed and not situation.enemy.get(target, 0):
                continue
            value = gain(bot.side, situation, target, len(movers) if situation.enemy.get(target, 0) else len(body))
            if value is not None and value > 0.5 and (best is None or (value, target) > best):
                best = (value, target)
        if best is not None:
            group = movers if situation.enemy.get(best[1], 0) else body
            if len(group) > 4 and situation.enemy.get(best[1], 0) and reach[best[1]] > 1:
                group = group[-4:]
            groups.append(Group(Counter(kind_of(b) for b in group), best[1], best[0]))
            claimed.add(best[1])
        elif len(movers) >= 1 and source != HOME[bot.side]:
            prize = far_prize(bot.side, situation, source, claimed)
            if prize is not None:
                groups.append(Group(Counter(kind_of(b) for b in body), prize[1], prize[0]))
        if groups:
            found.append(Plan(source, leader_flag, groups, sum(g.value for g in groups)))
    return found


def far_prize(side: Side, situation: Situation, source: str, claimed: set[str]) -> tuple[float, str] | None:
    m = map_data()
    best = None
    for target in list(m.castles) + sorted(m.resources):
        if target in claimed or target == source:
            continue
        value = gain(side, situation, target, 3)
        if value is None or value <= 0:
            continue
        d = m.distance(source, target)
        score = value / (1 + d)
        if best is None or score > best[0]:
            best = (score * 2, target)
    return best
