"""6.4, 2.2, R55, R56: every week ends with a public WeekEnded event carrying
the standing: each side's victory points (rules.victory, the one definition
of 2.2) and blocks on the map, as the week's last phase left the board."""

from __future__ import annotations

import pytest

from helpers import movement_phase, position_text, run
from rules.components import default_components
from rules.engine import apply, legal_commands
from rules.events import GameEnded, WeekBegan, WeekEnded
from rules.infra.position import load_position
from rules.infra.selfplay import random_game
from rules.sides import BOTH_SIDES, Side
from rules.state import OFF_MAP, GameState, MovementOption, Phase
from rules.view import events_for
from rules.victory import ISHIDA_ELIMINATED, TOKUGAWA_ELIMINATED, VICTORY_POINTS, victory_points

SEEDS = (0, 1, 2, 3, 35, 36)  # 35: Ishida Mitsunari falls in week 7, 36: Tokugawa Ieyasu in week 5 (2.1)


def blocks_counted(state: GameState) -> tuple[int, int]:
    """Each side's blocks in a location, counted here from the positions."""
    owners = [block.side for block, place in zip(default_components().blocks, state.positions) if place not in OFF_MAP]
    return owners.count(Side.ISHIDA), owners.count(Side.TOKUGAWA)


def standing_of(state: GameState) -> tuple[int, int, int, int]:
    vp = victory_points(state)
    return (vp.ishida, vp.tokugawa, *blocks_counted(state))


def figures(event: WeekEnded) -> tuple[int, int, int, int]:
    return event.ishida_vp, event.tokugawa_vp, event.ishida_blocks, event.tokugawa_blocks


class Ends:
    """A seeded game's week ends: each WeekEnded, the events of its step, and
    the state after that step."""

    def __init__(self, seed: int) -> None:
        self.steps: list[tuple[WeekEnded, tuple, GameState]] = []
        self.game = random_game(seed, on_step=self._step, trusted=True)

    def _step(self, before, command, after, events) -> None:
        self.steps += [(e, tuple(events), after) for e in events if isinstance(e, WeekEnded)]


@pytest.fixture(scope="module")
def ends() -> dict[int, Ends]:
    return {seed: Ends(seed) for seed in SEEDS}


@pytest.mark.parametrize("seed", SEEDS)
def test_2_2_6_4_week_ended_carries_each_sides_victory_points_and_blocks_on_the_map(ends, seed):
    """At every week's end, the event's figures are rules.victory's VP and the
    blocks counted from the state (a step that ends a week goes on into the
    next one's reinforcement step, which touches neither the map nor control:
    6.2 blocks go to the Recruitment Box)."""
    game = ends[seed]
    assert [e.week for e, _, _ in game.steps] == list(range(1, game.game.state.week + 1))
    for event, _, after in game.steps:
        assert figures(event) == standing_of(after)


@pytest.mark.parametrize("seed", SEEDS)
def test_6_1_6_4_a_week_ends_before_the_next_begins_and_the_game_last(ends, seed):
    """The week ends after its turn B, before the next week's reinforcement
    step (6.1: that is the next week's); the last one just before GameEnded (R56)."""
    game = ends[seed]
    for event, events, _ in game.steps[:-1]:
        assert events[events.index(event) + 1] == WeekBegan(event.week + 1)
    last, events, _ = game.steps[-1]
    assert events[-2:] == (last, events[-1]) and isinstance(events[-1], GameEnded)


def test_2_2_r56_week_7_ends_with_the_final_score(ends):
    """Scored by 2.2 once week 7 has ended: the last WeekEnded's VP are the
    game's result; exact figures of seed 3."""
    event, events, final = ends[3].steps[-1]
    assert event == WeekEnded(7, 10, 14, 35, 35)
    assert (final.result.cause, final.result.vp.ishida, final.result.vp.tokugawa) == (VICTORY_POINTS, 10, 14)
    assert (events[-1].ishida_vp, events[-1].tokugawa_vp) == (event.ishida_vp, event.tokugawa_vp)
    assert [figures(e) for e, _, _ in ends[3].steps][:3] == [(9, 11, 23, 23), (9, 11, 24, 25), (9, 11, 28, 27)]


def test_2_1_r56_an_instant_victory_in_a_seeded_game_ends_its_week_there(ends):
    """Seed 36: Tokugawa Ieyasu falls in turn A of week 5 (2.1): week 5 ends
    with the game, its figures the board the combat left."""
    event, events, final = ends[36].steps[-1]
    assert final.result.cause == TOKUGAWA_ELIMINATED and final.week == 5
    assert event == WeekEnded(5, 8, 15, 28, 26) and figures(event) == standing_of(final)


def test_2_1_r50_an_overrun_of_ishida_mitsunari_ends_week_1_with_the_game():
    """A position built by hand: four Date blocks overrun Ishida Mitsunari at
    Kuwana (7.4, R50). The week ends at once with the game: Ishida 4 castles
    (8) + Kyoto (1), no block on the map; Tokugawa 5 castles (10) + Edo and
    Kuwana (2), the four blocks."""
    date = ["date-2-1", "date-2-2", "date-3-1", "date-3-2"]
    state = movement_phase(Side.TOKUGAWA, MovementOption.FULL, kiyosu=date, kuwana=["ishida-leader"])
    state, events = run(state, "tokugawa: move kiyosu", *(f"tokugawa: select {b}" for b in date), "tokugawa: step kuwana")
    assert state.phase is Phase.OVER
    assert events[-2:] == [WeekEnded(1, 9, 12, 0, 4), GameEnded(Side.TOKUGAWA, ISHIDA_ELIMINATED, None, None)]
    assert figures(events[-2]) == standing_of(state)


def test_r55_the_standing_is_seen_by_both_sides_and_a_spectator(ends):
    """Control markers and the blocks in each location are public (R55)."""
    event, events, _ = ends[0].steps[0]
    assert event.visible_to() == frozenset(BOTH_SIDES)
    for viewer in (*BOTH_SIDES, None):
        assert event in events_for(viewer, events)


def test_6_4_a_game_set_up_in_week_2_ends_weeks_2_to_7_only():
    """A position starting in week 2 (docs/positions.md): week 1 never ended
    in this game, so no event says it did."""
    state = load_position(position_text("week2_reinforcement"))
    seen: list[WeekEnded] = []
    turn = 0
    while not state.is_over:
        side = sorted(state.decision.sides)[turn % len(state.decision.sides)]
        state, events = apply(state, legal_commands(state, side)[-1])
        seen += [e for e in events if isinstance(e, WeekEnded)]
        turn += 1
    assert [e.week for e in seen] == list(range(2, state.week + 1))
    assert figures(seen[-1]) == standing_of(state)
