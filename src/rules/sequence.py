"""6.1 and 6.4: the weekly cycle, and the order of phases within each turn.

Phase modules end their work by setting the decision to NONE; `advance` then
starts whatever comes next, until someone has a decision to make.
"""

from __future__ import annotations

from rules.bidding import begin_bid
from rules.combat import after_deployments, begin_combat_phase
from rules.components import default_components
from rules.events import Event, WeekBegan
from rules.immutable import evolve
from rules.movement import begin_movement_phase
from rules.reinforcement import begin_reinforcement
from rules.state import DecisionKind, GameState, Phase, Turn
from rules.victory import end_game, score_at_end, week_ended


# Module names, not the Enum classes' (rules.sides: issue 25).
_NONE, _OVER = DecisionKind.NONE, Phase.OVER
_REINFORCEMENT, _FIRST_PLAYER, _MOVEMENT, _COMBAT = Phase.REINFORCEMENT, Phase.FIRST_PLAYER, Phase.MOVEMENT, Phase.COMBAT


def advance(state: GameState) -> tuple[GameState, list[Event]]:
    events: list[Event] = []
    while state.decision.kind is _NONE and state.phase is not _OVER:
        state, more = _next_step(state)
        events += more
    return state, events


def begin_week(state: GameState, week: int) -> tuple[GameState, list[Event]]:
    """6.1: reinforcement (not in week 1), then the turn order step."""
    state = evolve(state, week=week, turn=Turn.A, first_player=None, active=None)
    events: list[Event] = [WeekBegan(week)]
    state, more = begin_bid(state) if week == 1 else begin_reinforcement(state)
    return state, events + more


def _next_step(state: GameState) -> tuple[GameState, list[Event]]:
    phase = state.phase
    if phase is _REINFORCEMENT:
        return begin_bid(state)
    if phase is _FIRST_PLAYER:
        assert state.first_player is not None
        return begin_movement_phase(evolve(state, turn=Turn.A, entered_from=()), state.first_player)
    if phase is _MOVEMENT:
        assert state.active is not None
        return begin_combat_phase(state, state.active)
    if phase is _COMBAT:
        if state.combat is not None and state.combat.battle is not None:
            return after_deployments(state)  # both sides are done deploying (8.5)
        return _after_combat_phase(state)
    raise AssertionError(f"nothing follows {phase} without a decision")


def _after_combat_phase(state: GameState) -> tuple[GameState, list[Event]]:
    """6.4: first player's phases, then the second's; turn A, then turn B."""
    first = state.first_player
    assert first is not None and state.active is not None
    if state.active is first:
        return begin_movement_phase(state, first.other)
    if state.turn is Turn.A:
        return begin_movement_phase(evolve(state, turn=Turn.B, entered_from=()), first)  # R51: per turn
    if state.week == default_components().setup.weeks:
        return end_game(state, score_at_end(state))  # week 7 ends with the game (end_game)
    # The week ends before the next one begins: its reinforcement step (6.2) is
    # the next week's (6.1), and the standing is the board this week left.
    week_end = week_ended(state)
    state, events = begin_week(state, state.week + 1)
    return state, [week_end, *events]
