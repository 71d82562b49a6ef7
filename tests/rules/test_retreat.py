"""8.8 Retreats: the castle's limit and owner (8.8.4, R34) and retreats into a
location whose combat is still to be declared (8.8.5, R52). The other retreat
cases (8.8.2, 8.8.3, R22, R52's new battle, R59) are in test_combat.py."""

import pytest

from helpers import combat_phase, run, with_hand
from rules.battle import battle_of
from rules.commands import DeclareCombat
from rules.engine import apply, legal_commands
from rules.errors import IllegalCommand
from rules.events import BlocksRetreated, CombatDeclared, OpponentRetreated
from rules.immutable import evolve
from rules.notation import format_command, parse_command
from rules.sides import Side
from rules.state import Decision, DecisionKind

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA


def refused(state, line, message):
    with pytest.raises(IllegalCommand, match=message):
        apply(state, parse_command(line))


def listed(state, side):
    return [format_command(c) for c in legal_commands(state, side)]


def test_8_8_4_r34_at_most_two_of_three_survivors_retreat_into_the_castle():
    # Ishida holds Gifu's castle, fights outside with 5 blocks (8.9.2), loses
    # 2 (7 Impact and the loser's block) and has 3 survivors: 2 may stay in
    # the castle, the rest retreat to one location; all 3 never fit.
    state = combat_phase(TOKUGAWA, (), ("date-double",), entered=[("gifu", TOKUGAWA, "kiyosu")],
                         gifu=["mori-2-1", "mori-2-2", "mori-2-3", "mori-3-1", "mori-3-2", "date-3-1", "date-3-2"])
    state, _ = run(state, "tokugawa: combat gifu", "tokugawa: deploy date-double date-3-1 date-3-2",
                   "ishida: pass", "tokugawa: pass", "ishida: lose mori-3-1", "ishida: lose mori-3-2")
    assert state.decision.kind is DecisionKind.RETREAT and state.decision.sides == {ISHIDA}
    assert listed(state, ISHIDA) == [
        "ishida: retreat iwamura", "ishida: retreat iwamura mori-2-1", "ishida: retreat iwamura mori-2-1 mori-2-2",
        "ishida: retreat sawayama", "ishida: retreat sawayama mori-2-1", "ishida: retreat sawayama mori-2-1 mori-2-2",
    ]
    refused(state, "ishida: retreat castle mori-2-1 mori-2-2 mori-2-3",
            r"^at most 2 blocks retreat into the castle \(8\.8\.4, R34\)$")
    refused(state, "ishida: retreat sawayama mori-2-1 mori-2-2 mori-2-3",
            r"^at most 2 blocks retreat into the castle \(8\.8\.4, R34\)$")

    state, events = run(state, "ishida: retreat sawayama mori-2-1 mori-2-2")
    assert BlocksRetreated(ISHIDA, ("mori-2-3",), "gifu", "sawayama") in events
    assert state.blocks_at("gifu", ISHIDA) == ("mori-2-1", "mori-2-2")
    assert state.blocks_at("sawayama", ISHIDA) == ("mori-2-3",)
    assert ("gifu", ISHIDA) in state.besieged


def test_8_8_4_only_the_side_that_held_the_castle_may_retreat_into_it():
    # Tokugawa attacks Ishida's Gifu with no card: done at once, it loses 0-0
    # (R23) and its extra block, and retreats whence it came (8.8.2): never
    # into the castle it did not hold before the combat.
    state = combat_phase(TOKUGAWA, ("mori-plain-1",), (), entered=[("gifu", TOKUGAWA, "kiyosu")],
                         gifu=["mori-2-1", "mori-2-2", "mori-2-3", "date-3-1", "date-3-2", "date-2-1"])
    assert battle_of(run(state, "tokugawa: combat gifu")[0]).castle_owner is ISHIDA
    state, _ = run(state, "tokugawa: combat gifu", "ishida: pass", "tokugawa: lose date-2-1")
    assert state.decision.kind is DecisionKind.RETREAT and state.decision.sides == {TOKUGAWA}
    assert listed(state, TOKUGAWA) == ["tokugawa: retreat kiyosu"]
    reason = r"^only the side that held the castle before the combat may retreat into it \(8\.8\.4\)$"
    refused(state, "tokugawa: retreat kiyosu date-3-1", reason)
    refused(state, "tokugawa: retreat castle date-3-1 date-3-2", reason)

    state, _ = run(state, "tokugawa: retreat kiyosu")
    assert state.blocks_at("gifu", TOKUGAWA) == ()
    assert state.blocks_at("kiyosu", TOKUGAWA) == ("date-3-1", "date-3-2")
    assert ("gifu", TOKUGAWA) not in state.besieged


def test_r52_retreating_blocks_join_a_combat_still_to_be_declared_there():
    # Ishida has combats to declare at Sawayama and Kyoto. Tokugawa loses at
    # Sawayama and, every neighbour holding Ishida units (8.8.3), retreats to
    # Kyoto: no battle at once (R52 step 2); the retreating blocks join
    # Kyoto's combat, which Ishida declares as its attacker.
    state = combat_phase(ISHIDA, ("mori-double",), ("date-plain-1",), entered=[("sawayama", ISHIDA, "kyoto")],
                         sawayama=["mori-3-1", "mori-3-2", "date-2-1", "date-2-2", "date-3-1"],
                         kyoto=["mori-2-1", "mori-2-2", "mori-2-3", "date-cav-1"],
                         gifu=["ukita-2-1"], tsuruga=["ukita-2-2"])
    assert state.combat.pending == {"sawayama", "kyoto"}
    state, _ = run(state, "ishida: combat sawayama", "ishida: deploy mori-double mori-3-1 mori-3-2",
                   "tokugawa: allow", "tokugawa: pass", "ishida: pass",
                   "tokugawa: lose date-2-1", "tokugawa: lose date-2-2")
    assert listed(state, TOKUGAWA) == ["tokugawa: retreat gifu", "tokugawa: retreat kyoto", "tokugawa: retreat tsuruga"]

    state, events = run(state, "tokugawa: retreat kyoto")
    assert not any(isinstance(e, CombatDeclared) for e in events)
    assert state.blocks_at("kyoto", TOKUGAWA) == ("date-3-1", "date-cav-1")
    assert state.combat.pending == {"kyoto"} and state.combat.immediate == ()
    assert state.decision.kind is DecisionKind.DECLARE_COMBAT and state.decision.sides == {ISHIDA}
    assert legal_commands(state, ISHIDA) == [DeclareCombat(ISHIDA, "kyoto")]

    state, events = run(state, "ishida: combat kyoto")
    assert events[0] == CombatDeclared("kyoto", ISHIDA, False)
    assert battle_of(state).attacker is ISHIDA


def test_8_8_4_r34_four_survivors_keep_at_most_two_in_the_castle_and_the_opponent_is_told_counts():
    # Ishida holds Gifu's castle with 6 blocks and loses 2: of 4 survivors, 0, 1
    # or 2 stay inside (never 3); Tokugawa learns how many left, and how many
    # stayed, never which (R55).
    state = combat_phase(TOKUGAWA, (), ("date-double",), entered=[("gifu", TOKUGAWA, "kiyosu")],
                         gifu=["mori-2-1", "mori-2-2", "mori-2-3", "mori-3-1", "mori-3-2", "mori-3-3",
                               "date-3-1", "date-3-2"])
    state, _ = run(state, "tokugawa: combat gifu", "tokugawa: deploy date-double date-3-1 date-3-2",
                   "ishida: pass", "tokugawa: pass", "ishida: lose mori-3-2", "ishida: lose mori-3-3")
    assert listed(state, ISHIDA) == [
        f"ishida: retreat {to}{garrison}" for to in ("iwamura", "sawayama")
        for garrison in ("", " mori-2-1", " mori-3-1", " mori-2-1 mori-2-2", " mori-2-1 mori-3-1")
    ]
    refused(state, "ishida: retreat kiyosu",
            r"^kiyosu is not a legal retreat: choose among iwamura, sawayama \(8\.8\.2, 8\.8\.3\)$")
    refused(state, "ishida: retreat castle mori-2-1 mori-2-2",
            r"^blocks left outside the castle must retreat to a location \(8\.8\.4, R34\)$")

    state, events = run(state, "ishida: retreat iwamura mori-2-1 mori-3-1")
    assert events[:2] == [BlocksRetreated(ISHIDA, ("mori-2-2", "mori-2-3"), "gifu", "iwamura"),
                          OpponentRetreated(ISHIDA, 2, "gifu", "iwamura", 2)]
    assert state.blocks_at("gifu", ISHIDA) == ("mori-3-1", "mori-2-1")


def test_r34_every_survivor_inside_names_the_castle_as_the_destination():
    state = combat_phase(TOKUGAWA, (), ("date-double",), entered=[("gifu", TOKUGAWA, "kiyosu")],
                         gifu=["mori-2-1", "mori-2-2", "mori-2-3", "mori-3-1", "date-3-1", "date-3-2"])
    state, _ = run(state, "tokugawa: combat gifu", "tokugawa: deploy date-double date-3-1 date-3-2",
                   "ishida: pass", "tokugawa: pass", "ishida: lose mori-2-3", "ishida: lose mori-3-1")
    refused(state, "ishida: retreat sawayama mori-2-1 mori-2-2",
            r"^name the castle as the destination when every block stays inside \(R34\)$")


def test_r62_a_revealed_block_that_retreats_is_hidden_again_though_it_was_not_deployed():
    # Mustered openly (option 1) and never deployed, it is not among the
    # battle's blocks when the battle ends (R22): the retreat hides it (R62).
    state = combat_phase(ISHIDA, ("mori-double",), (), entered=[("sawayama", ISHIDA, "kyoto")],
                         sawayama=["mori-2-1", "mori-2-2", "date-2-1", "date-2-2", "date-2-3"])
    state = evolve(state, revealed=frozenset({"date-2-3"}))
    state, _ = run(state, "ishida: combat sawayama", "ishida: deploy mori-double mori-2-1 mori-2-2",
                   "tokugawa: pass", "ishida: pass", "tokugawa: lose date-2-1")
    state, _ = run(state, "tokugawa: retreat gifu")
    assert state.blocks_at("gifu", TOKUGAWA) == ("date-2-2", "date-2-3")
    assert "date-2-3" not in state.revealed


def test_r51_r52_blocks_that_retreat_into_a_new_battle_and_lose_it_go_back_where_they_came_from():
    # Tokugawa retreats from Sawayama into Kyoto's Ishida block and attacks
    # there at once (R52), with no card to deploy: done at once, it loses 0-0
    # (R23) and, the attacker, goes back to where its blocks entered Kyoto
    # from: Sawayama (8.8.2, R51), not any neighbour of Kyoto.
    state = combat_phase(ISHIDA, ("mori-double",), (), entered=[("sawayama", ISHIDA, "kyoto")],
                         sawayama=["mori-3-1", "mori-3-2", "date-2-1", "date-2-2", "date-3-1", "date-cav-1"],
                         kyoto=["mori-2-1"], gifu=["ukita-2-1"], tsuruga=["ukita-2-2"])
    state, _ = run(state, "ishida: combat sawayama", "ishida: deploy mori-double mori-3-1 mori-3-2",
                   "tokugawa: pass", "ishida: pass", "tokugawa: lose date-2-1", "tokugawa: lose date-2-2")
    state = with_hand(state, TOKUGAWA, (), draw_pile=("fukushima-plain-1",))  # its replenishment deploys nothing
    state, events = run(state, "tokugawa: retreat kyoto")
    assert CombatDeclared("kyoto", TOKUGAWA, False) in events
    assert ("kyoto", TOKUGAWA, "sawayama") in state.entered_from
    state, _ = run(state, "ishida: pass", "tokugawa: lose date-3-1")
    assert state.decision == Decision(DecisionKind.RETREAT, frozenset({TOKUGAWA}))
    assert listed(state, TOKUGAWA) == ["tokugawa: retreat sawayama"]
