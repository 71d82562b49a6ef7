"""8.2-8.6 battles (src/rules/battle.py): what the other tests of 8 leave
unchecked, found by mutation testing (benchmarks/mutation.py)."""

import pytest

from helpers import combat_phase, run
from rules.battle import battle_of
from rules.engine import apply
from rules.errors import IllegalCommand
from rules.events import BlocksDefected, ChallengeRefuted, LoyaltyChallenged
from rules.notation import parse_command
from rules.sides import Side

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA


# --- 8.6 Loyalty Challenges, R31, R48 -----------------------------------------------------------


def test_8_6_1_r48_the_challengers_loyalty_card_leaves_his_hand_and_counts_as_played():
    """Ishida challenges a Tokugawa play; Tokugawa holds no Date card, so the block defects."""
    state = combat_phase(TOKUGAWA, ("ishida-loyalty-1", "mori-plain-1"), ("date-plain-1",),
                         sawayama=["mori-2-1", "date-2-1"])
    state, _ = run(state, "tokugawa: combat sawayama", "tokugawa: deploy date-plain-1 date-2-1")
    state, events = run(state, "ishida: challenge ishida-loyalty-1")
    assert events[:2] == [LoyaltyChallenged(ISHIDA, "ishida-loyalty-1", ("date-2-1",)),
                          BlocksDefected(TOKUGAWA, ("date-2-1",))]
    assert state.cards[ISHIDA].hand == ("mori-plain-1",) and state.cards[TOKUGAWA].hand == ()
    battle = battle_of(state)
    assert battle.cards_played.ishida == ("ishida-loyalty-1",)
    assert battle.cards_played.tokugawa == ("date-plain-1",)


def test_r31_r48_a_challenged_play_is_marked_and_its_window_closes_refuted_or_not():
    state = combat_phase(TOKUGAWA, ("ishida-loyalty-1",), ("date-plain-1", "date-plain-2"),
                         sawayama=["mori-2-1", "date-2-1"])
    state, _ = run(state, "tokugawa: combat sawayama", "tokugawa: deploy date-plain-1 date-2-1")
    assert battle_of(state).open_play == 1
    state, events = run(state, "ishida: challenge ishida-loyalty-1")
    assert ChallengeRefuted(TOKUGAWA, "date-plain-2") in events
    battle = battle_of(state)
    assert battle.open_play is None
    assert [(d.block, d.side, d.challenged) for d in battle.deployments] == [("date-2-1", TOKUGAWA, True)]
    assert state.cards[ISHIDA].hand == () and state.cards[TOKUGAWA].hand == ("date-plain-2",)


def test_r48_allowing_a_play_closes_its_challenge_window():
    state = combat_phase(TOKUGAWA, ("ishida-loyalty-1",), ("date-plain-1",), sawayama=["mori-2-1", "date-2-1"])
    state, _ = run(state, "tokugawa: combat sawayama", "tokugawa: deploy date-plain-1 date-2-1")
    assert battle_of(state).open_play == 1
    state, _ = run(state, "ishida: allow")
    assert battle_of(state).open_play is None


# --- 8.2.4 leaders deployed without a card --------------------------------------------------------


def test_8_2_4_a_side_deploys_only_its_own_leaders_and_only_before_its_first_card():
    state = combat_phase(ISHIDA, ("mori-plain-1",), (), sawayama=["mori-leader", "mori-2-1", "tokugawa-leader", "date-2-1"])
    state, _ = run(state, "ishida: combat sawayama")
    with pytest.raises(IllegalCommand) as refusal:
        apply(state, parse_command("ishida: lead tokugawa-leader"))
    assert str(refusal.value) == "tokugawa-leader is not one of your undeployed blocks here (8.2.4)"
    state, _ = run(state, "ishida: deploy mori-plain-1 mori-2-1", "tokugawa: pass")
    with pytest.raises(IllegalCommand) as refusal:
        apply(state, parse_command("ishida: lead mori-leader"))
    assert str(refusal.value) == "a leader deploys without a card only before your first card deployment (8.2.4)"


def test_r23_the_attacker_may_not_be_done_before_his_first_deployment_whatever_the_defender_holds():
    state = combat_phase(ISHIDA, ("mori-plain-1",), (), sawayama=["mori-2-1", "date-2-1"])
    state, _ = run(state, "ishida: combat sawayama")
    with pytest.raises(IllegalCommand) as refusal:
        apply(state, parse_command("ishida: pass"))
    assert str(refusal.value) == "the attacker starts the battle by making the first deployment (8.2.1, R23)"


def test_8_2_3_a_deployment_is_told_with_its_card_and_impact():
    from rules.events import BlockDeployed

    state = combat_phase(TOKUGAWA, (), ("date-plain-1",), sawayama=["mori-2-1", "date-2-1"])
    _, events = run(state, "tokugawa: combat sawayama", "tokugawa: deploy date-plain-1 date-2-1")
    assert BlockDeployed(TOKUGAWA, "date-2-1", "date-plain-1", 2) in events


def test_8_2_2_a_card_deploys_only_its_own_sides_blocks_and_a_loyalty_card_none():
    """ii-4 takes any card (9.4), but only a Tokugawa card: it is not Ishida's block."""
    state = combat_phase(ISHIDA, ("mori-plain-1", "ishida-loyalty-1"), (), sawayama=["mori-2-1", "ii-4"])
    state, _ = run(state, "ishida: combat sawayama")
    for line, message in [
        ("ishida: deploy mori-plain-1 ii-4", "ii-4 is not one of your undeployed blocks at Sawayama (8.2.2)"),
        ("ishida: deploy ishida-loyalty-1 mori-2-1", "a Loyalty Challenge card deploys no block (8.2.2)"),
    ]:
        with pytest.raises(IllegalCommand) as refusal:
            apply(state, parse_command(line))
        assert str(refusal.value) == message
