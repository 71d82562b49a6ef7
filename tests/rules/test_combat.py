"""8 Combat, 9.1-9.5, and rulings R22-R38, R41, R43, R47-R54."""

import pytest

from helpers import combat_phase, run
from rules.battle import battle_of, impact_total, initiative
from rules.commands import AllowPlay, Challenge, ComeOutside, DeclareCombat, DeclareDone, Deploy, DeployLeader, StayInside
from rules.engine import apply, legal_commands
from rules.errors import IllegalCommand
from rules.events import BlocksDefected, ChallengeRefuted, CombatDeclared, CombatEnded, MoriBlockEntered, NoCombat, Overrun, SideDone
from rules.notation import parse_command
from rules.sides import Side
from rules.components import default_components
from rules.state import ELIMINATED, Decision, DecisionKind

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA
C = default_components()


def refused(state, line, message):
    with pytest.raises(IllegalCommand, match=message):
        apply(state, parse_command(line))


def totals(state):
    battle = battle_of(state)
    return impact_total(battle, ISHIDA), impact_total(battle, TOKUGAWA)


# --- 8.1 declaring ----------------------------------------------------------------------


def test_8_1_r47_the_attacker_declares_every_combat_in_his_order():
    state = combat_phase(ISHIDA, ("mori-plain-1",), (), sawayama=["mori-2-1", "date-2-1"], kuwana=["mori-2-2", "date-2-2"])
    assert legal_commands(state, ISHIDA) == [DeclareCombat(ISHIDA, "kuwana"), DeclareCombat(ISHIDA, "sawayama")]
    state, events = run(state, "ishida: combat sawayama")
    assert CombatDeclared("sawayama", ISHIDA, False) in events
    assert state.decision.kind is DecisionKind.DEPLOY and state.decision.sides == {ISHIDA}


def test_r23_the_attacker_may_not_be_done_before_his_first_deployment():
    state = combat_phase(ISHIDA, ("mori-plain-1",), ("date-plain-1",), sawayama=["mori-2-1", "date-2-1"],
                         entered=[("sawayama", ISHIDA, "kyoto")])
    state, _ = run(state, "ishida: combat sawayama")
    assert legal_commands(state, ISHIDA) == [Deploy(ISHIDA, "mori-plain-1", ("mori-2-1",))]
    refused(state, "ishida: pass", r"the attacker starts the battle by making the first deployment \(8.2.1, R23\)")
    state, _ = run(state, "ishida: deploy mori-plain-1 mori-2-1", "tokugawa: allow")
    assert state.decision.sides == {TOKUGAWA}  # Tokugawa trails 0-2 and has the initiative (8.5)


def test_r23_an_attacker_with_no_deployment_is_done_at_once_and_loses_0_0():
    state = combat_phase(ISHIDA, ("ukita-plain-1",), ("date-plain-1",), sawayama=["mori-2-1", "date-2-1"],
                         entered=[("sawayama", ISHIDA, "kyoto")])
    state, events = run(state, "ishida: combat sawayama")
    assert events[-1] == SideDone(ISHIDA)
    assert initiative(battle_of(state)) is TOKUGAWA and state.decision.sides == {TOKUGAWA}
    state, events = run(state, "tokugawa: pass")
    assert CombatEnded("sawayama", TOKUGAWA, 0, 0, 1, 0) in events  # loser's extra block only


def test_r23_a_siege_attacker_may_be_done_at_once():
    state = combat_phase(TOKUGAWA, (), ("date-plain-1",), gifu=["mori-2-1", "date-2-1"])
    state, _ = run(state, "tokugawa: combat gifu", "ishida: inside")
    assert DeclareDone(TOKUGAWA) in legal_commands(state, TOKUGAWA)


# --- 8.2-8.5 deployment, Impact, initiative --------------------------------------------------


def test_8_2_4_leaders_deploy_free_only_before_the_first_card():
    state = combat_phase(ISHIDA, ("mori-plain-1",), ("date-plain-1",),
                         sawayama=["mori-leader", "ukita-leader", "mori-2-1", "date-3-1", "date-3-2"])
    assert DeployLeader(ISHIDA, "ukita-leader") in legal_commands(run(state, "ishida: combat sawayama")[0], ISHIDA)
    state, _ = run(state, "ishida: combat sawayama", "ishida: lead mori-leader", "tokugawa: deploy date-plain-1 date-3-1",
                   "ishida: allow", "ishida: deploy mori-plain-1 mori-2-1")
    assert totals(state) == (1 + 3, 3)  # 2 mon + 1 for the earlier Mori
    state, _ = run(state, "tokugawa: pass")  # Tokugawa's hand is empty: no challenge window
    assert DeployLeader(ISHIDA, "ukita-leader") not in legal_commands(state, ISHIDA)
    refused(state, "ishida: lead ukita-leader", r"only before your first card deployment \(8.2.4\)")

def test_8_2_2_a_card_must_carry_the_blocks_mon():
    state = combat_phase(ISHIDA, ("mori-plain-1", "ishida-loyalty-1", "ukita-plain-1"), (),
                         sawayama=["ukita-2-1", "date-2-1"])
    state, _ = run(state, "ishida: combat sawayama")
    refused(state, "ishida: deploy mori-plain-1 ukita-2-1", r"mori-plain-1 does not carry ukita-2-1's mon \(8.2.2\)")
    refused(state, "ishida: deploy ishida-loyalty-1 ukita-2-1", r"a Loyalty Challenge card deploys no block \(8.2.2\)")


def test_8_2_2_8_4_2_a_card_deploys_one_block_and_only_a_double_card_two():
    state = combat_phase(ISHIDA, ("ukita-plain-1", "ukita-double"), (),
                         sawayama=["ukita-2-1", "ukita-2-2", "ukita-3-1", "date-2-1"])
    state, _ = run(state, "ishida: combat sawayama")
    refused(state, "ishida: deploy ukita-plain-1 ukita-2-1 ukita-3-1", r"^ukita-plain-1 deploys one block \(8\.2\.2\)$")
    refused(state, "ishida: deploy ukita-double ukita-2-1 ukita-2-2 ukita-3-1",
            r"^ukita-double deploys one or two blocks \(8\.4\.2\)$")
    state, _ = run(state, "ishida: deploy ukita-double ukita-2-1 ukita-3-1")
    assert totals(state) == (2 + 3 + 1, 0)  # the second Ukita block scores +1 (8.3.3)


def test_9_4_9_5_r24_ishida_and_ii_take_any_daimyo_card():
    state = combat_phase(ISHIDA, ("mori-plain-1",), ("date-plain-1",), sawayama=["ishida-leader", "ii-4"])
    state, _ = run(state, "ishida: combat sawayama", "ishida: deploy mori-plain-1 ishida-leader",
                   "tokugawa: allow", "tokugawa: deploy date-plain-1 ii-4")
    assert totals(state) == (1, 4)


def test_8_4_2_double_card_with_ii_deploys_no_second_block():
    state = combat_phase(TOKUGAWA, ("mori-plain-1",), ("date-double",), kiyosu=["ii-4", "date-2-1", "mori-2-1"])
    state, _ = run(state, "tokugawa: combat kiyosu")
    refused(state, "tokugawa: deploy date-double date-2-1 ii-4",
            r"^a double card that deploys Ishida Mitsunari or Ii Naomasa deploys no second block \(8\.4\.2, 9\.4\)$")
    state, _ = run(state, "tokugawa: deploy date-double ii-4")
    assert totals(state) == (0, 4)

def test_8_4_1_special_attack_example_seven_impact():
    """KO: two cavalry blocks already deployed; a 1-mon cavalry with swords scores 1 + 2 + 2x2 = 7."""
    state = combat_phase(TOKUGAWA, (), ("tokugawa-plain-1", "date-plain-1", "fukushima-swords-1"),
                         kiyosu=["tokugawa-cav-1", "date-cav-1", "fukushima-cav-1", "mori-3-1"])
    state, _ = run(state, "tokugawa: combat kiyosu", "tokugawa: deploy tokugawa-plain-1 tokugawa-cav-1",
                   "ishida: pass", "tokugawa: deploy date-plain-1 date-cav-1")
    assert totals(state) == (0, 2)  # without swords, no cavalry Impact
    state, events = run(state, "tokugawa: deploy fukushima-swords-1 fukushima-cav-1")
    assert events[0].impact == 7 and totals(state) == (0, 9)

def test_8_5_initiative_goes_to_the_side_behind_the_attacker_on_a_tie():
    state = combat_phase(ISHIDA, ("mori-plain-1",), ("date-plain-1",), sawayama=["mori-2-1", "date-2-1"])
    state, _ = run(state, "ishida: combat sawayama")
    assert initiative(battle_of(state)) is ISHIDA  # 0-0
    state, _ = run(state, "ishida: deploy mori-plain-1 mori-2-1", "tokugawa: allow")
    assert initiative(battle_of(state)) is TOKUGAWA
    state, _ = run(state, "tokugawa: deploy date-plain-1 date-2-1")
    assert totals(state) == (2, 2) and initiative(battle_of(state)) is ISHIDA



# --- 8.6 Loyalty Challenges ------------------------------------------------------------------


def test_r48_a_matching_card_in_hand_refutes_the_challenge():
    state = combat_phase(ISHIDA, ("mori-plain-1", "mori-plain-2"), ("tokugawa-loyalty-1",),
                         sawayama=["mori-2-1", "date-2-1"])
    state, _ = run(state, "ishida: combat sawayama", "ishida: deploy mori-plain-1 mori-2-1")
    assert legal_commands(state, TOKUGAWA) == [Challenge(TOKUGAWA, "tokugawa-loyalty-1"), AllowPlay(TOKUGAWA)]
    state, events = run(state, "tokugawa: challenge tokugawa-loyalty-1")
    assert ChallengeRefuted(ISHIDA, "mori-plain-2") in events
    assert state.cards[ISHIDA].hand == ("mori-plain-2",) and totals(state) == (2, 0)
    assert battle_of(state).cards_played.tokugawa == ("tokugawa-loyalty-1",)  # counts for 8.10


def test_8_6_3_r31_both_blocks_of_a_double_defect_with_their_impact():
    state = combat_phase(ISHIDA, ("ukita-double", "mori-plain-1"), ("tokugawa-loyalty-1",),
                         sawayama=["ukita-2-1", "ukita-3-1", "date-2-1"])
    state, _ = run(state, "ishida: combat sawayama", "ishida: deploy ukita-double ukita-2-1 ukita-3-1")
    assert totals(state) == (2 + 4, 0)
    state, events = run(state, "tokugawa: challenge tokugawa-loyalty-1")
    assert BlocksDefected(ISHIDA, ("ukita-2-1", "ukita-3-1")) in events
    assert totals(state) == (0, 6)  # the second block keeps its +1 (8.6.3)
    assert initiative(battle_of(state)) is ISHIDA


def test_8_6_2_r31_a_defector_brings_no_special_attack():
    state = combat_phase(ISHIDA, ("mori-swords-1",), ("tokugawa-loyalty-1", "date-plain-1"),
                         sawayama=["mori-cav-1", "date-2-1"])
    state, _ = run(state, "ishida: combat sawayama", "ishida: deploy mori-swords-1 mori-cav-1")
    assert totals(state) == (3, 0)
    state, _ = run(state, "tokugawa: challenge tokugawa-loyalty-1")
    assert totals(state) == (0, 1)


def test_r48_one_card_of_the_mon_refutes_a_challenge_to_a_double_play():
    state = combat_phase(ISHIDA, ("ukita-double", "ukita-plain-1"), ("tokugawa-loyalty-1",),
                         sawayama=["ukita-2-1", "ukita-3-1", "date-2-1"])
    state, _ = run(state, "ishida: combat sawayama", "ishida: deploy ukita-double ukita-2-1 ukita-3-1")
    state, events = run(state, "tokugawa: challenge tokugawa-loyalty-1")
    assert ChallengeRefuted(ISHIDA, "ukita-plain-1") in events  # a plain card, not a double
    assert not any(isinstance(e, BlocksDefected) for e in events)
    assert state.cards[ISHIDA].hand == ("ukita-plain-1",) and totals(state) == (2 + 4, 0)


def test_r63_a_defected_block_counts_for_the_side_it_joined_not_its_own():
    state = combat_phase(ISHIDA, ("mori-swords-1", "ukita-swords-1"), ("tokugawa-loyalty-1", "tokugawa-swords-1"),
                         sawayama=["mori-cav-1", "ukita-cav-1", "tokugawa-cav-1", "date-2-1"])
    state, _ = run(state, "ishida: combat sawayama", "ishida: deploy mori-swords-1 mori-cav-1")
    assert totals(state) == (1 + 2, 0)
    state, _ = run(state, "tokugawa: challenge tokugawa-loyalty-1")  # no Mori card in hand: it defects
    assert totals(state) == (0, 1)  # without its special attack (R31)
    state, _ = run(state, "ishida: deploy ukita-swords-1 ukita-cav-1", "tokugawa: allow")
    assert totals(state) == (1 + 2, 1)  # the defected cavalry no longer counts for Ishida
    state, _ = run(state, "tokugawa: deploy tokugawa-swords-1 tokugawa-cav-1")
    assert totals(state) == (3, 1 + (1 + 2 + 2))  # it counts for Tokugawa's special attack (8.4.1, R27)


def test_r48_no_challenge_against_a_leader_deployed_free():
    state = combat_phase(ISHIDA, (), ("tokugawa-loyalty-1",), sawayama=["mori-leader", "date-2-1"])
    state, _ = run(state, "ishida: combat sawayama", "ishida: lead mori-leader")
    assert state.decision.kind is DecisionKind.DEPLOY and state.decision.sides == {TOKUGAWA}


# --- 8.7 casualties ----------------------------------------------------------------------------


def test_8_7_2_r32_defected_blocks_are_lost_first():
    state = combat_phase(ISHIDA, ("mori-plain-1", "mori-plain-2"), ("tokugawa-loyalty-1", "date-double"),
                         entered=[("sawayama", ISHIDA, "kyoto")],
                         sawayama=["mori-2-1", "mori-3-1", "mori-2-2", "date-2-1", "date-3-1", "date-2-2"])
    state, _ = run(state, "ishida: combat sawayama", "ishida: deploy mori-plain-1 mori-3-1",
                   "tokugawa: allow", "tokugawa: deploy date-double date-2-1 date-3-1", "ishida: allow",
                   "ishida: deploy mori-plain-2 mori-2-1")
    # Tokugawa challenges; Ishida holds no Mori card: the block defects.
    state, _ = run(state, "tokugawa: challenge tokugawa-loyalty-1")
    assert totals(state) == (3, 2 + 4 + 3)
    state, events = run(state, "ishida: pass", "tokugawa: pass")
    assert CombatEnded("sawayama", TOKUGAWA, 3, 9, 2, 0) in events
    assert [c.piece for c in legal_commands(state, ISHIDA)] == ["mori-2-1"]  # the defector first
    state, _ = run(state, "ishida: lose mori-2-1")
    assert [c.piece for c in legal_commands(state, ISHIDA)] == ["mori-3-1"]  # then the deployed


def test_r49_losses_beyond_the_force_eliminate_it_all():
    state = combat_phase(ISHIDA, (), ("date-double", "date-swords-1"),
                         sawayama=["mori-2-1", "date-3-1", "date-3-2", "date-cav-1"])
    state, _ = run(state, "ishida: combat sawayama", "tokugawa: deploy date-double date-3-1 date-3-2")
    state, events = run(state, "tokugawa: pass")
    assert state.place_of("mori-2-1") == ELIMINATED
    assert state.decision.kind is not DecisionKind.RETREAT
    # 7 Impact and the loser's block make 2 losses due; the event reports the 1 actually taken.
    assert CombatEnded("sawayama", TOKUGAWA, 0, 7, 1, 0) in events


# --- 8.8 retreats --------------------------------------------------------------------------------


def test_r22_survivors_are_hidden_again_after_the_battle():
    state = combat_phase(ISHIDA, ("mori-double",), (), entered=[("sawayama", ISHIDA, "kyoto")],
                         sawayama=["mori-3-1", "mori-3-2", "date-2-1", "date-2-2", "date-2-3"])
    state, _ = run(state, "ishida: combat sawayama", "ishida: deploy mori-double mori-3-1 mori-3-2")
    assert state.revealed == {"mori-3-1", "mori-3-2"}
    state, _ = run(state, "tokugawa: pass", "ishida: pass", "tokugawa: lose date-2-1", "tokugawa: lose date-2-2",
                   "tokugawa: retreat gifu")
    assert state.revealed == frozenset()

def test_8_8_3_defender_retreat_destinations():
    state = combat_phase(ISHIDA, ("mori-plain-1",), (), entered=[("sawayama", ISHIDA, "kyoto")],
                         sawayama=["mori-3-1", "date-2-1", "date-2-2"], tsuruga=["ukita-2-1"])
    state, _ = run(state, "ishida: combat sawayama", "ishida: deploy mori-plain-1 mori-3-1", "tokugawa: pass",
                   "ishida: pass", "tokugawa: lose date-2-1")
    # Not Kyoto (Ishida came from there) nor Tsuruga (Ishida units): Gifu.
    assert {c.to for c in legal_commands(state, TOKUGAWA)} == {"gifu"}
    refused(state, "tokugawa: retreat kyoto", r"kyoto is not a legal retreat: choose among gifu \(8.8.2, 8.8.3\)")

def test_r34_up_to_two_blocks_retreat_into_the_castle():
    state = combat_phase(TOKUGAWA, ("mori-plain-1",), ("date-double",), entered=[("gifu", TOKUGAWA, "kiyosu")],
                         gifu=["mori-2-1", "mori-2-2", "mori-2-3", "mori-3-1", "date-3-1", "date-3-2"])
    state, events = run(state, "tokugawa: combat gifu")  # 4 blocks: Ishida must fight outside (8.9.1)
    assert CombatDeclared("gifu", TOKUGAWA, False) in events
    state, _ = run(state, "tokugawa: deploy date-double date-3-1 date-3-2", "ishida: allow", "ishida: pass",
                   "tokugawa: pass", "ishida: lose mori-2-3", "ishida: lose mori-3-1")  # 7 Impact + the loss
    retreats = legal_commands(state, ISHIDA)
    assert parse_command("ishida: retreat castle mori-2-1 mori-2-2") in retreats
    refused(state, "ishida: retreat sawayama mori-2-1 mori-2-2", r"name the castle as the destination")
    state, _ = run(state, "ishida: retreat castle mori-2-1 mori-2-2")
    assert state.blocks_at("gifu", ISHIDA) == ("mori-2-1", "mori-2-2")
    assert ("gifu", ISHIDA) in state.besieged

def test_r52_a_retreat_into_enemy_blocks_starts_a_new_battle_at_once():
    state = combat_phase(ISHIDA, ("mori-double",), ("date-plain-1",), entered=[("sawayama", ISHIDA, "kyoto")],
                         sawayama=["mori-3-1", "mori-3-2", "date-2-1", "date-2-2", "date-3-1"],
                         kyoto=["mori-2-1"], gifu=["ukita-2-1"], tsuruga=["ukita-2-2"])
    state, _ = run(state, "ishida: combat sawayama", "ishida: deploy mori-double mori-3-1 mori-3-2",
                   "tokugawa: allow", "tokugawa: pass", "ishida: pass",
                   "tokugawa: lose date-2-1", "tokugawa: lose date-2-2")
    # Every neighbour holds Ishida units: any adjacent location (8.8.3).
    assert {c.to for c in legal_commands(state, TOKUGAWA)} == {"gifu", "kyoto", "tsuruga"}
    hand = state.cards[TOKUGAWA].hand
    state, events = run(state, "tokugawa: retreat kyoto")
    assert CombatDeclared("kyoto", TOKUGAWA, False) in events  # the retreating side attacks
    assert state.decision.kind is DecisionKind.DEPLOY and state.decision.sides == {TOKUGAWA}
    assert len(state.cards[TOKUGAWA].hand) == len(hand) + 1  # the first battle's replenishment came first



def _ishida_wins_at(location, came_from, tokugawa, **elsewhere):
    """Ishida attacks `location` (entered from `came_from`) with two Mori
    2-mon blocks and a Mori double (5 Impact); Tokugawa, with no card, loses
    date-2-1 and must retreat with the rest of `tokugawa`."""
    state = combat_phase(ISHIDA, ("mori-double",), (), entered=[(location, ISHIDA, came_from)],
                         **{location: ["mori-2-1", "mori-2-2", *tokugawa]}, **elsewhere)
    state, _ = run(state, f"ishida: combat {location}", "ishida: deploy mori-double mori-2-1 mori-2-2",
                   "tokugawa: pass", "ishida: pass", "tokugawa: lose date-2-1")
    assert state.decision.kind is DecisionKind.RETREAT and state.decision.sides == {TOKUGAWA}
    return state


def test_r59_tokugawa_retreating_into_osaka_empties_the_mori_box_first():
    box = ["mori-leader", "mori-3-1", "mori-3-2", "mori-3-3", "mori-3-4"]
    state = _ishida_wins_at("wakayama", "tanabe", ["date-2-1", "date-2-2", "date-2-3"], mori_box=box)
    state, events = run(state, "tokugawa: retreat osaka")
    entered = [e.block for e in events if isinstance(e, MoriBlockEntered)]
    assert entered == ["mori-3-1", "mori-3-2", "mori-3-3", "mori-3-4", "mori-leader"]  # the leader last (R40)
    assert events.index(CombatDeclared("osaka", TOKUGAWA, False)) > events.index(MoriBlockEntered(ISHIDA, "mori-leader"))
    assert state.blocks_at("osaka", ISHIDA) == tuple(sorted(box, key=C.block_index))
    assert state.blocks_at("osaka", TOKUGAWA) == ("date-2-2", "date-2-3")
    # 5 Ishida blocks must fight outside (8.9.2); Tokugawa attacks with no card and is done at once (R23).
    assert SideDone(TOKUGAWA) in events and state.decision == Decision(DecisionKind.DEPLOY, frozenset({ISHIDA}))


def test_r59_the_mori_box_entry_can_overrun_the_retreating_blocks():
    box = ["mori-leader", "mori-3-1", "mori-3-2", "mori-3-3", "mori-3-4"]
    state = _ishida_wins_at("wakayama", "tanabe", ["date-2-1", "date-2-2"], mori_box=box)
    state, events = run(state, "tokugawa: retreat osaka")
    assert Overrun(ISHIDA, "osaka", ("date-2-2",)) in events  # 5 blocks against 1 (7.4.1)
    assert not any(isinstance(e, CombatDeclared) for e in events)
    assert state.place_of("date-2-2") == ELIMINATED and state.combat is None


def test_r59_a_retreat_into_a_castle_held_by_a_lone_disc_is_a_siege():
    state = _ishida_wins_at("saku", "suwa", ["date-2-1", "date-2-2", "date-2-3"], takasaki=["uesugi-3-1"])
    state, events = run(state, "tokugawa: retreat ueda")
    assert CombatDeclared("ueda", TOKUGAWA, True) in events  # a siege of Sanada, never a battle (R36)
    state, events = run(state, "tokugawa: pass")
    assert CombatEnded("ueda", None, 0, 0, 0, 0) in events
    assert state.blocks_at("ueda", TOKUGAWA) == ("date-2-2", "date-2-3")  # nobody loses a block to a disc
    assert "sanada" in state.discs and ("ueda", ISHIDA) in state.besieged


def test_r59_the_castle_owner_chooses_inside_or_outside_after_a_retreat():
    state = _ishida_wins_at("sawayama", "kyoto", ["date-2-1", "date-2-2", "date-2-3"],
                            gifu=["ukita-2-1"], tsuruga=["ukita-2-2"])
    state, events = run(state, "tokugawa: retreat gifu")
    assert state.decision == Decision(DecisionKind.CASTLE_CHOICE, frozenset({ISHIDA}))
    assert not any(isinstance(e, CombatDeclared) for e in events)
    state, events = run(state, "ishida: inside")
    assert CombatDeclared("gifu", TOKUGAWA, True) in events


def test_r59_more_than_two_owner_blocks_fight_outside_after_a_retreat():
    state = _ishida_wins_at("sawayama", "kyoto", ["date-2-1", "date-2-2", "date-2-3"],
                            gifu=["ukita-2-1", "ukita-2-2", "ukita-2-3"], tsuruga=["ukita-3-1"])
    state, events = run(state, "tokugawa: retreat gifu")
    assert CombatDeclared("gifu", TOKUGAWA, False) in events


# --- 8.9 sieges -----------------------------------------------------------------------------------


def test_8_9_2_the_castle_owner_chooses_inside_or_outside():
    state = combat_phase(TOKUGAWA, (), (), gifu=["mori-2-1", "date-2-1", "date-2-2"])
    state, _ = run(state, "tokugawa: combat gifu")
    assert legal_commands(state, ISHIDA) == [StayInside(ISHIDA), ComeOutside(ISHIDA)]
    state, events = run(state, "ishida: inside")
    assert CombatDeclared("gifu", TOKUGAWA, True) in events


def test_8_9_1_more_than_two_blocks_must_fight_outside():
    state = combat_phase(TOKUGAWA, (), (), gifu=["mori-2-1", "mori-2-2", "mori-2-3", "date-2-1"])
    state, events = run(state, "tokugawa: combat gifu")
    assert CombatDeclared("gifu", TOKUGAWA, False) in events


def test_r37_the_active_owner_staying_inside_means_no_combat():
    state = combat_phase(ISHIDA, (), (), gifu=["mori-2-1", "date-2-1", "date-2-2"])
    state, events = run(state, "ishida: combat gifu", "ishida: inside")
    assert NoCombat("gifu", ISHIDA) in events


def test_8_9_4_r53_siege_of_ueda_sanada_may_be_lost_instead_of_a_block():
    state = combat_phase(TOKUGAWA, (), ("date-double", "date-swords-1"),
                         ueda=["mori-2-1", "date-3-1", "date-3-2", "date-cav-1"])
    state, _ = run(state, "tokugawa: combat ueda", "ishida: inside",
                   "tokugawa: deploy date-double date-3-1 date-3-2",  # 3 + 4: no challenge in a siege (8.9.5)
                   "tokugawa: deploy date-swords-1 date-cav-1")  # 1 + 2 earlier Date: no special attack (8.9.5)
    assert totals(state) == (0, 7 + 3)
    state, events = run(state, "tokugawa: pass")
    assert CombatEnded("ueda", None, 0, 10, 1, 0) in events  # one loss, none for losing (R53)
    assert {c.piece for c in legal_commands(state, ISHIDA)} == {"mori-2-1", "sanada"}
    state, _ = run(state, "ishida: lose sanada")
    assert "sanada" not in state.discs and state.place_of("mori-2-1") == "ueda"
    assert ("ueda", ISHIDA) in state.besieged
    assert len(state.cards[ISHIDA].hand) == 0  # no card for a disc (8.10)
    assert len(state.cards[TOKUGAWA].hand) == 2  # the attacker redraws the cards it played

def test_9_1_siege_of_osaka_hideyori_is_lost_last():
    state = combat_phase(TOKUGAWA, (), ("tokugawa-double", "tokugawa-plain-1"),
                         osaka=["mori-2-1", "tokugawa-3-1", "tokugawa-3-2", "tokugawa-3-3"])
    state, _ = run(state, "tokugawa: combat osaka", "ishida: inside",
                   "tokugawa: deploy tokugawa-double tokugawa-3-1 tokugawa-3-2",
                   "tokugawa: deploy tokugawa-plain-1 tokugawa-3-3", "tokugawa: pass")
    assert totals(state) == (0, 3 + 4 + 5)
    assert [c.piece for c in legal_commands(state, ISHIDA)] == ["mori-2-1"]  # Hideyori last (9.1)
    state, _ = run(state, "ishida: lose mori-2-1")
    assert not state.is_over and "hideyori" in state.discs
    assert ("osaka", ISHIDA) in state.besieged and state.control_of_castle("osaka") is ISHIDA


def test_9_1_2_1_capturing_hideyori_wins_for_tokugawa():
    state = combat_phase(TOKUGAWA, (), ("tokugawa-double", "tokugawa-plain-1", "tokugawa-plain-2"),
                         osaka=["mori-2-1", "tokugawa-3-1", "tokugawa-3-2", "tokugawa-3-3", "tokugawa-2-1"])
    state, events = run(state, "tokugawa: combat osaka", "ishida: inside",
                        "tokugawa: deploy tokugawa-double tokugawa-3-1 tokugawa-3-2",
                        "tokugawa: deploy tokugawa-plain-1 tokugawa-3-3",
                        "tokugawa: deploy tokugawa-plain-2 tokugawa-2-1", "tokugawa: pass")
    assert totals(state) == (0, 7 + 5 + 5)  # 17: two losses, all Ishida has (R49)
    assert state.is_over and (state.result.winner, state.result.cause) == (TOKUGAWA, "hideyori-captured")

def test_r36_discs_alone_are_always_besieged_and_the_castle_falls():
    state = combat_phase(TOKUGAWA, (), ("date-double",), ueda=["date-3-1", "date-3-2"])
    state, events = run(state, "tokugawa: combat ueda")
    assert CombatDeclared("ueda", TOKUGAWA, True) in events
    state, _ = run(state, "tokugawa: deploy date-double date-3-1 date-3-2", "tokugawa: pass")
    assert "sanada" not in state.discs
    assert state.control_of_castle("ueda") is TOKUGAWA


def test_r41_tokugawa_attacking_osaka_empties_the_mori_box():
    state = combat_phase(TOKUGAWA, (), (), osaka=["mori-2-1", "tokugawa-3-1"])
    from rules.state import MORI_BOX, with_positions
    state = with_positions(state, {b: MORI_BOX for b in ("mori-leader", "mori-3-1", "mori-3-2", "mori-3-3", "mori-3-4")})
    state, events = run(state, "tokugawa: combat osaka")
    assert Overrun(ISHIDA, "osaka", ("tokugawa-3-1",)) in events  # 6 blocks to 1 (7.4, R42)
    assert state.blocks_at(MORI_BOX) == ()


def leaders_battle():
    state = combat_phase(ISHIDA, ("ukita-double",), ("tokugawa-double",), entered=[("sawayama", ISHIDA, "kyoto")],
                         sawayama=["ishida-leader", "ukita-3-1", "ukita-3-2", "tokugawa-leader", "tokugawa-3-1", "tokugawa-3-2"])
    state, events = run(state, "ishida: combat sawayama", "ishida: lead ishida-leader", "tokugawa: lead tokugawa-leader",
                        "ishida: deploy ukita-double ukita-3-1 ukita-3-2", "tokugawa: allow",
                        "tokugawa: deploy tokugawa-double tokugawa-3-1 tokugawa-3-2", "ishida: pass", "tokugawa: pass")
    assert CombatEnded("sawayama", TOKUGAWA, 8, 10, 2, 1) in events  # 3+4 after Ishida; 4+5 after the Tokugawa leader
    state, _ = run(state, "ishida: lose ishida-leader", "ishida: lose ukita-3-1")
    assert not state.is_over  # R50: checked once the combat's casualties are taken
    return state


def test_r50_both_leaders_falling_in_one_combat_gives_ishida_the_win():
    state, _ = run(leaders_battle(), "tokugawa: lose tokugawa-leader")
    assert (state.result.winner, state.result.cause) == (ISHIDA, "tokugawa-ieyasu-eliminated")


def test_2_1_ishida_mitsunari_falling_in_battle_wins_for_tokugawa():
    state, _ = run(leaders_battle(), "tokugawa: lose tokugawa-3-1")
    assert (state.result.winner, state.result.cause) == (TOKUGAWA, "ishida-mitsunari-eliminated")


def test_r43_once_tokugawa_holds_osaka_castle_the_mori_box_stays():
    """A constructed position: with Hideyori always inside (R36), Tokugawa can
    only hold the castle once Hideyori is captured, which ends the game."""
    from attrs import evolve
    from rules.state import MORI_BOX, with_positions

    state = combat_phase(TOKUGAWA, (), (), osaka=["mori-2-1", "tokugawa-3-1", "tokugawa-3-2", "tokugawa-3-3"])
    state = evolve(state, castle_control=tuple(sorted((dict(state.castle_control) | {"osaka": TOKUGAWA}).items())))
    state = with_positions(state, {"mori-3-1": MORI_BOX})
    state, _ = run(state, "tokugawa: combat osaka")
    assert state.place_of("mori-3-1") == MORI_BOX
