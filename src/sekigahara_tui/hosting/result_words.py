"""How a game's result is said in one line (the lobby, game_over, the
audit log), for each way a game ends (store.py END_KINDS):

- rules: the rules ended it (2.1, 2.2, R56): "tokugawa wins (VP 12-10)";
- resigned: "ishida resigned: tokugawa wins";
- cancelled: "cancelled by agreement: no result" (counted by nobody);
- timed-out: "ishida ran out of time: tokugawa wins" (the clocks, issue 24);
- finished-by-stand-in: the rules' words, then "; the computer finished for
  ishida" (the clocks: a seat out of time played on by the computer).
"""

from __future__ import annotations

from rules.surface import GameResult, Side
from sekigahara_tui.hosting.store import GameEnd

# An end outside the rules, and the engine's cause for it (rules.victory).
OUTSIDE_CAUSES = {"resigned": "resigned", "cancelled": "cancelled", "timed-out": "timed-out"}


def rules_words(result: GameResult) -> str:
    """The rules' result: the winner, and the VP or the instant victory's cause."""
    assert result.winner is not None
    how = f"VP {result.vp.ishida}-{result.vp.tokugawa}" if result.vp is not None else result.cause
    return f"{result.winner.value} wins ({how})"


def end_words(end: GameEnd, result: GameResult) -> str:
    """The one line of a finished game; `result` is the engine's."""
    seat = end.seat.value if end.seat is not None else "a side"
    winner = end.winner.value if end.winner is not None else "nobody"
    if end.kind == "resigned":
        return f"{seat} resigned: {winner} wins"
    if end.kind == "timed-out":
        return f"{seat} ran out of time: {winner} wins"
    if end.kind == "cancelled":
        return "cancelled by agreement: no result"
    if end.kind == "finished-by-stand-in":
        return f"{rules_words(result)}; the computer finished for {seat}"
    return rules_words(result)


def loser(end: GameEnd) -> Side | None:
    """Who lost: the other of the winner (None: cancelled)."""
    return end.winner.other if end.winner is not None else None
