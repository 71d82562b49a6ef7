"""2 Victory: 2.1 instant victory, 2.2 victory points, R50, R56."""

from attrs import evolve

from helpers import no_stack_moves, place
from rules.engine import legal_commands
from rules.events import GameEnded
from rules.pair import Pair
from rules.infra.selfplay import random_game
from rules.sides import Side
from rules.state import Phase, Turn, sorted_pairs
from rules.victory import (
    HIDEYORI_CAPTURED,
    ISHIDA_ELIMINATED,
    TOKUGAWA_ELIMINATED,
    instant_victory,
    score_at_end,
    victory_points,
)


def test_2_1_no_instant_victory_at_start(started):
    assert instant_victory(started) is None


def test_2_1_ishida_mitsunari_eliminated_tokugawa_wins(started):
    result = instant_victory(place(started, eliminated=["ishida-leader"]))
    assert (result.winner, result.cause) == (Side.TOKUGAWA, ISHIDA_ELIMINATED)


def test_2_1_hideyori_captured_tokugawa_wins(started):
    result = instant_victory(evolve(started, discs=frozenset({"sanada"})))
    assert (result.winner, result.cause) == (Side.TOKUGAWA, HIDEYORI_CAPTURED)


def test_2_1_tokugawa_ieyasu_eliminated_ishida_wins(started):
    result = instant_victory(place(started, eliminated=["tokugawa-leader"]))
    assert (result.winner, result.cause) == (Side.ISHIDA, TOKUGAWA_ELIMINATED)


def test_2_1_r50_both_leaders_fall_ishida_wins(started):
    state = place(started, eliminated=["tokugawa-leader", "ishida-leader"])
    assert instant_victory(state).winner is Side.ISHIDA
    state = evolve(place(started, eliminated=["tokugawa-leader"]), discs=frozenset())
    assert instant_victory(state).winner is Side.ISHIDA


def test_2_1_other_leaders_do_not_end_the_game(started):
    assert instant_victory(place(started, eliminated=["mori-leader", "date-leader"])) is None


def test_2_2_vp_at_start_two_per_castle_one_per_resource(started):
    # Ishida: 4 gold castles (8) + Kyoto (1); Tokugawa: 5 black castles (10) + Edo (1).
    assert victory_points(started) == Pair(9, 11)


def test_2_2_uncontrolled_resources_score_nothing(started):
    state = evolve(started, resource_control=())
    assert victory_points(state) == Pair(8, 10)


def test_2_2_higher_total_wins(started):
    result = score_at_end(started)
    assert (result.winner, result.cause, result.vp) == (Side.TOKUGAWA, "vp", Pair(9, 11))


def test_2_2_tie_goes_to_ishida(started):
    control = dict(started.resource_control) | {"tsuruga": Side.ISHIDA, "kuwana": Side.ISHIDA}
    state = evolve(started, resource_control=sorted_pairs(control))
    assert victory_points(state) == Pair(11, 11)
    assert score_at_end(state).winner is Side.ISHIDA


def test_r56_game_ends_after_turn_b_of_week_7_scored_by_vp():
    ended = []
    game = random_game(3, avoid=no_stack_moves, on_step=lambda before, command, after, events: ended.extend(
        (before, e) for e in events if isinstance(e, GameEnded)))
    state = game.state
    assert (state.week, state.turn, state.phase) == (7, Turn.B, Phase.OVER)
    assert len(ended) == 1
    before, event = ended[0]
    assert before.week == 7 and before.turn is Turn.B
    assert state.result == score_at_end(state)
    assert (event.winner, event.ishida_vp, event.tokugawa_vp) == (
        state.result.winner, state.result.vp.ishida, state.result.vp.tokugawa)
    assert legal_commands(state, Side.ISHIDA) == legal_commands(state, Side.TOKUGAWA) == []


def test_2_1_r56_an_overrun_of_ishida_mitsunari_ends_the_game_there_and_then():
    """The game ends at once, in the middle of Tokugawa's Movement Phase: no
    movement is left under way and the event names the cause."""
    from helpers import movement_phase, run
    from rules.state import MovementOption

    state = movement_phase(Side.TOKUGAWA, MovementOption.FULL, kiyosu=["date-2-1", "date-2-2", "date-3-1", "date-3-2"],
                           kuwana=["ishida-leader"])
    state, events = run(state, "tokugawa: move kiyosu", *(f"tokugawa: select {b}" for b in
                        ["date-2-1", "date-2-2", "date-3-1", "date-3-2"]), "tokugawa: step kuwana")
    assert events[-1] == GameEnded(Side.TOKUGAWA, ISHIDA_ELIMINATED, None, None)
    assert state.phase is Phase.OVER and state.movement is None
