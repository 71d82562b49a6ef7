"""8.2-8.6: battles (and the deployment part of sieges): deployment, Impact,
special attacks, double cards, initiative and Loyalty Challenges."""

from __future__ import annotations

from rules.alike import Pieces, block_kind, card_kind, group_kind, one_of_each
from rules.commands import AllowPlay, Challenge, DeclareDone, Deploy, DeployLeader
from rules.components import Block, Card, default_components
from rules.decision import Answer, DecisionHelp, DecisionRules, always_legal, help_text, in_hand
from rules.events import BlockDeployed, BlocksDefected, ChallengeRefuted, Event, LoyaltyChallenged, SideDone
from rules.immutable import evolve, with_field
from rules.sides import BOTH_SIDES, Side
from rules.state import Battle, Decision, DecisionKind, Deployment, GameState, SideCards, deciding


def battle_of(state: GameState) -> Battle:
    assert state.combat is not None and state.combat.battle is not None
    return state.combat.battle


def with_battle(state: GameState, battle: Battle | None) -> GameState:
    assert state.combat is not None
    return with_field(state, "combat", with_field(state.combat, "battle", battle))


# --- what is in the battle ------------------------------------------------------------


def deployed_blocks(battle: Battle) -> frozenset[str]:
    return frozenset(d.block for d in battle.deployments)


def undeployed(state: GameState, battle: Battle, side: Side) -> tuple[str, ...]:
    """8.2.1: every block of the side at the location takes part (8.9.6)."""
    done = deployed_blocks(battle)
    return tuple(b for b in state.blocks_at(battle.location, side) if b not in done)


def impact_total(battle: Battle, side: Side) -> int:
    """8.3.1: each side's running total; defectors count for their new side (R31)."""
    return sum(d.counted for d in battle.deployments if d.side is side)


def initiative(battle: Battle) -> Side | None:
    """8.5: the side losing has the initiative, the attacker at a tie; once a
    side is done it passes for good; None when both are done. In a siege only
    the attacker deploys (8.9.4)."""
    attacker, defender = battle.attacker, battle.defender
    if battle.siege:
        return None if battle.done[attacker] else attacker
    if battle.done[attacker] and battle.done[defender]:
        return None
    if battle.done[attacker]:
        return defender
    if battle.done[defender]:
        return attacker
    return attacker if impact_total(battle, attacker) <= impact_total(battle, defender) else defender


# --- Impact (8.3, 8.4) -------------------------------------------------------------------


def impact_of_deployment(battle: Battle, side: Side, block: Block, card: Card | None) -> tuple[int, int]:
    """8.3.2 base = mon; 8.3.3 +1 per block of the same daimyo already on the
    side; 8.4.1 with a swords card, a gun or cavalry block adds 2, and 2 more
    per earlier block with that symbol on the side however deployed (R26, R27).
    No special attack with a double card or in a siege. Returns (impact, special)."""
    c = default_components()
    on_side = [c.block(d.block) for d in battle.deployments if d.side is side]
    impact = block.strength + sum(1 for other in on_side if other.daimyo == block.daimyo)
    special = 0
    if card is not None and card.kind == "swords" and block.symbol and not battle.siege:
        special = 2 + 2 * sum(1 for other in on_side if other.symbol == block.symbol)
    return impact + special, special


# --- deployment (8.2.2-8.2.4, 8.4.2) ---------------------------------------------------


def card_deploys(card: Card, block: Block) -> bool:
    """8.2.2: the card's mon matches the block's; Ishida and Ii take any daimyo card (9.4, 9.5)."""
    if card.kind == "loyalty":
        return False
    return block.any_card or card.daimyo == block.daimyo


def must_open(battle: Battle, side: Side) -> bool:
    """R23: the attacker starts a battle by making the first deployment; he may
    not be done before it while he has one. (A siege attacker deploys as many
    blocks as he wishes, 8.9.4 step 1.)"""
    return side is battle.attacker and not battle.siege and not any(d.owner is side for d in battle.deployments)


def deployment_choices(state: GameState, side: Side) -> list:
    """8.2.2-8.2.4, 8.4.2: free leaders before the first card deployment, and
    each card with the blocks it can deploy (one of each alike kind)."""
    c = default_components()
    battle = battle_of(state)
    blocks = undeployed(state, battle, side)
    commands: list = []
    if not battle.card_deployed[side]:
        commands += [DeployLeader(side, b) for b in one_of_each(sorted(blocks), block_kind) if c.block(b).is_leader]
    for card_id in one_of_each(sorted(state.cards[side].hand), card_kind):
        card = c.card(card_id)
        matching = [b for b in one_of_each(sorted(blocks), block_kind) if card_deploys(card, c.block(b))]
        commands += [Deploy(side, card_id, (b,)) for b in matching]
        if card.kind == "double":
            pairs = _double_pairs([b for b in blocks if card_deploys(card, c.block(b)) and not c.block(b).any_card])
            commands += [Deploy(side, card_id, pair) for pair in pairs]
    return commands


def legal_deployments(state: GameState, side: Side) -> list:
    commands = deployment_choices(state, side)
    if commands and must_open(battle_of(state), side):
        return commands
    return [*commands, DeclareDone(side)]


def why_done_illegal(state: GameState, command: DeclareDone) -> str | None:
    if must_open(battle_of(state), command.side) and deployment_choices(state, command.side):
        return "the attacker starts the battle by making the first deployment (8.2.1, R23)"
    return None


def _double_pairs(blocks: list[str]) -> list[tuple[str, str]]:
    pairs = [(a, b) for i, a in enumerate(sorted(blocks)) for b in sorted(blocks)[i + 1:]]
    return one_of_each(pairs, group_kind)


def why_deploy_illegal(state: GameState, command: Deploy) -> str | None:
    c = default_components()
    battle = battle_of(state)
    side = command.side
    if command.card not in state.cards[side].hand:
        return f"{command.card} is not in your hand (8.2.2)"
    card = c.card(command.card)
    if card.kind == "loyalty":
        return "a Loyalty Challenge card deploys no block (8.2.2)"
    limit = 2 if card.kind == "double" else 1
    if not 1 <= len(command.blocks) <= limit:
        return f"{command.card} deploys {'one or two blocks (8.4.2)' if limit == 2 else 'one block (8.2.2)'}"
    free = undeployed(state, battle, side)
    for block_id in command.blocks:
        if block_id not in free:
            return f"{block_id} is not one of your undeployed blocks at {c.location(battle.location).name} (8.2.2)"
        if not card_deploys(card, c.block(block_id)):
            return f"{command.card} does not carry {block_id}'s mon (8.2.2)"
    if len(command.blocks) == 2 and any(c.block(b).any_card for b in command.blocks):
        return "a double card that deploys Ishida Mitsunari or Ii Naomasa deploys no second block (8.4.2, 9.4)"
    return None


def why_deploy_leader_illegal(state: GameState, command: DeployLeader) -> str | None:
    battle = battle_of(state)
    if battle.card_deployed[command.side]:
        return "a leader deploys without a card only before your first card deployment (8.2.4)"
    if command.block not in undeployed(state, battle, command.side):
        return f"{command.block} is not one of your undeployed blocks here (8.2.4)"
    if not default_components().block(command.block).is_leader:
        return f"{command.block} is not a leader (8.2.4)"
    return None


def apply_deploy_leader(state: GameState, command: DeployLeader) -> tuple[GameState, list[Event]]:
    return _deploy(state, command.side, None, (command.block,))


def apply_deploy(state: GameState, command: Deploy) -> tuple[GameState, list[Event]]:
    side = command.side
    cards = state.cards[side]
    hand = tuple(card for card in cards.hand if card != command.card)
    state = evolve(state, cards=state.cards.replace(side, evolve(cards, hand=hand)))
    battle = battle_of(state)
    battle = evolve(
        battle,
        cards_played=battle.cards_played.replace(side, battle.cards_played[side] + (command.card,)),
        card_deployed=battle.card_deployed.replace(side, True),
    )
    return _deploy(with_battle(state, battle), side, command.card, command.blocks)


def _deploy(state: GameState, side: Side, card_id: str | None, blocks: tuple[str, ...]) -> tuple[GameState, list[Event]]:
    """8.2.3: place the blocks face up and add their Impact; then the other
    side may challenge a card play (8.6.1, R48), or the initiative is judged (8.5)."""
    c = default_components()
    battle = battle_of(state)
    card = c.card(card_id) if card_id else None
    play = battle.plays + 1
    events: list[Event] = []
    for block_id in blocks:
        impact, special = impact_of_deployment(battle, side, c.block(block_id), card)
        deployment = Deployment(block_id, side, side, card_id, impact, special, play)
        battle = evolve(battle, deployments=battle.deployments + (deployment,))
        events.append(BlockDeployed(side, block_id, card_id, impact))
    battle = evolve(battle, plays=play)
    state = evolve(state, revealed=state.revealed | set(blocks))
    challenger = side.other
    if card is not None and not battle.siege and state.cards[challenger].hand:
        battle = evolve(battle, open_play=play)
        return evolve(with_battle(state, battle), decision=deciding(DecisionKind.CHALLENGE, challenger)), events
    state, more = next_deployment(with_battle(state, battle))
    return state, events + more


def next_deployment(state: GameState) -> tuple[GameState, list[Event]]:
    """Hand the initiative on (8.5), or end the deployments when both are done.
    R23: an attacker with no first deployment to make is done at once."""
    battle = battle_of(state)
    side = initiative(battle)
    if side is None:
        return evolve(state, decision=Decision(DecisionKind.NONE, frozenset())), []
    if must_open(battle, side) and not deployment_choices(state, side):
        battle = evolve(battle, done=battle.done.replace(side, True))
        state, events = next_deployment(with_battle(state, battle))
        return state, [SideDone(side), *events]
    return evolve(state, decision=deciding(DecisionKind.DEPLOY, side)), []


def apply_declare_done(state: GameState, command: DeclareDone) -> tuple[GameState, list[Event]]:
    battle = battle_of(state)
    battle = evolve(battle, done=battle.done.replace(command.side, True))
    state, events = next_deployment(with_battle(state, battle))
    return state, [SideDone(command.side), *events]


# --- Loyalty Challenges (8.6, R31, R48) ---------------------------------------------------


def open_play_deployments(battle: Battle) -> list[Deployment]:
    return [d for d in battle.deployments if d.play == battle.open_play]


def legal_challenges(state: GameState, side: Side) -> list:
    c = default_components()
    loyalty = [card for card in state.cards[side].hand if c.card(card).kind == "loyalty"]
    return [*(Challenge(side, card) for card in one_of_each(sorted(loyalty), card_kind)), AllowPlay(side)]


def why_challenge_illegal(state: GameState, command: Challenge) -> str | None:
    if command.card not in state.cards[command.side].hand:
        return f"{command.card} is not in your hand (8.6.1)"
    if default_components().card(command.card).kind != "loyalty":
        return f"{command.card} is not a Loyalty Challenge card (8.6.1, R48)"
    return None


def refuting_card(state: GameState, owner: Side, blocks: list[str]) -> str | None:
    """R48: a card in the deployer's hand that could have deployed the block,
    or both blocks of a double play."""
    c = default_components()
    for card in sorted(state.cards[owner].hand):
        if all(card_deploys(c.card(card), c.block(b)) for b in blocks):
            return card
    return None


def apply_challenge(state: GameState, command: Challenge) -> tuple[GameState, list[Event]]:
    """8.6.1: refuted if the deployer can show a matching card (it stays in his
    hand); otherwise the blocks defect (8.6.3: both of a double play), moving
    their Impact without special attack (R31), and the initiative is judged again."""
    challenger = command.side
    owner = challenger.other
    cards = state.cards[challenger]
    hand = tuple(card for card in cards.hand if card != command.card)
    state = evolve(state, cards=state.cards.replace(challenger, evolve(cards, hand=hand)))
    battle = battle_of(state)
    targets = open_play_deployments(battle)
    blocks = [d.block for d in targets]
    events: list[Event] = [LoyaltyChallenged(challenger, command.card, tuple(blocks))]
    shown = refuting_card(state, owner, blocks)
    defect = shown is None
    deployments = tuple(
        evolve(d, challenged=True, side=challenger if defect else d.side) if d.play == battle.open_play else d
        for d in battle.deployments
    )
    battle = evolve(
        battle,
        deployments=deployments,
        open_play=None,
        cards_played=battle.cards_played.replace(challenger, battle.cards_played[challenger] + (command.card,)),
    )
    events.append(BlocksDefected(owner, tuple(blocks)) if defect else ChallengeRefuted(owner, shown))
    state, more = next_deployment(with_battle(state, battle))
    return state, events + more


def apply_allow_play(state: GameState, command: AllowPlay) -> tuple[GameState, list[Event]]:
    battle = evolve(battle_of(state), open_play=None)
    return next_deployment(with_battle(state, battle))


def discard_played_cards(state: GameState) -> GameState:
    """8.10: the cards played in the combat go to their discard piles."""
    battle = battle_of(state)
    for side in BOTH_SIDES:
        cards = state.cards[side]
        state = evolve(state, cards=state.cards.replace(
            side, SideCards(cards.hand, cards.draw_pile, cards.discard_pile + battle.cards_played[side])))
    return state


# --- the decisions -------------------------------------------------------------------


def _undeployed_here(state: GameState, command: Deploy | DeployLeader) -> tuple[str, ...]:
    return undeployed(state, battle_of(state), command.side)


DEPLOY = DecisionRules(
    kind=DecisionKind.DEPLOY,
    asks="deploy a block or stop deploying (8.2-8.5)",
    help=DecisionHelp(
        title="Deploy a block or pass",
        rules="8.2.2, 8.2.4, 8.3, 8.4, 8.5, R23, R28, R29",
        text=help_text(
            "You hold the initiative: play a card to deploy a block of the same mon.",
            "Impact = its mon, +1 per block of that daimyo you already deployed here; with a",
            "swords card a gun/cavalry block adds +2, and +2 per earlier block with that symbol.",
            "A double card deploys one or two blocks of its mon, with no special attack (R28).",
            "Any card (not Loyalty) deploys Ishida Mitsunari or Ii Naomasa. Leaders may be",
            "deployed without a card until your first card deployment in this combat (8.2.4).",
            "You deploy until you lead; passing hands the initiative over for good (R29).",
            "Answer with: deploy <card> <blocks...>; lead <leader block>; pass",
        ),
    ),
    legal=legal_deployments,
    answers={
        Deploy: Answer(why_deploy_illegal, apply_deploy, (
            Pieces("card", card_kind, in_hand, "8.2.2"), Pieces("blocks", block_kind, _undeployed_here, "8.2.2"))),
        DeployLeader: Answer(why_deploy_leader_illegal, apply_deploy_leader,
                             (Pieces("block", block_kind, _undeployed_here, "8.2.4"),)),
        DeclareDone: Answer(why_done_illegal, apply_declare_done),
    },
    finishing=DeclareDone,
)

CHALLENGE = DecisionRules(
    kind=DecisionKind.CHALLENGE,
    asks="challenge the loyalty of the play just made, or allow it (8.6)",
    help=DecisionHelp(
        title="Challenge the play, or allow it",
        rules="8.6, 8.6.2, 8.6.3, R31, R48",
        text=help_text(
            "The enemy just deployed with a card. With a Loyalty Challenge card you may",
            "challenge that play; this is asked whenever you hold any card, so the question",
            "itself gives nothing away.",
            "If the deployer holds another card that could have deployed the block(s), the",
            "challenge fails (shown automatically, R48). Otherwise the block(s) defect: their",
            "Impact, less any special attack, moves to your side for this battle (R31).",
            "Leaders deployed without a card are immune; no challenges in sieges.",
            "Answer with: challenge <loyalty card> | allow",
        ),
    ),
    legal=legal_challenges,
    answers={
        Challenge: Answer(why_challenge_illegal, apply_challenge, (Pieces("card", card_kind, in_hand, "8.6.1"),)),
        AllowPlay: Answer(always_legal, apply_allow_play),
    },
    finishing=AllowPlay,
)
