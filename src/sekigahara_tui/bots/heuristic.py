"""Level 1, "heuristic": rules of thumb, one small scoring function per kind of
decision, in the spirit of GMT's COIN bots. It sees only its side's view and
events (rules.surface) and answers in a few milliseconds.

- Movement: each stack keeps a guard (the side's great leader with at least
  four blocks at home, one block in a captured castle, more under threat);
  single blocks raid undefended castles and resource locations in reach; the
  rest attack only where they outnumber the enemy well (an overrun, or at
  least 2:1), else march on the nearest prize. Cards buy as many stack moves
  as there are useful ones (7.1).
- Musters: as many blocks as possible, where the enemy is near.
- Bids and discards: the least useful card (plain cards of daimyo with few
  blocks on the map first); the winner of the bid moves first.
- Battles: deploy the play with the most Impact (same-daimyo bonus 8.3.3,
  cavalry and guns only with swords cards 8.4.1), never risking the great
  leader; challenge when the chance that the enemy cannot refute (R48),
  worked out from the cards it may hold, times the Impact at stake is large.
- Casualties: the weakest blocks, never the great leader or Hideyori first;
  retreats toward friends and away from the enemy.
"""

from __future__ import annotations

import copy
import random
from collections import Counter
from typing import Sequence

from attrs import define, field

from rules.surface import (
    AllowPlay,
    BeginMove,
    Bid,
    Challenge,
    ChooseCasualty,
    ChooseFirstPlayer,
    ChooseMovement,
    ComeOutside,
    Command,
    DecisionKind,
    DeclareCombat,
    DeclareDone,
    Deploy,
    DeployLeader,
    Deselect,
    EndExchange,
    EndMovement,
    EndStackMove,
    EnterFromMoriBox,
    Event,
    ExchangeCard,
    Halt,
    MovementOption,
    Muster,
    PlayerView,
    ReinforcementDiscard,
    Retreat,
    Select,
    Side,
    StayInside,
    Step,
    default_components,
)
from sekigahara_tui.bots.knowledge import HIDEYORI, HOME, MAIN_LEADERS, CardMemory, map_data

Kind = tuple[str, str]  # (daimyo, kind): alike blocks (rules.alike)


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


class HeuristicBot:
    def __init__(self, side: Side, seed: int) -> None:
        self.side = side
        self.random = random.Random(f"heuristic/{side.value}/{seed}")
        self.cards = CardMemory(side)
        self.plan: Plan | None = None
        self.claimed: set[str] = set()
        self.phase_key: tuple | None = None

    # --- the interface -------------------------------------------------------------

    def observe(self, events: Sequence[Event]) -> None:
        self.cards.observe(events)

    def choose(self, view: PlayerView, budget_s: float) -> Command:
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        handler = getattr(self, "_" + view.decision.kind.name.lower(), None)
        command = handler(view) if handler is not None else None
        if command is None or command not in legal:
            command = legal[0]
        return command

    # --- cards -----------------------------------------------------------------------

    def card_value(self, view: PlayerView, card_id: str) -> float:
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

    def _cheapest(self, view: PlayerView, commands, cards_of) -> Command | None:
        return min(commands, key=lambda cmd: sum(self.card_value(view, card) for card in cards_of(cmd)), default=None)

    def _reinforcement_discard(self, view: PlayerView) -> Command | None:
        return self._cheapest(view, [c for c in view.legal if isinstance(c, ReinforcementDiscard)], lambda c: (c.card,))

    def _bid(self, view: PlayerView) -> Command | None:
        return self._cheapest(view, [c for c in view.legal if isinstance(c, Bid)], lambda c: (c.card,))

    def _choose_first_player(self, view: PlayerView) -> Command | None:
        return ChooseFirstPlayer(self.side, self.side)

    # --- movement ----------------------------------------------------------------------

    def _new_phase(self, view: PlayerView) -> None:
        key = (view.week, view.turn, view.active)
        if key != self.phase_key:
            self.phase_key = key
            self.claimed = set()
            self.plan = None

    def _choose_movement(self, view: PlayerView) -> Command | None:
        self._new_phase(view)
        plans = [p for p in self.plans(view, Situation.of(view)) if p.value >= 1.0]
        muster = view.recruitment_box_sizes[self.side] > 0
        needed = len(plans) + (1 if muster else 0)
        hand = len(view.hand)
        if needed >= 4 and hand >= 4:
            option = MovementOption.FULL
        elif needed >= 2 and hand >= 3:
            option = MovementOption.LIMITED
        elif needed >= 1:
            option = MovementOption.MINIMAL
        else:
            option = MovementOption.PASS
        choices = [c for c in view.legal if isinstance(c, ChooseMovement) and c.option is option]
        return self._cheapest(view, choices, lambda c: c.cards)

    def _exchange_cards(self, view: PlayerView) -> Command | None:
        exchanges = [c for c in view.legal if isinstance(c, ExchangeCard)]
        cheap = self._cheapest(view, exchanges, lambda c: (c.card,))
        if cheap is not None and self.card_value(view, cheap.card) < 1.3 and (view.movement is None or view.movement.exchanged < 3):
            return cheap
        return EndExchange(self.side)

    def _move(self, view: PlayerView) -> Command | None:
        self._new_phase(view)
        situation = Situation.of(view)
        movement = view.movement
        mori = self._mori(view, situation)
        if mori is not None:
            return mori
        plans = [p for p in self.plans(view, situation) if p.value >= 1.0]
        plans.sort(key=lambda p: -p.value)
        option = movement.option if movement else None
        slots = {MovementOption.MINIMAL: 1, MovementOption.LIMITED: 3}.get(option, 99) - (movement.stack_moves if movement else 0)
        musters = [c for c in view.legal if isinstance(c, Muster)]
        if musters and (option is MovementOption.FULL or len(plans) < slots or not plans):
            return max(musters, key=lambda c: self.muster_score(c, situation))
        for plan in plans:
            begin = BeginMove(self.side, plan.source, plan.leader)
            if begin in view.legal:
                self.plan = plan
                for group in plan.groups:
                    self.claimed.add(group.target)
                return begin
        return EndMovement(self.side)

    def _mori(self, view: PlayerView, situation: Situation) -> Command | None:
        entries = [c for c in view.legal if isinstance(c, EnterFromMoriBox)]
        if not entries:
            return None
        home = HOME[self.side]
        pressed = situation.threat(home) + situation.enemy.get(home, 0) >= situation.mine(home)
        if len(view.hand) >= 7 or (pressed and len(view.hand) >= 3):
            return self._cheapest(view, entries, lambda c: (c.card,))
        return None

    def muster_score(self, command: Muster, situation: Situation) -> float:
        place = command.location
        score = 3.0 * len(command.blocks) + min(situation.threat(place), 4.0)
        if MAIN_LEADERS[self.side] in situation.own.get(place, ()):
            score += 1.0
        return score

    def guards(self, view: PlayerView, situation: Situation, source: str, movable: list[str]) -> set[str]:
        """Blocks that stay: the great leader and its bodyguard, a castle's garrison."""
        m = map_data()
        keep: set[str] = set()
        threat = situation.threat(source)
        ranked = sorted(movable, key=lambda b: (-strength(b), b))
        leader = MAIN_LEADERS[self.side]
        if leader in situation.own.get(source, ()):
            keep.add(leader)
            others = [b for b in ranked if b != leader]
            keep.update(others[: max(4, int(threat) + 2)])
        elif source in m.castles and situation.castle.get(source) is self.side:
            wanted = 1 if m.castles[source] is not self.side else 0
            if threat >= 1:
                wanted = max(wanted, min(2, int(threat)))
            keep.update(ranked[:wanted])
        return keep & set(movable)

    def gain(self, situation: Situation, target: str, size: int) -> float | None:
        """What a group of `size` blocks gains by ending its move at `target`;
        None where it should not go (an attack without a clear edge)."""
        m = map_data()
        me = self.side
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

    def plans(self, view: PlayerView, situation: Situation) -> list[Plan]:
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
        claimed = set(self.claimed)
        blocked = {loc for loc, n in situation.enemy.items() if n} | situation.enemy_discs
        found = []
        for source, leader_move in begins.items():
            if situation.enemy.get(source, 0):
                continue  # stay and fight where the enemy is
            movable = [b for b in situation.own.get(source, ()) if b not in fixed]
            movers = [b for b in movable if b not in self.guards(view, situation, source, movable)]
            if not movers:
                continue
            own_lead = (m.castles.get(source) is self.side and situation.castle.get(source) is self.side) or m.capitals.get(self.side) == source
            lead = own_lead or leader_move
            leader_flag = leader_move and not own_lead
            reach = m.reach(source, 1 + (1 if lead else 0), blocked)
            groups: list[Group] = []
            movers.sort(key=lambda b: (strength(b), b))  # weakest first: raiders
            # Raids: single blocks to undefended prizes.
            for target in sorted(reach, key=lambda t: (reach[t], t)):
                if len(movers) <= 1 or target in claimed or situation.enemy.get(target, 0):
                    continue
                value = self.gain(situation, target, 1)
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
                value = self.gain(situation, target, len(movers) if situation.enemy.get(target, 0) else len(body))
                if value is not None and value > 0.5 and (best is None or (value, target) > best):
                    best = (value, target)
            if best is not None:
                group = movers if situation.enemy.get(best[1], 0) else body
                if len(group) > 4 and situation.enemy.get(best[1], 0) and reach[best[1]] > 1:
                    group = group[-4:]
                groups.append(Group(Counter(kind_of(b) for b in group), best[1], best[0]))
                claimed.add(best[1])
            elif len(movers) >= 1 and source != HOME[self.side]:
                prize = self.far_prize(situation, source, claimed)
                if prize is not None:
                    groups.append(Group(Counter(kind_of(b) for b in body), prize[1], prize[0]))
            if groups:
                found.append(Plan(source, leader_flag, groups, sum(g.value for g in groups)))
        return found

    def far_prize(self, situation: Situation, source: str, claimed: set[str]) -> tuple[float, str] | None:
        m = map_data()
        best = None
        for target in list(m.castles) + sorted(m.resources):
            if target in claimed or target == source:
                continue
            value = self.gain(situation, target, 3)
            if value is None or value <= 0:
                continue
            d = m.distance(source, target)
            score = value / (1 + d)
            if best is None or score > best[0]:
                best = (score * 2, target)
        return best

    def _stack_move(self, view: PlayerView) -> Command | None:
        movement = view.movement
        current = movement.stack_move if movement else None
        plan = self.plan
        done = EndStackMove(self.side)
        if current is None or plan is None or plan.source != current.source:
            return done
        plan.commands += 1
        if plan.commands > 80:
            return done
        legal = view.legal
        m = map_data()
        while plan.index < len(plan.groups):
            group = plan.groups[plan.index]
            selection = current.selection
            if plan.selecting:
                have = Counter(kind_of(b) for b in selection)
                need = group.kinds - have
                extra = have - group.kinds
                for command in legal:
                    if isinstance(command, Deselect) and kind_of(command.block) in extra:
                        return command
                for command in legal:
                    if isinstance(command, Select) and kind_of(command.block) in need:
                        return command
                if not selection:
                    plan.index += 1
                    continue
                plan.selecting = False
            if not selection:  # the group has ended its move
                plan.index += 1
                plan.selecting = True
                continue
            at = current.progress(selection[0]).at
            steps = [c for c in legal if isinstance(c, Step) and m.distance(c.to, group.target) < m.distance(at, group.target)]
            if at != group.target and steps:
                return min(steps, key=lambda c: (m.distance(c.to, group.target), c.to))
            plan.index += 1
            plan.selecting = True
            halt = Halt(self.side)
            if halt in legal:
                return halt
        return done

    # --- combat ----------------------------------------------------------------------

    def _declare_combat(self, view: PlayerView) -> Command | None:
        situation = Situation.of(view)
        options = [c for c in view.legal if isinstance(c, DeclareCombat)]
        return max(options, key=lambda c: (situation.mine(c.location) - situation.enemy.get(c.location, 0), c.location), default=None)

    def _castle_choice(self, view: PlayerView) -> Command | None:
        situation = Situation.of(view)
        battle = view.combat.battle if view.combat else None
        location = battle.location if battle else None
        if location is None and view.combat is not None:
            pending = sorted(view.combat.pending)
            location = pending[0] if pending else None
        inside = StayInside(self.side)
        if location is None or inside not in view.legal:
            return ComeOutside(self.side)
        mine, theirs = situation.mine(location), situation.enemy.get(location, 0)
        if view.active is self.side:
            return ComeOutside(self.side) if mine >= 2 * theirs + 1 else inside
        return inside if theirs > mine or MAIN_LEADERS[self.side] in situation.own.get(location, ()) else ComeOutside(self.side)

    def deploy_impact(self, view: PlayerView, blocks: tuple[str, ...], card: str | None) -> int:
        c = default_components()
        battle = view.combat.battle
        mine = [c.block(d.block) for d in battle.deployments if d.side is self.side]
        swords = card is not None and c.card(card).has_swords and not battle.siege
        total = 0
        for block_id in blocks:
            block = c.block(block_id)
            impact = block.strength + sum(1 for b in mine if b.daimyo == block.daimyo)
            if swords and block.symbol and len(blocks) == 1:
                impact += 2 + 2 * sum(1 for b in mine if b.symbol == block.symbol)
            mine.append(block)
            total += impact
        return total

    def deploy_scores(self, view: PlayerView) -> list[tuple[float, Command]]:
        """(score, command) for every deployment level 1 would consider (never
        risking the great leader), in the order of `view.legal`."""
        battle = view.combat.battle if view.combat else None
        if battle is None:
            return []
        leader = MAIN_LEADERS[self.side]
        deployed_mine = sum(1 for d in battle.deployments if d.side is self.side)
        behind = battle.impact[self.side.other] - battle.impact[self.side]
        found = []
        for command in view.legal:
            if isinstance(command, Deploy):
                blocks, card = command.blocks, command.card
                score = self.deploy_impact(view, blocks, card) - 0.2 * self.card_value(view, card)
            elif isinstance(command, DeployLeader):
                blocks, card = (command.block,), None
                score = self.deploy_impact(view, blocks, None) + 0.5
            else:
                continue
            if leader in blocks:
                impact = self.deploy_impact(view, blocks, card)
                if not (deployed_mine >= 3 and 0 <= behind < impact):
                    continue
            found.append((score, command))
        return found

    def _deploy(self, view: PlayerView) -> Command | None:
        battle = view.combat.battle if view.combat else None
        if battle is None:
            return None
        best, best_score = DeclareDone(self.side), 0.0
        for score, command in self.deploy_scores(view):
            if score > best_score:
                best, best_score = command, score
        return best

    def _challenge(self, view: PlayerView) -> Command | None:
        battle = view.combat.battle if view.combat else None
        challenges = [c for c in view.legal if isinstance(c, Challenge)]
        if battle is None or not challenges:
            return AllowPlay(self.side)
        play = [d for d in battle.deployments if d.play == battle.open_play and d.owner is self.side.other]
        if not play or any(d.card is None for d in play):
            return AllowPlay(self.side)
        swing = 2 * sum(d.impact - d.special for d in play)
        chance = self.cards.chance_unrefuted(play[0].block, view.enemy_hand_size, battle.cards_played[self.side.other])
        if chance >= 0.25 and chance * swing >= 2.0:
            return challenges[0]
        return AllowPlay(self.side)

    def _casualty(self, view: PlayerView) -> Command | None:
        c = default_components()

        def cost(command: ChooseCasualty) -> float:
            piece = command.piece
            if piece == HIDEYORI:
                return 1000.0
            if piece in {d.id for d in c.discs}:
                return 0.5
            block = c.block(piece)
            if block.id == MAIN_LEADERS[self.side]:
                return 500.0
            return block.strength + (1.5 if block.is_leader else 0) + (0.5 if block.symbol else 0)

        return min((x for x in view.legal if isinstance(x, ChooseCasualty)), key=lambda x: (cost(x), x.piece), default=None)

    def retreat_score(self, view: PlayerView, command: Retreat, situation: Situation | None = None) -> float:
        situation = situation or Situation.of(view)
        m = map_data()
        value = 0.0
        if command.to != "castle":
            value += situation.mine(command.to) - 3 * situation.enemy.get(command.to, 0) - 0.5 * situation.threat(command.to)
            value -= 0.1 * m.distance(command.to, HOME[self.side])
        if MAIN_LEADERS[self.side] in command.garrison:
            value -= 3
        value += 0.3 * len(command.garrison)
        return value

    def _retreat(self, view: PlayerView) -> Command | None:
        situation = Situation.of(view)
        return max(
            (x for x in view.legal if isinstance(x, Retreat)),
            key=lambda x: (self.retreat_score(view, x, situation), x.to, x.garrison),
            default=None,
        )

    # --- for level 2: ranked alternatives, and taking another's choice ----------------

    def candidates(self, view: PlayerView, limit: int = 4) -> list[Command]:
        """Level 1's own choice first, then the next best legal commands of this
        decision by level 1's scores, at most `limit` in all, none twice. Leaves
        this bot as it was (the choice is worked out on a copy)."""
        first = copy.deepcopy(self).choose(view, 0.0)
        ranked: list[Command] = [first]
        kind = view.decision.kind
        legal = view.legal
        situation = Situation.of(view)
        if kind in (DecisionKind.BID, DecisionKind.REINFORCEMENT_DISCARD):
            cards = [c for c in legal if isinstance(c, (Bid, ReinforcementDiscard))]
            by_value = sorted(cards, key=lambda c: (self.card_value(view, c.card), c.card))
            if kind is DecisionKind.BID and cards:  # the strongest bid, to take the initiative
                by_value.insert(1, max(cards, key=lambda c: (default_components().card(c.card).bid, c.card)))
            ranked += by_value
        elif kind is DecisionKind.CHOOSE_MOVEMENT:
            for option in (MovementOption.FULL, MovementOption.LIMITED, MovementOption.MINIMAL, MovementOption.PASS):
                choices = [c for c in legal if isinstance(c, ChooseMovement) and c.option is option]
                cheap = self._cheapest(view, choices, lambda c: c.cards)
                if cheap is not None:
                    ranked.append(cheap)
        elif kind is DecisionKind.MOVE:
            shadow = copy.deepcopy(self)
            shadow._new_phase(view)
            plans = sorted((p for p in shadow.plans(view, situation) if p.value >= 1.0), key=lambda p: -p.value)
            ranked += [BeginMove(self.side, p.source, p.leader) for p in plans]
            musters = [c for c in legal if isinstance(c, Muster)]
            if musters:
                ranked.append(max(musters, key=lambda c: self.muster_score(c, situation)))
            ranked.append(EndMovement(self.side))
        elif kind is DecisionKind.DEPLOY:
            ranked += [c for _, c in sorted(self.deploy_scores(view), key=lambda sc: -sc[0])]
            ranked.append(DeclareDone(self.side))
        elif kind is DecisionKind.CHALLENGE:
            ranked += [c for c in legal if isinstance(c, Challenge)][:1] + [AllowPlay(self.side)]
        elif kind is DecisionKind.RETREAT:
            ranked += sorted(
                (x for x in legal if isinstance(x, Retreat)),
                key=lambda x: (-self.retreat_score(view, x, situation), x.to, x.garrison),
            )
        elif kind is DecisionKind.CASTLE_CHOICE:
            ranked += [StayInside(self.side), ComeOutside(self.side)]
        found: list[Command] = []
        for command in ranked:
            if command in legal and command not in found:
                found.append(command)
            if len(found) >= limit:
                break
        return found

    def adopt(self, view: PlayerView, command: Command) -> None:
        """Take `command` as this bot's own choice at `view` (level 2 chose it):
        a stack move begun follows level 1's plan for that stack."""
        if isinstance(command, BeginMove):
            self._new_phase(view)
            plans = sorted(self.plans(view, Situation.of(view)), key=lambda p: -p.value)
            self.plan = None
            for plan in plans:
                if plan.source == command.source and plan.leader == command.leader:
                    self.plan = plan
                    for group in plan.groups:
                        self.claimed.add(group.target)
                    break
