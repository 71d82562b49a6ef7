"""8.1 and 8.9 the Combat Phase (src/rules/combat.py): what the other tests of 8
leave unchecked, found by mutation testing (benchmarks/mutation.py)."""

import pytest
from attrs import evolve

from helpers import combat_phase, run
from rules.battle import battle_of
from rules.engine import apply, legal_commands
from rules.errors import IllegalCommand
from rules.events import CardsDrawn, CastleFell, CombatDeclared, CombatEnded, ControlChanged, NoCombat, PieceLost
from rules.notation import parse_command
from rules.sides import Side
from rules.state import Battle, DecisionKind

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA


def test_8_9_2_an_owner_who_comes_outside_fights_a_battle_and_is_no_longer_besieged():
    """Gifu's owner, besieged there, comes out: a battle, not a siege; the
    siege at Ueda goes on."""
    state = combat_phase(TOKUGAWA, (), ("date-plain-1",), gifu=["mori-2-1", "date-2-1"],
                         ueda=["ukita-2-1", "date-2-2"])
    state = evolve(state, besieged=(("gifu", ISHIDA), ("ueda", ISHIDA)))
    state, events = run(state, "tokugawa: combat gifu", "ishida: outside")
    assert CombatDeclared("gifu", TOKUGAWA, False) in events
    assert battle_of(state).siege is False
    assert state.besieged == (("ueda", ISHIDA),)


def test_8_9_4_8_10_a_castle_whose_last_piece_falls_is_the_attackers_and_the_cards_are_replenished():
    """Tokugawa besieges Gifu: 7 Impact takes the one block inside (R49: all it
    has), the castle falls (8.9.4 step 4); the played card is discarded and
    redrawn, and the defender draws 1 for the block lost (8.10)."""
    state = combat_phase(TOKUGAWA, (), ("date-double",), gifu=["mori-2-1", "date-3-1", "date-3-2"])
    state, _ = run(state, "tokugawa: combat gifu", "ishida: inside", "tokugawa: deploy date-double date-3-1 date-3-2")
    tops = state.cards.map(lambda cards: cards.draw_pile[0])
    state, events = run(state, "tokugawa: pass")
    assert CastleFell("gifu", TOKUGAWA) in events and ControlChanged("gifu", TOKUGAWA) in events
    assert CardsDrawn(ISHIDA, (tops.ishida,)) in events and CardsDrawn(TOKUGAWA, (tops.tokugawa,)) in events
    assert state.control_of_castle("gifu") is TOKUGAWA
    assert state.cards[TOKUGAWA].discard_pile[-1:] == ("date-double",)
    assert state.cards[TOKUGAWA].hand == (tops.tokugawa,) and state.cards[ISHIDA].hand == (tops.ishida,)


def test_r22_r62_every_block_of_the_battle_is_hidden_again_deployed_or_not():
    """mori-2-1 was shown before the battle (a muster, R62) and is not deployed:
    it is hidden again when the battle ends, with the deployed blocks."""
    state = combat_phase(ISHIDA, ("mori-double",), (), entered=[("sawayama", ISHIDA, "kyoto")],
                         sawayama=["mori-3-1", "mori-3-2", "mori-2-1", "date-2-1", "date-2-2", "date-2-3"])
    state = evolve(state, revealed=frozenset({"mori-2-1"}))
    state, _ = run(state, "ishida: combat sawayama", "ishida: deploy mori-double mori-3-1 mori-3-2",
                   "tokugawa: pass", "ishida: pass", "tokugawa: lose date-2-1", "tokugawa: lose date-2-2",
                   "tokugawa: retreat gifu")
    assert state.revealed == frozenset()


def test_8_7_2_r32_undeployed_losses_come_from_the_sides_own_blocks():
    """Ishida attacks with no card to deploy and loses 0-0 (R23): his one loss
    is one of his own undeployed blocks."""
    state = combat_phase(ISHIDA, ("ukita-plain-1",), (), entered=[("sawayama", ISHIDA, "kyoto")],
                         sawayama=["mori-2-1", "mori-2-2", "date-2-1"])
    state, _ = run(state, "ishida: combat sawayama", "tokugawa: pass")
    assert [c.piece for c in legal_commands(state, ISHIDA)] == ["mori-2-1", "mori-2-2"]
    with pytest.raises(IllegalCommand) as refusal:
        apply(state, parse_command("ishida: lose date-2-1"))
    assert str(refusal.value) == "date-2-1 cannot be lost now: choose among mori-2-1, mori-2-2 (8.7.2, R32)"


def test_8_9_3_r49_a_battle_takes_every_block_of_a_side_but_never_its_disc():
    """Tokugawa attacks 3 Ishida blocks outside Osaka (a battle, 8.9.1) with 17
    Impact: 2 + 1 losses take all three at once (R49); the Hideyori disc is
    not a block and only a siege can touch it (8.9.3)."""
    state = combat_phase(TOKUGAWA, (), ("tokugawa-double", "tokugawa-plain-1", "tokugawa-plain-2"),
                         osaka=["ukita-2-1", "ukita-2-2", "ukita-2-3",
                                "tokugawa-3-1", "tokugawa-3-2", "tokugawa-3-3", "tokugawa-2-1"])
    state, _ = run(state, "tokugawa: combat osaka", "tokugawa: deploy tokugawa-double tokugawa-3-1 tokugawa-3-2",
                   "ishida: pass", "tokugawa: deploy tokugawa-plain-1 tokugawa-3-3",
                   "tokugawa: deploy tokugawa-plain-2 tokugawa-2-1")
    state, events = run(state, "tokugawa: pass")
    assert CombatEnded("osaka", TOKUGAWA, 0, 17, 3, 0) in events  # Ishida loses 3
    assert [e.piece for e in events if isinstance(e, PieceLost)] == ["ukita-2-1", "ukita-2-2", "ukita-2-3"]
    assert "hideyori" in state.discs and not state.is_over


def test_8_7_1_r49_when_the_attacker_loses_everything_the_defender_still_takes_his_losses():
    """Ishida scores 7 (1 Tokugawa loss) and loses 17 to 7: 2 + 1 losses take
    both his blocks at once (R49); Tokugawa must still choose his one loss."""
    state = combat_phase(ISHIDA, ("mori-double",), ("tokugawa-double", "tokugawa-plain-1", "tokugawa-plain-2"),
                         entered=[("sawayama", ISHIDA, "kyoto")],
                         sawayama=["mori-3-1", "mori-3-2", "tokugawa-3-1", "tokugawa-3-2", "tokugawa-3-3", "tokugawa-2-1"])
    state, _ = run(state, "ishida: combat sawayama", "ishida: deploy mori-double mori-3-1 mori-3-2", "tokugawa: allow",
                   "tokugawa: deploy tokugawa-double tokugawa-3-1 tokugawa-3-2", "ishida: pass",
                   "tokugawa: deploy tokugawa-plain-1 tokugawa-3-3", "tokugawa: deploy tokugawa-plain-2 tokugawa-2-1")
    state, events = run(state, "tokugawa: pass")
    assert CombatEnded("sawayama", TOKUGAWA, 7, 17, 2, 1) in events
    assert state.blocks_at("sawayama", ISHIDA) == ()
    assert state.decision.kind is DecisionKind.CASUALTY and state.decision.sides == {TOKUGAWA}
    assert battle_of(state).losses.tokugawa == 1


def test_r36_an_attacker_whose_castle_holds_only_his_disc_fights_nobody():
    """Ishida's Combat Phase: Tokugawa blocks stand at Ueda, where only the
    Sanada disc is Ishida's. Ishida owns the castle, so there is no combat
    (8.9.2), and the phase goes on to the next location."""
    state = combat_phase(ISHIDA, (), (), ueda=["date-2-1"], sawayama=["mori-2-1", "date-2-2"])
    state, events = run(state, "ishida: combat ueda")
    assert events == [NoCombat("ueda", ISHIDA)]
    assert state.decision.kind is DecisionKind.DECLARE_COMBAT and state.combat.pending == {"sawayama"}


def test_8_9_2_at_the_declaration_the_castles_owner_chooses_before_any_battle():
    state = combat_phase(TOKUGAWA, (), ("date-plain-1",), gifu=["mori-2-1", "date-2-1"])
    state, _ = run(state, "tokugawa: combat gifu")
    assert state.decision.kind is DecisionKind.CASTLE_CHOICE and state.decision.sides == {ISHIDA}
    assert battle_of(state) == Battle("gifu", TOKUGAWA, siege=False, castle_owner=ISHIDA)


def test_8_1_the_combat_phase_comes_after_all_movement_and_declares_every_contact():
    from helpers import movement_phase
    from rules.state import MovementOption

    state = movement_phase(ISHIDA, MovementOption.FULL, osaka=["ukita-2-1"], kyoto=["date-2-1"])
    state, _ = run(state, "ishida: move osaka", "ishida: select ukita-2-1", "ishida: step kyoto", "ishida: done",
                   "ishida: end")
    assert state.phase.value == "combat" and state.movement is None
    assert state.combat.pending == {"kyoto"} and state.decision.kind is DecisionKind.DECLARE_COMBAT
