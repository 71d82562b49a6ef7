"""Level 1's card sense in battle (issue 25 §2): a card is spent only where it
can change the battle's result. Exact choices in small hand-built battles
(docs/positions.md); each test is named after the rule it relies on."""

from __future__ import annotations

from bot_helpers import decide, kuwana_battle

from rules.commands import AllowPlay, DeclareCombat, DeclareDone, Deploy, DeployLeader
from rules.engine import apply
from rules.sides import Side
from rules.view import view


def battle(kuwana: list[str], ishida: list[str], tokugawa: list[str]):
    """Tokugawa attacks at Kuwana (8.2.1): the battle begins, Tokugawa to deploy first."""
    state = kuwana_battle(kuwana, ishida, tokugawa)
    state, _ = apply(state, DeclareCombat(Side.TOKUGAWA, "kuwana"))
    return state


def allowed(state):
    """Ishida lets the play just made stand (R48), when it is asked."""
    if any(isinstance(c, AllowPlay) for c in view(state, Side.ISHIDA).legal):
        state, _ = apply(state, AllowPlay(Side.ISHIDA))
    return state


def test_8_2_4_a_leader_that_may_enter_free_is_deployed_free_not_with_a_card():
    # The attacker opens (R23) holding only Fukushima's double card. Before this
    # change level 1 played it for the leader and the 2-block together (4 Impact);
    # the leader may enter without a card now (8.2.4), so the card is not paid for it.
    state = battle(["ukita-leader", "ukita-2-1", "fukushima-leader", "fukushima-2-1"], ["ukita-plain-1"], ["fukushima-double"])
    legal = view(state, Side.TOKUGAWA).legal
    assert Deploy(Side.TOKUGAWA, "fukushima-double", ("fukushima-2-1", "fukushima-leader")) in legal
    assert decide(state, Side.TOKUGAWA) == DeployLeader(Side.TOKUGAWA, "fukushima-leader")


def defence(ishida_blocks: list[str]):
    """Tokugawa opens with a 3-block (3 Impact, fukushima-plain-1); Ishida, behind, holds
    only Ukita's double card."""
    state = battle([*ishida_blocks, "fukushima-3-1", "fukushima-2-1"], ["ukita-double"], ["fukushima-plain-1"])
    state, _ = apply(state, Deploy(Side.TOKUGAWA, "fukushima-plain-1", ("fukushima-3-1",)))
    state = allowed(state)
    assert view(state, Side.ISHIDA).combat.battle.impact[Side.TOKUGAWA] == 3
    return state


def test_8_5_a_defence_that_cannot_be_won_spends_no_card():
    # Ishida's one Ukita block makes 2 Impact at most: it cannot reach 3 (8.2.1: a
    # tie would do), nor the 7 that costs Tokugawa a block (8.7.1). Before this
    # change level 1 spent the double card for the 2 Impact anyway.
    state = defence(["ukita-2-1"])
    assert Deploy(Side.ISHIDA, "ukita-double", ("ukita-2-1",)) in view(state, Side.ISHIDA).legal
    assert decide(state, Side.ISHIDA) == DeclareDone(Side.ISHIDA)


def test_8_5_a_defence_that_can_be_won_deploys():
    # With a 3-block beside it the double card brings 3 + 2 + 1 (8.3.3, 8.4.2): it deploys both.
    state = defence(["ukita-2-1", "ukita-3-1"])
    assert decide(state, Side.ISHIDA) == Deploy(Side.ISHIDA, "ukita-double", ("ukita-2-1", "ukita-3-1"))


def test_8_7_1_a_lost_battle_still_deploys_for_the_enemy_s_next_casualty():
    # Leaders enter free (8.2.4), 1-1; Tokugawa's double card brings its two 3-blocks
    # (3 + 1, 3 + 2: 8.3.3): 10 to 1. Ishida's two 2-blocks make 8 at most: no tie,
    # the battle is lost; but the double card's 3 + 4 takes Ishida to 8, past 7:
    # Tokugawa loses a block (8.7.1), so the card is spent.
    state = battle(["ukita-leader", "ukita-2-1", "ukita-2-2", "fukushima-leader", "fukushima-3-1", "fukushima-3-2"],
                   ["ukita-double"], ["fukushima-double"])
    state, _ = apply(state, DeployLeader(Side.TOKUGAWA, "fukushima-leader"))
    state, _ = apply(state, DeployLeader(Side.ISHIDA, "ukita-leader"))  # 1-1: the attacker is behind (8.5)
    state, _ = apply(state, Deploy(Side.TOKUGAWA, "fukushima-double", ("fukushima-3-1", "fukushima-3-2")))
    state = allowed(state)
    battle_now = view(state, Side.ISHIDA).combat.battle
    assert (battle_now.impact[Side.TOKUGAWA], battle_now.impact[Side.ISHIDA]) == (10, 1)
    assert decide(state, Side.ISHIDA) == Deploy(Side.ISHIDA, "ukita-double", ("ukita-2-1", "ukita-2-2"))


def test_8_7_1_no_card_for_impact_that_reaches_no_casualty():
    # The same battle with one 2-block: 3 more Impact, 4 in all, short of 7 and of a tie.
    state = battle(["ukita-leader", "ukita-2-1", "fukushima-leader", "fukushima-3-1", "fukushima-3-2"],
                   ["ukita-double"], ["fukushima-double"])
    state, _ = apply(state, DeployLeader(Side.TOKUGAWA, "fukushima-leader"))
    state, _ = apply(state, DeployLeader(Side.ISHIDA, "ukita-leader"))
    state, _ = apply(state, Deploy(Side.TOKUGAWA, "fukushima-double", ("fukushima-3-1", "fukushima-3-2")))
    state = allowed(state)
    assert decide(state, Side.ISHIDA) == DeclareDone(Side.ISHIDA)
