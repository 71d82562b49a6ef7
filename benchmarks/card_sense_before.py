"""Level 1 as it was before issue 25's card sense (commit 5ccd50e), for the
A/B in card_sense.py: its deployment and challenge rules, kept verbatim as
the baseline; every other decision is today's level 1."""

from __future__ import annotations

from rules.surface import AllowPlay, Challenge, DeclareDone, DecisionKind, Deploy, DeployLeader
from sekigahara_tui.bots.heuristic import HeuristicBot
from sekigahara_tui.bots.heuristic_battle import deploy_impact
from sekigahara_tui.bots.heuristic_cards import card_value
from sekigahara_tui.bots.knowledge import MAIN_LEADERS


def deploy_scores(side, view):
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


def deploy(bot, view):
    battle = view.combat.battle if view.combat else None
    if battle is None:
        return None
    best, best_score = DeclareDone(bot.side), 0.0
    for score, command in deploy_scores(bot.side, view):
        if score > best_score:
            best, best_score = command, score
    return best


def challenge(bot, view):
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


class BeforeBot(HeuristicBot):
    def choose(self, view, budget_s):
        answer = {DecisionKind.DEPLOY: deploy, DecisionKind.CHALLENGE: challenge}.get(view.decision.kind)
        if answer is None or len(view.legal) == 1:
            return super().choose(view, budget_s)
        command = answer(self, view)
        return command if command in view.legal else view.legal[0]
