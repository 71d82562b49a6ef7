"""2 Victory: instant victory (2.1, R50) and victory points (2.2, R56), and
the standing each week ends with (6.4)."""

from __future__ import annotations

from rules.control import castles_controlled, resources_controlled
from rules.decision import DecisionHelp, DecisionRules, help_text
from rules.events import Event, GameEnded, WeekEnded
from rules.immutable import evolve
from rules.pair import Pair
from rules.sides import Side
from rules.state import ELIMINATED, OFF_MAP, Decision, DecisionKind, GameResult, GameState, Phase

ISHIDA_ELIMINATED = "ishida-mitsunari-eliminated"
HIDEYORI_CAPTURED = "hideyori-captured"
TOKUGAWA_ELIMINATED = "tokugawa-ieyasu-eliminated"
VICTORY_POINTS = "vp"


def instant_victory(state: GameState) -> GameResult | None:
    """2.1: Tokugawa wins at once if Ishida Mitsunari is eliminated or Hideyori
    captured; Ishida wins at once if Tokugawa Ieyasu is eliminated; if both
    happen in the same combat, Ishida wins (R50). Call it after every elimination."""
    tokugawa_falls = state.place_of("tokugawa-leader") == ELIMINATED
    if tokugawa_falls:
        return GameResult(Side.ISHIDA, TOKUGAWA_ELIMINATED)
    if state.place_of("ishida-leader") == ELIMINATED:
        return GameResult(Side.TOKUGAWA, ISHIDA_ELIMINATED)
    if "hideyori" not in state.discs:
        return GameResult(Side.TOKUGAWA, HIDEYORI_CAPTURED)
    return None


def victory_points(state: GameState) -> Pair[int]:
    """2.2: 2 VP per castle controlled, 1 per resource location (capitals included)."""
    return Pair.of(lambda side: 2 * castles_controlled(state, side) + resources_controlled(state, side))


def blocks_on_map(state: GameState) -> Pair[int]:
    """Each side's blocks in a location: not in a bag, a Recruitment Box, the
    Mori Box or eliminated. A defector still counts for its owner (8.6.1)."""
    return Pair.of(lambda side: sum(
        len(blocks) for place, blocks in state.blocks_by_place(side) if place not in OFF_MAP))


def week_ended(state: GameState) -> WeekEnded:
    """6.4: the week `state` is in ends here, after its last Combat Phase or at
    once with the game (R56), and before anything of the next week: the next
    reinforcement step (6.2) is the next week's first step (6.1), and the 2.2
    score is taken once week 7 has ended. So the figures are the board the
    week's last phase left, and week 7's VP are the final score."""
    vp, blocks = victory_points(state), blocks_on_map(state)
    return WeekEnded(state.week, vp.ishida, vp.tokugawa, blocks.ishida, blocks.tokugawa)


def score_at_end(state: GameState) -> GameResult:
    """2.2: the higher total wins; a tie goes to Ishida."""
    vp = victory_points(state)
    winner = Side.TOKUGAWA if vp.tokugawa > vp.ishida else Side.ISHIDA
    return GameResult(winner, VICTORY_POINTS, vp)


def end_game(state: GameState, result: GameResult) -> tuple[GameState, list[Event]]:
    """R56: the game ends at once on an instant victory, else after week 7;
    either way the week ends with it (WeekEnded first: the game's last event
    is GameEnded)."""
    week_end = week_ended(state)
    state = evolve(
        state,
        phase=Phase.OVER,
        decision=Decision(DecisionKind.NONE, frozenset()),
        result=result,
        movement=None,
    )
    vp = result.vp
    return state, [
        week_end,
        GameEnded(result.winner, result.cause, vp.ishida if vp else None, vp.tokugawa if vp else None)
    ]


# Ends outside the rules (digital play, the club): the game stops where it
# stands; the rulebook knows no such end, so nothing is scored.
RESIGNED = "resigned"  # the loser gave up; the winner is the other side
TIMED_OUT = "timed-out"  # the loser ran out of time on the club's clock
CANCELLED = "cancelled"  # both players agreed to call it off: no winner
OUTSIDE_THE_RULES = frozenset({RESIGNED, TIMED_OUT, CANCELLED})


def end_outside_rules(state: GameState, winner: Side | None, cause: str) -> GameState:
    """The game stopped where it stands, outside the rules (a resignation, a
    clock, an agreement): over, nothing left to decide, and, as at any end
    (R56), the final board face up (view.py reads `result`). No event: the
    steps and the record stay as they were."""
    if cause not in OUTSIDE_THE_RULES:
        raise ValueError(f"not an end outside the rules: {cause!r}")
    if (winner is None) != (cause == CANCELLED):
        raise ValueError("only a cancelled game has no winner")
    return evolve(
        state,
        phase=Phase.OVER,
        decision=Decision(DecisionKind.NONE, frozenset()),
        result=GameResult(winner, cause),
        movement=None,
    )


def _nothing_to_decide(state: GameState, side: Side) -> list:
    return []


GAME_OVER = DecisionRules(
    kind=DecisionKind.NONE,
    asks="nothing: the game is over (R56)",
    help=DecisionHelp(
        title="Game over",
        rules="2.1, 2.2, R50, R56",
        text=help_text(
            "Nothing is left to decide: the game has ended.",
            "Instant victory: Tokugawa wins when Ishida Mitsunari is eliminated or the",
            "Hideyori disc is captured; Ishida wins when Tokugawa Ieyasu is eliminated.",
            "If both happen in the same combat, Ishida wins (R50).",
            "Otherwise, after turn B of week 7, count points: 2 per castle and 1 per resource",
            "location controlled. The higher total wins; a tie goes to Ishida (R56).",
        ),
    ),
    legal=_nothing_to_decide,
    answers={},
)
