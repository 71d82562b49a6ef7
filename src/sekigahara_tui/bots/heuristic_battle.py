"""Level 1's combat decisions (8): which combat to fight first, whether to stay
in a castle (8.9.2), what to deploy (the play with the most Impact, same-daimyo
bonus 8.3.3, cavalry and guns only with swords cards 8.4.1, never risking the
great leader), whether to challenge (R48: the chance that the enemy cannot
refute, from the cards it may hold, times the Impact at stake), which pieces to
lose (8.7: the weakest, never the great leader or Hideyori first) and where to
retreat (8.8: toward friends, away from the enemy)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules.surface import (
    AllowPlay,
    Challenge,
    ChooseCasualty,
    ComeOutside,
    Command,
    DeclareCombat,
    DeclareDone,
    Deploy,
    DeployLeader,
    PlayerView,
    Retreat,
    Side,
    StayInside,
    default_components,
)
from sekigahara_tui.bots.heuristic_cards import card_value
from sekigahara_tui.bots.heuristic_situation import Situation
from sekigahara_tui.bots.knowledge import HIDEYORI, HOME, MAIN_LEADERS, map_data

if TYPE_CHECKING:
    from sekigahara_tui.bots.heuristic import HeuristicBot


def declare_combat(bot: HeuristicBot, view: PlayerView) -> Command | None:
    situation = Situation.of(view)
    options = [c for c in view.legal if isinstance(c, DeclareCombat)]
    return max(options, key=lambda c: (situation.mine(c.location) - situation.enemy.get(c.location, 0), c.location), default=None)


def castle_choice(bot: HeuristicBot, view: PlayerView) -> Command | None:
    situation = Situation.of(view)
    battle = view.combat.battle if view.combat else None
    location = battle.location if battle else None
    if location is None and view.combat is not None:
        pending = sorted(view.combat.pending)
        location = pending[0] if pending else None
    inside = StayInside(bot.side)
    if location is None or inside not in view.legal:
        return ComeOutside(bot.side)
    mine, theirs = situation.mine(location), situation.enemy.get(location, 0)
    if view.active is bot.side:
        return ComeOutside(bot.side) if mine >= 2 * theirs + 1 else inside
    return inside if theirs > mine or MAIN_LEADERS[bot.side] in situation.own.get(location, ()) else ComeOutside(bot.side)


def deploy_impact(side: Side, view: PlayerView, blocks: tuple[str, ...], card: str | None) -> int:
    c = default_components()
    battle = view.combat.battle
    mine = [c.block(d.block) for d in battle.deployments if d.side is side]
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


def deploy_scores(side: Side, view: PlayerView) -> list[tuple[float, Command]]:
    """(score, command) for every deployment level 1 would consider (never
    risking the great leader), in the order of `view.legal`."""
    battle = view.combat.battle if view.combat else None
    if battle is None:
        return []
    leader = MAIN_LEADERS[side]
    deployed_mine = sum(1 for d in battle.deployments if d.side is side)
    behind = battle.impact[side.other] - battle.impact[side]
    found = []
    for command in view.legal:
        if isinstance(command, Deploy):
            blocks, card = command.blocks, command.card
            score = deploy_impact(side, view, blocks, card) - 0.2 * card_value(view, card)
        elif isinstance(command, DeployLeader):
            blocks, card = (command.block,), None
            score = deploy_impact(side, view, blocks, None) + 0.5
        else:
            continue
        if leader in blocks:
            impact = deploy_impact(side, view, blocks, card)
            if not (deployed_mine >= 3 and 0 <= behind < impact):
                continue
        found.append((score, command))
    return found


def deploy(bot: HeuristicBot, view: PlayerView) -> Command | None:
    battle = view.combat.battle if view.combat else None
    if battle is None:
        return None
    best, best_score = DeclareDone(bot.side), 0.0
    for score, command in deploy_scores(bot.side, view):
        if score > best_score:
            best, best_score = command, score
    return best


def challenge(bot: HeuristicBot, view: PlayerView) -> Command | None:
    battle = view.combat.battle if view.combat else None
    challenges = [c for c in view.legal if isinstance(c, Challenge)]
    if battle is None or not challenges:
        return AllowPlay(bot.side)
    play = [d for d in battle.deployments if d.play == battle.open_play and d.owner is bot.side.other]
    if not play or any(d.card is None for d in play):
        return AllowPlay(bot.side)
    swing = 2 * sum(d.impact - d.special for d in play)
    chance = bot.cards.chance_unrefuted(play[0].block, view.enemy_hand_size, battle.cards_played[bot.side.other])
    if chance >= 0.25 and chance * swing >= 2.0:
        return challenges[0]
    return AllowPlay(bot.side)


def casualty(bot: HeuristicBot, view: PlayerView) -> Command | None:
    c = default_components()

    def cost(command: ChooseCasualty) -> float:
        piece = command.piece
        if piece == HIDEYORI:
            return 1000.0
        if piece in {d.id for d in c.discs}:
            return 0.5
        block = c.block(piece)
        if block.id == MAIN_LEADERS[bot.side]:
            return 500.0
        return block.strength + (1.5 if block.is_leader else 0) + (0.5 if block.symbol else 0)

    return min((x for x in view.legal if isinstance(x, ChooseCasualty)), key=lambda x: (cost(x), x.piece), default=None)


def retreat_score(side: Side, view: PlayerView, command: Retreat, situation: Situation | None = None) -> float:
    situation = situation or Situation.of(view)
    m = map_data()
    value = 0.0
    if command.to != "castle":
        value += situation.mine(command.to) - 3 * situation.enemy.get(command.to, 0) - 0.5 * situation.threat(command.to)
        value -= 0.1 * m.distance(command.to, HOME[side])
    if MAIN_LEADERS[side] in command.garrison:
        value -= 3
    value += 0.3 * len(command.garrison)
    return value


def retreat(bot: HeuristicBot, view: PlayerView) -> Command | None:
    situation = Situation.of(view)
    return max(
        (x for x in view.legal if isinstance(x, Retreat)),
        key=lambda x: (retreat_score(bot.side, view, x, situation), x.to, x.garrison),
        default=None,
    )
