"""The rulebook's combat examples A (ES) and B (KO), deployment by deployment (R39)."""

from helpers import combat_phase, run
from rules.battle import battle_of, impact_total, initiative
from rules.commands import DeclareDone
from rules.engine import legal_commands
from rules.events import BlockDeployed, CombatEnded, PieceLost
from rules.sides import Side
from rules.state import DecisionKind

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA
ISHIDA_BLOCKS = ["mori-leader", "ukita-2-1", "ukita-2-2", "uesugi-gun-1", "kobayakawa-2-1", "kobayakawa-3-1"]
TOKUGAWA_BLOCKS = ["maeda-cav-1", "tokugawa-3-1", "tokugawa-gun-1", "tokugawa-3-2", "date-2-1", "fukushima-2-1"]
ISHIDA_CARDS = ("ukita-double", "uesugi-plain-1", "mori-swords-1", "uesugi-plain-2", "ukita-plain-1")
TOKUGAWA_CARDS = ("maeda-swords-1", "tokugawa-plain-1", "tokugawa-plain-2", "tokugawa-plain-3")


def example(seventh_block: str):
    """Seven Ishida blocks attack six Tokugawa blocks at Sawayama; Ishida came from Kyoto."""
    state = combat_phase(ISHIDA, ISHIDA_CARDS, TOKUGAWA_CARDS, entered=[("sawayama", ISHIDA, "kyoto")],
                         sawayama=ISHIDA_BLOCKS + [seventh_block] + TOKUGAWA_BLOCKS)
    return run(state, "ishida: combat sawayama")[0]


def deploy(state, line, challenger_line):
    """One deployment, then the other side's Loyalty Challenge window (R48)."""
    state, events = run(state, line)
    if state.decision.kind is DecisionKind.CHALLENGE:
        state, _ = run(state, challenger_line)
    battle = battle_of(state)
    impacts = [e.impact for e in events if isinstance(e, BlockDeployed)]
    return state, impacts, (impact_total(battle, ISHIDA), impact_total(battle, TOKUGAWA)), initiative(battle)


def first_six_steps(state):
    steps = [
        ("ishida: lead mori-leader", [1], (1, 0), TOKUGAWA),
        ("tokugawa: deploy maeda-swords-1 maeda-cav-1", [3], (1, 3), ISHIDA),
        ("ishida: deploy ukita-double ukita-2-1 ukita-2-2", [2, 3], (6, 3), TOKUGAWA),
        ("tokugawa: deploy tokugawa-plain-1 tokugawa-3-1", [3], (6, 6), ISHIDA),  # a tie: the attacker's initiative
        ("ishida: deploy uesugi-plain-1 uesugi-gun-1", [1], (7, 6), TOKUGAWA),  # no swords, no gun bonus
        ("tokugawa: deploy tokugawa-plain-2 tokugawa-gun-1", [2], (7, 8), ISHIDA),
    ]
    for line, impacts, totals, next_side in steps:
        other = "tokugawa" if line.startswith("ishida") else "ishida"
        state, got_impacts, got_totals, got_next = deploy(state, line, f"{other}: allow")
        assert (got_impacts, got_totals, got_next) == (impacts, totals, next_side), line
    return state


def finish(state):
    """Steps 8-10: Tokugawa's 3-mon block, then neither side can deploy."""
    state, impacts, totals, side = deploy(state, "tokugawa: deploy tokugawa-plain-3 tokugawa-3-2", "ishida: allow")
    assert impacts == [5] and side is ISHIDA  # 3 mon + 2 earlier Tokugawa
    assert legal_commands(state, ISHIDA) == [DeclareDone(ISHIDA)]  # 2 blocks, 2 cards, no match
    state, _ = run(state, "ishida: pass")
    assert legal_commands(state, TOKUGAWA) == [DeclareDone(TOKUGAWA)]
    state, events = run(state, "tokugawa: pass")
    return state, totals, events


def test_combat_example_a_ends_11_13_and_tokugawa_wins():
    state = first_six_steps(example("mori-cav-1"))
    state, impacts, totals, side = deploy(state, "ishida: deploy mori-swords-1 mori-cav-1", "tokugawa: allow")
    assert (impacts, totals, side) == ([4], (11, 8), TOKUGAWA)  # 1 mon +2 cavalry +1 earlier Mori
    state, totals, events = finish(state)
    assert totals == (11, 13)
    assert CombatEnded("sawayama", TOKUGAWA, 11, 13, 2, 1) in events  # Ishida loses 1 + 1, Tokugawa 1
    # Ishida chooses first, among deployed blocks (8.7.2, R32).
    assert state.decision.kind is DecisionKind.CASUALTY and state.decision.sides == {ISHIDA}
    assert {c.piece for c in legal_commands(state, ISHIDA)} == {
        "mori-leader", "ukita-2-1", "ukita-2-2", "uesugi-gun-1", "mori-cav-1"}
    state, _ = run(state, "ishida: lose ukita-2-1", "ishida: lose ukita-2-2", "tokugawa: lose tokugawa-gun-1")
    # Ishida retreats toward where his blocks entered from (8.8.2, R51).
    assert {c.to for c in legal_commands(state, ISHIDA)} == {"kyoto"}
    state, events = run(state, "ishida: retreat kyoto")
    assert sorted(state.blocks_at("kyoto", ISHIDA)) == sorted(
        ["mori-leader", "mori-cav-1", "uesugi-gun-1", "kobayakawa-2-1", "kobayakawa-3-1"])
    # 8.10: Ishida played 3 cards and lost 2 blocks: draws 4; Tokugawa played 4, lost 1: draws 4.
    assert len(state.cards[ISHIDA].hand) == 2 + 4
    assert len(state.cards[TOKUGAWA].hand) == 0 + 4
    assert state.revealed == frozenset()  # R22: the survivors are hidden again


def test_combat_example_b_ends_13_13_and_the_defender_wins():
    state = first_six_steps(example("mori-gun-1"))
    state, impacts, totals, side = deploy(state, "ishida: deploy mori-swords-1 mori-gun-1", "tokugawa: allow")
    # 1 mon +2 gun +2 for the earlier Uesugi gun (deployed without swords, R27) +1 earlier Mori
    assert (impacts, totals, side) == ([6], (13, 8), TOKUGAWA)
    state, totals, events = finish(state)
    assert totals == (13, 13)
    assert CombatEnded("sawayama", TOKUGAWA, 13, 13, 2, 1) in events  # the tie goes to the defender
    state, events = run(state, "ishida: lose ukita-2-1", "ishida: lose ukita-2-2", "tokugawa: lose tokugawa-gun-1")
    assert [e.piece for e in events if isinstance(e, PieceLost)] == ["ukita-2-1", "ukita-2-2", "tokugawa-gun-1"]
    assert state.decision.kind is DecisionKind.RETREAT and state.decision.sides == {ISHIDA}
