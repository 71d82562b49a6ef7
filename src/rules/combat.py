"""8.1 Combat Phase: combat is declared wherever opposing units are together.

Battles, sieges and retreats (8.2-8.10) are the Combat issue's and are not
implemented: a Combat Phase with a location to fight over refuses to go on
with an explicit error rather than skipping the fight. Until movement lands,
no such location can arise from setup.
"""

from __future__ import annotations

from attrs import evolve

from rules.components import default_components
from rules.control import sides_present
from rules.events import Event, PhaseBegan
from rules.sides import Side
from rules.state import Decision, DecisionKind, GameState, Phase


class CombatNotImplemented(NotImplementedError):
    """8.2-8.10 are missing: see the Combat issue."""


def combat_locations(state: GameState) -> tuple[str, ...]:
    """8.1: every location where both sides have units (blocks or discs, R36)."""
    return tuple(
        loc.id for loc in default_components().locations if len(sides_present(state, loc.id)) == 2
    )


def begin_combat_phase(state: GameState, side: Side) -> tuple[GameState, list[Event]]:
    events: list[Event] = [PhaseBegan(state.week, state.turn, Phase.COMBAT, side)]
    contested = combat_locations(state)
    if contested:
        raise CombatNotImplemented(
            f"combat at {', '.join(contested)} (8) is not implemented yet"
        )
    state = evolve(
        state, phase=Phase.COMBAT, active=side, movement=None,
        decision=Decision(DecisionKind.NONE, frozenset()),
    )
    return state, events
