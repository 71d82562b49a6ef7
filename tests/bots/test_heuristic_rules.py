"""Exact outcomes of a few of the heuristic's rules of thumb, on small
hand-built positions (docs/positions.md)."""

from __future__ import annotations

from attrs import evolve
from bot_helpers import decide, kuwana_battle, play_while, position

from rules.commands import AllowPlay, Bid, Challenge, ChooseCasualty, Deploy
from rules.engine import apply
from rules.events import ChallengeRefuted
from rules.sides import Side
from rules.state import Decision, DecisionKind, Phase
from rules.view import view
from sekigahara_tui.bots.heuristic import HeuristicBot
from sekigahara_tui.bots.knowledge import refute_probability_none

MOVEMENT = """
[game]
week = 2
phase = "movement"
first_player = "tokugawa"
active = "tokugawa"

[blocks]
osaka = ["ishida-leader", "kobayakawa-leader", "kobayakawa-3-1", "ukita-2-1"]
mori_box = ["mori-leader", "mori-3-1", "mori-3-2", "mori-3-3", "mori-3-4"]
kiyosu = ["fukushima-leader", "fukushima-2-1", "fukushima-cav-1"]
edo = ["tokugawa-leader", "tokugawa-3-1", "tokugawa-3-2", "tokugawa-gun-1", "tokugawa-2-1"]

[hands]
ishida = ["ukita-plain-1"]
tokugawa = ["fukushima-plain-1", "tokugawa-plain-1", "maeda-plain-1", "date-plain-1"]

[control]
kyoto = "ishida"
edo = "tokugawa"
"""


def test_takes_an_undefended_castle_in_reach():
    state = position(MOVEMENT)
    assert dict(state.castle_control)["gifu"] is Side.ISHIDA  # empty: its natural alignment (4.3)
    after, given = play_while(state, Side.TOKUGAWA, lambda s: s.phase is Phase.MOVEMENT and s.active is Side.TOKUGAWA)
    assert dict(after.castle_control)["gifu"] is Side.TOKUGAWA
    assert dict(after.resource_control).get("kuwana") is Side.TOKUGAWA  # and the resource next door


def test_keeps_the_great_leader_at_home_with_a_bodyguard():
    state = position(MOVEMENT)
    after, _ = play_while(state, Side.TOKUGAWA, lambda s: s.phase is Phase.MOVEMENT and s.active is Side.TOKUGAWA)
    assert after.place_of("tokugawa-leader") == "edo"
    assert len(after.blocks_at("edo", Side.TOKUGAWA)) >= 5


BID = """
[game]
week = 1
phase = "bid"

[hands]
ishida = ["mori-double", "ukita-plain-1", "ishida-loyalty-1", "mori-swords-1"]
tokugawa = ["tokugawa-plain-1"]
"""


def test_bids_its_least_useful_card():
    state = position(BID)
    assert decide(state, Side.ISHIDA) == Bid(Side.ISHIDA, "ukita-plain-1")


def battle(tokugawa_hand: list[str]):
    """Tokugawa attacks at Kuwana and deploys a Fukushima block with a card:
    Ishida may challenge it."""
    state = kuwana_battle(
        ["ukita-leader", "ukita-2-1", "ukita-cav-1", "fukushima-2-1", "fukushima-2-2", "fukushima-3-1"],
        ["ukita-plain-1", "ukita-swords-1", "ishida-loyalty-1"],
        tokugawa_hand,
    )
    state, _ = apply(state, next(c for c in view(state, Side.TOKUGAWA).legal if c.location == "kuwana"))
    deploy = next(c for c in view(state, Side.TOKUGAWA).legal if isinstance(c, Deploy) and c.card == "fukushima-plain-1")
    state, _ = apply(state, deploy)
    assert any(isinstance(c, Challenge) for c in view(state, Side.ISHIDA).legal)
    return state


def test_challenges_when_the_enemy_has_no_card_left_to_refute():
    state = battle(["fukushima-plain-1"])  # its only card was played
    assert view(state, Side.ISHIDA).enemy_hand_size == 0
    assert isinstance(decide(state, Side.ISHIDA), Challenge)


def test_does_not_challenge_when_the_enemy_surely_holds_the_refuting_card():
    state = battle(["fukushima-plain-1", "fukushima-plain-2"])
    bot = HeuristicBot(Side.ISHIDA, 1)
    # Earlier Tokugawa refuted a challenge by showing fukushima-plain-2 (R48): it is in its hand.
    bot.observe([ChallengeRefuted(Side.TOKUGAWA, "fukushima-plain-2")])
    assert decide(state, Side.ISHIDA, bot=bot) == AllowPlay(Side.ISHIDA)
    # Without that knowledge, one unknown card out of ~50 rarely refutes: challenge.
    assert isinstance(decide(state, Side.ISHIDA), Challenge)


def test_deploys_cavalry_with_the_swords_card():
    state = battle(["fukushima-plain-1"])
    state, _ = apply(state, AllowPlay(Side.ISHIDA))
    command = decide(state, Side.ISHIDA)
    assert isinstance(command, Deploy) and command.card.startswith("ukita-swords") and command.blocks[0].startswith("ukita-cav")


def test_never_takes_the_great_leader_as_a_casualty_while_another_block_can_go():
    bot = HeuristicBot(Side.ISHIDA, 1)
    casualty = Decision(DecisionKind.CASUALTY, frozenset({Side.ISHIDA}))
    seen = evolve(view(position(BID), Side.ISHIDA), decision=casualty, legal=(
        ChooseCasualty(Side.ISHIDA, "ishida-leader"),
        ChooseCasualty(Side.ISHIDA, "mori-3-1"),
        ChooseCasualty(Side.ISHIDA, "ukita-cav-1"),
    ))
    assert bot.choose(seen, 2.0) == ChooseCasualty(Side.ISHIDA, "ukita-cav-1")


def test_the_chance_of_no_refutation_is_zero_when_too_few_other_cards_remain():
    assert refute_probability_none(hand_size=3, pool=5, refuters=3) == 0.0
    assert refute_probability_none(hand_size=0, pool=50, refuters=10) == 1.0
    assert abs(refute_probability_none(hand_size=1, pool=10, refuters=4) - 0.6) < 1e-9
