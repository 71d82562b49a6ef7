"""8.1 and 8.9 the Combat Phase (src/rules/combat.py): what the other tests of 8
leave unchecked, found by mutation testing (benchmarks/mutation.py)."""

from attrs import evolve

from helpers import combat_phase, run
from rules.battle import battle_of
from rules.events import CombatDeclared
from rules.sides import Side

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
