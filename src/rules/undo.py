"""R58: undo in digital play.

A player may take back his own commands since his last decision point began,
unless a random draw, a reveal of hidden information or a decision by the other
player has happened since. The host keeps the states; this module says which
steps may be taken back.
"""

from __future__ import annotations

from rules import events as ev
from rules.events import Event
from rules.sides import Side
from rules.state import GameState

# Events that show the other player something that was hidden (R55): a card
# played or discarded, a block shown, a draw. Once seen, it cannot be unseen.
REVEALING_EVENTS: tuple[type[Event], ...] = (
    ev.BidsRevealed,
    ev.BlockDeployed,
    ev.BlocksDefected,
    ev.BlocksMustered,
    ev.BlocksShown,
    ev.CardsDiscarded,
    ev.CardsDrawn,
    ev.CastleFell,
    ev.ChallengeRefuted,
    ev.DrawPileReshuffled,
    ev.LeaderDeclared,
    ev.LoyaltyChallenged,
    ev.MoriBlockEntered,
    ev.OpponentDrewCards,
    ev.Overrun,
    ev.PieceLost,
)


def why_step_is_final(before: GameState, after: GameState, events: tuple[Event, ...]) -> str | None:
    """R58: why the step from `before` to `after` may not be taken back, or None."""
    if after.rng_counter != before.rng_counter:
        return "it made a random draw (R58)"
    if not after.revealed <= before.revealed:
        return "it revealed a block (R58)"
    for event in events:
        if isinstance(event, REVEALING_EVENTS):
            return f"it revealed hidden information: {type(event).__name__} (R58)"
    if after.is_over:
        return "the game is over (R56)"
    return None


def why_undo_illegal(
    side: Side,
    last_command_side: Side | None,
    final_reason: str | None,
) -> str | None:
    """R58: may `side` take back the last command? `last_command_side` is who gave it
    (None at the start of the game); `final_reason` is why_step_is_final of that step."""
    if last_command_side is None:
        return "there is nothing to undo"
    if last_command_side is not side:
        return f"the last decision was {last_command_side.value}'s (R58)"
    return final_reason
