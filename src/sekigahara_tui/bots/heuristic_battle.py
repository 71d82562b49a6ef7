"""Level 1's combat decisions (8): which combat to fight first, whether to stay
in a castle (8.9.2), what to deploy (the play with the most Impact, same-daimyo
bonus 8.3.3, cavalry and guns only with swords cards 8.4.1, never risking the
great leader; card sense: a card only where it can change the battle's result,
none for a leader that may enter free, 8.2.4), whether to challenge (R48: the
chance that the enemy cannot refute, from the cards it may hold, times the
Impact at stake, where the defection changes something), which pieces to
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
    risking the great leader), in the order of `view.legal`. A card never pays
    for a leader that may enter free now (8.2.4: free before the side's first
    card deployment, and immune to challenges), unless the card's swords make
    that leader's special attack (8.4.1)."""
    battle = view.combat.battle if view.combat else None
    if battle is None:
        return []
    leader = MAIN_LEADERS[side]
    deployed_mine = sum(1 for d in battle.deployments if d.side is side)
    behind = battle.impact[side.other] - battle.impact[side]
    free = {command.block for command in view.legal if isinstance(command, DeployLeader)}
    found = []
    for command in view.legal:
        if isinstance(command, Deploy):
            blocks, card = command.blocks, command.card
            if any(b in free and not _special(view, b, card) for b in blocks):
                continue
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


def _special(view: PlayerView, block: str, card: str) -> bool:
    """8.4.1: this card would make this block's special attack (not in a siege, 8.9.5)."""
    c = default_components()
    return c.card(card).has_swords and c.block(block).symbol is not None and not view.combat.battle.siege


CASUALTY_IMPACT = 7  # 8.7.1, 8.9.4 step 2: one block lost per full 7 Impact scored against a side


def needed(side: Side, battle) -> int:
    """The Impact `side` still needs to win the battle (8.2.1: a tie goes to the defender)."""
    return battle.impact[side.other] - battle.impact[side] + (1 if side is battle.attacker else 0)


def potential(side: Side, view: PlayerView) -> int:
    """An optimistic bound of the Impact `side` can still add in this combat:
    its undeployed blocks there that a card in hand (8.2.2; a double card two,
    8.4.2) or a free leader deployment (8.2.4) could bring, each with every
    same-daimyo bonus it could get (8.3.3) and, with a swords card in hand, a
    special attack as if every block of its symbol came first (8.4.1)."""
    c = default_components()
    battle = view.combat.battle
    deployed = {d.block for d in battle.deployments}
    mine = [c.block(d.block) for d in battle.deployments if d.side is side]
    waiting = [c.block(b) for b, place in view.own_blocks if place == battle.location and b not in deployed]
    cards = [c.card(card) for card in view.hand if not c.card(card).is_loyalty]
    free = any(isinstance(command, DeployLeader) for command in view.legal)
    swords = not battle.siege and any(card.has_swords for card in cards)
    values = []
    for block in waiting:
        if not (block.any_card or (free and block.is_leader) or any(card.daimyo == block.daimyo for card in cards)):
            continue
        value = block.strength + sum(1 for b in mine + waiting if b.daimyo == block.daimyo and b is not block)
        if swords and block.symbol:
            value += 2 + 2 * sum(1 for b in mine + waiting if b.symbol == block.symbol and b is not block)
        values.append(value)
    plays = sum(2 if card.kind == "double" else 1 for card in cards)
    plays += sum(1 for block in waiting if free and block.is_leader)
    return sum(sorted(values, reverse=True)[:plays])


def worth_a_card(side: Side, view: PlayerView, command: Deploy) -> bool:
    """Whether to spend `command`'s card: while the battle can still be won by
    what is left (8.5: the side behind deploys to take the lead), or when it
    brings the enemy's next casualty (8.7.1: one block per full 7 Impact; in a
    siege that is all Impact does, 8.9.4) within reach. A card that does
    neither changes nothing but the hand."""
    battle = view.combat.battle
    need = needed(side, battle)
    left = potential(side, view)
    if not battle.siege and 0 < need <= left:
        return True
    mine = battle.impact[side]
    impact = deploy_impact(side, view, command.blocks, command.card)
    goal = (mine // CASUALTY_IMPACT + 1) * CASUALTY_IMPACT
    return mine + max(impact, left) >= goal


def deploy(bot: HeuristicBot, view: PlayerView) -> Command | None:
    battle = view.combat.battle if view.combat else None
    if battle is None:
        return None
    best, best_score = DeclareDone(bot.side), 0.0
    for score, command in deploy_scores(bot.side, view):
        if isinstance(command, Deploy) and not worth_a_card(bot.side, view, command):
            continue
        if score > best_score:
            best, best_score = command, score
    if best == DeclareDone(bot.side) and best not in view.legal:  # R23: the attacker must open
        return max(deploy_scores(bot.side, view), key=lambda sc: sc[0], default=(0.0, None))[1]
    return best


# A challenge is worth its card when the enemy is this likely not to refute it
# (R48) and the expected swing in Impact is this large.
CHALLENGE_CHANCE = 0.25
CHALLENGE_GAIN = 2.0


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
    if chance >= CHALLENGE_CHANCE and chance * swing >= CHALLENGE_GAIN and defection_matters(bot.side, view, play):
        return challenges[0]
    return AllowPlay(bot.side)


def defection_matters(side: Side, view: PlayerView, play) -> bool:
    """Whether the play's blocks changing sides would change anything (R31: its
    Impact leaves the enemy, less its special attack joins `side`): who leads
    (8.5), whether `side` can still win with what it has left, or either side's
    casualties (8.7.1). A challenge card that changes none of these is wasted."""
    battle = view.combat.battle
    lost = sum(d.impact for d in play)
    gained = sum(d.impact - d.special for d in play)
    mine, theirs = battle.impact[side], battle.impact[side.other]
    after_mine, after_theirs = mine + gained, theirs - lost
    bonus = 0 if side is battle.attacker else 1  # 8.2.1: a tie goes to the defender

    def ahead(a: int, b: int) -> bool:
        return a + bonus > b

    left = potential(side, view)
    return (
        ahead(after_mine, after_theirs) != ahead(mine, theirs)
        or ahead(after_mine + left, after_theirs) != ahead(mine + left, theirs)
        or after_mine // CASUALTY_IMPACT != mine // CASUALTY_IMPACT
        or after_theirs // CASUALTY_IMPACT != theirs // CASUALTY_IMPACT
    )


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
