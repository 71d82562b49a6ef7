"""Log lines rendered from events (rules.describe)."""

import inspect

import pytest

import rules.events as events_module
from rules.describe import describe, describe_neutral
from rules.engine import start_game
from rules.events import (
    BidsRevealed,
    BlockDeployed,
    BlocksDefected,
    BlocksMoved,
    BlocksMustered,
    BlocksPlaced,
    BlocksRetreated,
    BlocksShown,
    BlocksStopped,
    CardsDiscarded,
    CardsDrawn,
    CardSetAside,
    CastleFell,
    ChallengeRefuted,
    CombatDeclared,
    CombatEnded,
    ControlChanged,
    DrawPileReshuffled,
    Event,
    FirstPlayerChosen,
    GameEnded,
    LeaderDeclared,
    LoyaltyChallenged,
    MoriBlockEntered,
    MovementChosen,
    MovementEnded,
    NoCombat,
    OpponentDecided,
    OpponentDrewCards,
    OpponentEvent,
    OpponentMovedBlocks,
    OpponentPlacedBlocks,
    OpponentRetreated,
    Overrun,
    PhaseBegan,
    PieceLost,
    PrivateEvent,
    SideDone,
    WeekBegan,
    WeekEnded,
)
from rules.infra.selfplay import random_game
from rules.sides import BOTH_SIDES, Side
from rules.state import MORI_BOX, RECRUITMENT_BOX, MovementOption, Phase, Turn
from rules.victory import HIDEYORI_CAPTURED, TOKUGAWA_ELIMINATED, VICTORY_POINTS

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA

SAMPLES: list[Event] = [
    CardsDrawn(ISHIDA, ("mori-double", "ukita-plain-1")),
    OpponentDrewCards(TOKUGAWA, 2),
    DrawPileReshuffled(TOKUGAWA, 12),
    CardsDiscarded(ISHIDA, ("mori-plain-1", "ukita-swords-1"), "movement"),
    CardsDiscarded(TOKUGAWA, ("date-plain-1",), "reinforcement"),
    CardsDiscarded(ISHIDA, ("mori-plain-2",), "mori box"),
    CardSetAside(ISHIDA, "mori-double", "bid"),
    OpponentDecided(TOKUGAWA, "reinforcement"),
    BlocksPlaced(ISHIDA, RECRUITMENT_BOX.ishida, ("mori-3-5", "ukita-gun-1")),
    OpponentPlacedBlocks(TOKUGAWA, "edo", 2),
    BlocksShown(ISHIDA, MORI_BOX, ("mori-leader", "mori-3-1", "mori-3-2", "mori-3-3", "mori-3-4")),
    WeekBegan(2),
    BidsRevealed("mori-double", "tokugawa-swords-1", ISHIDA),
    BidsRevealed(None, "tokugawa-plain-1", TOKUGAWA),
    FirstPlayerChosen(ISHIDA, TOKUGAWA),
    PhaseBegan(2, Turn.A, Phase.MOVEMENT, TOKUGAWA),
    MovementChosen(TOKUGAWA, MovementOption.LIMITED),
    MovementChosen(ISHIDA, MovementOption.PASS),
    MovementEnded(TOKUGAWA),
    ControlChanged("kuwana", TOKUGAWA),
    ControlChanged("gifu", ISHIDA),
    GameEnded(ISHIDA, VICTORY_POINTS, 14, 12),
    GameEnded(TOKUGAWA, HIDEYORI_CAPTURED),
    LeaderDeclared(TOKUGAWA, "kiyosu"),
    BlocksMoved(ISHIDA, ("mori-3-5", "ukita-cav-1"), "osaka", "kyoto"),
    OpponentMovedBlocks(TOKUGAWA, 3, "edo", "oshi"),
    BlocksStopped(TOKUGAWA, "gifu"),
    Overrun(TOKUGAWA, "kuwana", ("ukita-2-1",)),
    BlocksMustered(TOKUGAWA, "sendai", ("date-2-1", "date-3-1")),
    MoriBlockEntered(ISHIDA, "mori-3-1"),
    CombatDeclared("gifu", TOKUGAWA, False),
    CombatDeclared("osaka", TOKUGAWA, True),
    NoCombat("gifu", ISHIDA),
    BlockDeployed(ISHIDA, "mori-cav-1", "mori-swords-1", 4),
    BlockDeployed(TOKUGAWA, "tokugawa-leader", None, 1),
    SideDone(TOKUGAWA),
    LoyaltyChallenged(TOKUGAWA, "tokugawa-loyalty-1", ("mori-cav-1",)),
    ChallengeRefuted(ISHIDA, "mori-plain-1"),
    BlocksDefected(ISHIDA, ("ukita-2-1", "ukita-2-2")),
    CombatEnded("gifu", TOKUGAWA, 11, 13, 2, 1),
    CombatEnded("osaka", None, 0, 8, 1, 0),
    PieceLost(ISHIDA, "mori-3-1", "gifu"),
    PieceLost(ISHIDA, "hideyori", "osaka"),
    BlocksRetreated(ISHIDA, ("mori-3-1", "ukita-gun-1"), "gifu", "sawayama"),
    OpponentRetreated(TOKUGAWA, 3, "anotsu", "kuwana", 2),
    CastleFell("gifu", TOKUGAWA),
]
NO_LINE: list[Event] = [WeekEnded(2, 10, 12, 24, 26)]
"""Events the log leaves out: their line is empty (rules.describe)."""


def concrete_event_classes() -> set[type]:
    abstract = {Event, PrivateEvent, OpponentEvent}
    return {
        cls
        for cls in vars(events_module).values()
        if inspect.isclass(cls) and issubclass(cls, Event) and cls not in abstract
    }


def test_the_samples_cover_every_event_class():
    assert concrete_event_classes() <= {type(event) for event in SAMPLES + NO_LINE}


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: type(e).__name__)
def test_every_event_has_one_plain_line_for_each_side_that_sees_it(event):
    for side in event.visible_to():
        line = describe(event, side)
        assert line and "\n" not in line
        assert line[0].isupper() and line.endswith(".")


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: type(e).__name__)
def test_lines_use_names_not_ids(event):
    for side in BOTH_SIDES:
        line = describe(event, side)
        assert "_" not in line
        assert not any(token in line for token in ("-plain-", "-swords-", "-cav-", "-gun-", "-3-", "-2-"))


@pytest.mark.parametrize("seed", [1, 2])
def test_every_event_of_a_whole_game_has_a_line_for_each_side_that_sees_it(seed):
    _, events = start_game(seed)
    seen = list(events)
    random_game(seed, on_step=lambda before, command, after, more: seen.extend(more))
    for event in seen:
        for side in event.visible_to():
            line = describe(event, side)
            assert line == "" if type(event) in {type(e) for e in NO_LINE} else line.endswith(".")


@pytest.mark.parametrize("event", NO_LINE, ids=lambda e: type(e).__name__)
def test_6_4_the_end_of_a_week_has_no_line_its_figures_are_plotted_at_game_over(event):
    """Issue 22 changes no screen: WeekEnded's figures feed the game-over plots
    (sekigahara_tui.standing), and the log and the replay leave out an empty line."""
    assert describe(event, ISHIDA) == describe(event, TOKUGAWA) == describe_neutral(event) == ""


def test_an_unknown_event_class_is_a_type_error():
    class Rumour(Event):
        pass

    with pytest.raises(TypeError, match="Rumour"):
        describe(Rumour(), ISHIDA)


# --- exact lines ---------------------------------------------------------------------------


def test_6_3_bids_revealed():
    event = BidsRevealed("mori-double", "tokugawa-swords-1", ISHIDA)
    assert describe(event, ISHIDA) == (
        "Bids revealed: Ishida 5 (Mori double), Tokugawa 4 (Tokugawa swords); "
        "you win and choose the first player (6.3)."
    )
    assert describe(event, TOKUGAWA) == (
        "Bids revealed: Ishida 5 (Mori double), Tokugawa 4 (Tokugawa swords); "
        "Ishida wins and chooses the first player (6.3)."
    )


def test_r9_a_side_without_a_card_bids_0():
    event = BidsRevealed(None, "tokugawa-plain-1", TOKUGAWA)
    assert describe(event, ISHIDA) == (
        "Bids revealed: Ishida 0 (no card), Tokugawa 2 (Tokugawa plain); "
        "Tokugawa wins and chooses the first player (6.3)."
    )


def test_7_3_own_blocks_moved_are_named():
    event = BlocksMoved(ISHIDA, ("mori-3-5", "mori-3-4", "ukita-cav-1"), "osaka", "kyoto")
    assert describe(event, ISHIDA) == "You move Mori 3-mon ×2 and Ukita cavalry from Osaka to Kyoto (7.3)."


def test_7_3_the_opponent_moving_shows_only_a_count():
    event = OpponentMovedBlocks(TOKUGAWA, 3, "edo", "oshi")
    assert describe(event, ISHIDA) == "Tokugawa moves 3 blocks from Edo to Oshi (7.3)."
    assert describe(OpponentMovedBlocks(ISHIDA, 1, "osaka", "kyoto"), TOKUGAWA) == (
        "Ishida moves 1 block from Osaka to Kyoto (7.3)."
    )


def test_8_1_combat_declared():
    battle = CombatDeclared("gifu", TOKUGAWA, False)
    assert describe(battle, TOKUGAWA) == "You declare a battle at Gifu (8.1)."
    assert describe(battle, ISHIDA) == "Tokugawa declares a battle at Gifu (8.1)."
    siege = CombatDeclared("osaka", TOKUGAWA, True)
    assert describe(siege, ISHIDA) == "Tokugawa declares a siege of Osaka castle (8.9)."


def test_8_2_block_deployed():
    event = BlockDeployed(ISHIDA, "mori-cav-1", "mori-swords-1", 4)
    assert describe(event, ISHIDA) == "You deploy Mori cavalry with Mori swords for 4 Impact (8.2.3)."
    assert describe(event, TOKUGAWA) == "Ishida deploys Mori cavalry with Mori swords for 4 Impact (8.2.3)."
    leader = BlockDeployed(TOKUGAWA, "tokugawa-leader", None, 1)
    assert describe(leader, ISHIDA) == "Tokugawa deploys Tokugawa Ieyasu without a card for 1 Impact (8.2.4)."


def test_8_6_loyalty_challenge():
    event = LoyaltyChallenged(TOKUGAWA, "tokugawa-loyalty-1", ("mori-cav-1",))
    assert describe(event, TOKUGAWA) == "You play a Loyalty Challenge against Ishida's Mori cavalry (8.6.1)."
    assert describe(event, ISHIDA) == "Tokugawa plays a Loyalty Challenge against your Mori cavalry (8.6.1)."


def test_8_6_challenge_outcomes():
    refuted = ChallengeRefuted(ISHIDA, "mori-plain-1")
    assert describe(refuted, ISHIDA) == "You show Mori plain and keep it: the challenge fails (8.6.1, R48)."
    assert describe(refuted, TOKUGAWA) == (
        "Ishida shows Mori plain and keeps it: the challenge fails (8.6.1, R48)."
    )
    defected = BlocksDefected(ISHIDA, ("ukita-2-1", "ukita-2-2"))
    assert describe(defected, TOKUGAWA) == "Ishida's Ukita 2-mon ×2 defect to you (8.6.1)."
    assert describe(defected, ISHIDA) == "Your Ukita 2-mon ×2 defect to Tokugawa (8.6.1)."


def test_8_7_combat_ended():
    event = CombatEnded("gifu", TOKUGAWA, 11, 13, 2, 1)
    assert describe(event, ISHIDA) == (
        "Battle at Gifu ends: Impact Ishida 11, Tokugawa 13; Tokugawa wins; losses Ishida 2, Tokugawa 1 (8.7.1)."
    )
    assert describe(event, TOKUGAWA) == (
        "Battle at Gifu ends: Impact Ishida 11, Tokugawa 13; you win; losses Ishida 2, Tokugawa 1 (8.7.1)."
    )


def test_8_7_piece_lost():
    event = PieceLost(ISHIDA, "mori-3-1", "gifu")
    assert describe(event, ISHIDA) == "You lose Mori 3-mon at Gifu (8.7.2)."
    assert describe(event, TOKUGAWA) == "Ishida loses Mori 3-mon at Gifu (8.7.2)."
    disc = PieceLost(ISHIDA, "hideyori", "osaka")
    assert describe(disc, TOKUGAWA) == "Ishida loses Toyotomi Hideyori at Osaka (8.9.3)."


def test_8_8_retreats():
    own = BlocksRetreated(ISHIDA, ("mori-3-1", "ukita-gun-1"), "gifu", "sawayama")
    assert describe(own, ISHIDA) == "You retreat Mori 3-mon and Ukita gun from Gifu to Sawayama (8.8)."
    other = OpponentRetreated(TOKUGAWA, 3, "anotsu", "kuwana", 2)
    assert describe(other, ISHIDA) == (
        "Tokugawa retreats 3 blocks from Anotsu to Kuwana; 2 stay inside Anotsu castle (8.8.4)."
    )


def test_8_9_castle_fell():
    event = CastleFell("gifu", TOKUGAWA)
    assert describe(event, TOKUGAWA) == "Gifu castle falls to you (8.9.4)."
    assert describe(event, ISHIDA) == "Gifu castle falls to Tokugawa (8.9.4)."


def test_7_4_overrun():
    event = Overrun(TOKUGAWA, "kuwana", ("ukita-2-1",))
    assert describe(event, ISHIDA) == "Tokugawa overruns you in Kuwana; eliminated: Ukita 2-mon (7.4)."
    assert describe(event, TOKUGAWA) == "You overrun Ishida in Kuwana; eliminated: Ukita 2-mon (7.4)."


def test_2_game_ended():
    by_points = GameEnded(ISHIDA, VICTORY_POINTS, 14, 12)
    assert describe(by_points, ISHIDA) == "Game over after week 7: Ishida 14 VP, Tokugawa 12 VP; you win (2.2)."
    assert describe(by_points, TOKUGAWA) == (
        "Game over after week 7: Ishida 14 VP, Tokugawa 12 VP; Ishida wins (2.2)."
    )
    instant = GameEnded(ISHIDA, TOKUGAWA_ELIMINATED)
    assert describe(instant, TOKUGAWA) == "Game over: Tokugawa Ieyasu is eliminated; Ishida wins (2.1)."
    captured = GameEnded(TOKUGAWA, HIDEYORI_CAPTURED)
    assert describe(captured, TOKUGAWA) == "Game over: Toyotomi Hideyori is captured; you win (2.1)."


def test_8_9_4_siege_ended():
    event = CombatEnded("osaka", None, 0, 8, 1, 0)
    assert describe(event, ISHIDA) == (
        "Siege of Osaka castle ends: Impact Ishida 0, Tokugawa 8; losses Ishida 1, Tokugawa 0 (8.9.4)."
    )


# --- who is speaking ---------------------------------------------------------------------


def test_private_cards_drawn_speak_to_their_owner():
    event = CardsDrawn(ISHIDA, ("mori-double", "ukita-plain-1"))
    assert describe(event, ISHIDA) == "You draw 2 cards: Mori double and Ukita plain."
    assert describe(OpponentDrewCards(ISHIDA, 2), TOKUGAWA) == "Ishida draws 2 cards."


def test_places_off_the_map_have_names_seen_from_the_reader():
    own = BlocksPlaced(ISHIDA, RECRUITMENT_BOX.ishida, ("mori-3-5",))
    assert describe(own, ISHIDA) == "You place Mori 3-mon in your Recruitment Box."
    other = OpponentPlacedBlocks(ISHIDA, RECRUITMENT_BOX.ishida, 2)
    assert describe(other, TOKUGAWA) == "Ishida places 2 blocks in Ishida's Recruitment Box."
    shown = BlocksShown(ISHIDA, MORI_BOX, ("mori-leader", "mori-3-1", "mori-3-2"))
    assert describe(shown, TOKUGAWA) == (
        "Ishida's blocks in the Mori Box, face up: Mori Terumoto and Mori 3-mon ×2 (9.3)."
    )


def test_phase_and_first_player_name_the_reader():
    phase = PhaseBegan(2, Turn.A, Phase.MOVEMENT, TOKUGAWA)
    assert describe(phase, TOKUGAWA) == "Week 2, turn A: your Movement Phase (6.4)."
    assert describe(phase, ISHIDA) == "Week 2, turn A: Tokugawa's Movement Phase (6.4)."
    chosen = FirstPlayerChosen(ISHIDA, TOKUGAWA)
    assert describe(chosen, TOKUGAWA) == "Ishida chooses you to move first this week (6.3)."
    assert describe(chosen, ISHIDA) == "You choose Tokugawa to move first this week (6.3)."
    itself = FirstPlayerChosen(TOKUGAWA, TOKUGAWA)
    assert describe(itself, ISHIDA) == "Tokugawa chooses to move first this week (6.3)."


@pytest.mark.parametrize(
    ("event", "ishida", "tokugawa"),
    [
        (SideDone(TOKUGAWA), "Tokugawa is done deploying in this combat (8.5).",
         "You are done deploying in this combat (8.5)."),
        (ControlChanged("kuwana", TOKUGAWA), "Tokugawa now controls Kuwana (4.2).", "You now control Kuwana (4.2)."),
        (ControlChanged("gifu", ISHIDA), "You now control Gifu castle (4.3).", "Ishida now controls Gifu castle (4.3)."),
        (MovementEnded(TOKUGAWA), "Tokugawa's Movement Phase ends.", "Your Movement Phase ends."),
        (NoCombat("gifu", ISHIDA), "You stay inside Gifu castle: no combat there this phase (8.9.2).",
         "Ishida stays inside Gifu castle: no combat there this phase (8.9.2)."),
        (BlocksStopped(TOKUGAWA, "gifu"), "Tokugawa's blocks stop in Gifu, which holds your units (7.3.2).",
         "Your blocks stop in Gifu, which holds Ishida units (7.3.2)."),
    ],
)
def test_you_or_the_side_name_by_viewer(event, ishida, tokugawa):
    assert describe(event, ISHIDA) == ishida
    assert describe(event, TOKUGAWA) == tokugawa
