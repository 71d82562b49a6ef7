"""Hints (issue 25, section 3): what level 2 would do now, and why, in one line.

A hint is worked out like the computer's own decisions (bots/workers.py): a
fresh planner of the side, fed the side's log, chooses from the side's view
(R55: `view(state, side)` and `events_for(side)`, never the state; the
no-cheat tests in tests/bots/test_hints.py). Its reason is what the planner
did: kept or overturned level 1's rule of thumb after its playouts (with
their scores), or level 1's rule of thumb alone where the planner does not
look ahead. In the app it runs in a worker process (`explain`), so the
screen stays live while it thinks.
"""

from __future__ import annotations

import pickle
from typing import Sequence

from attrs import frozen

from rules.notation import format_command
from rules.surface import DecisionKind, Event, PlayerView, Side
from sekigahara_tui.bots.base import make_bot
from sekigahara_tui.bots.driver import BotPlayer

HINT_LEVEL = "planner"  # level 2

# Level 1's rule of thumb for each kind of decision (bots/heuristic.py), as a hint says it.
THUMBS: dict[DecisionKind, str] = {
    DecisionKind.REINFORCEMENT_DISCARD: "discard the least useful card (plain cards of daimyo with few blocks on the map first)",
    DecisionKind.BID: "bid the least useful card",
    DecisionKind.CHOOSE_FIRST_PLAYER: "the winner of the bid moves first",
    DecisionKind.CHOOSE_MOVEMENT: "buy as many stack moves as there are useful ones (7.1)",
    DecisionKind.EXCHANGE_CARDS: "exchange cards of little use, at most three",
    DecisionKind.MOVE: "keep a guard with the great leader, raid what is undefended, attack only well outnumbering",
    DecisionKind.STACK_MOVE: "follow the stack's plan: march on its target, leaving its guard behind",
    DecisionKind.DECLARE_COMBAT: "fight first where you outnumber the enemy most",
    DecisionKind.CASTLE_CHOICE: "stay inside the castle unless you outnumber the enemy well",
    DecisionKind.DEPLOY: "deploy the play with the most Impact without risking the great leader (8.3.3, 8.4.1)",
    DecisionKind.CHALLENGE: "challenge when the enemy is unlikely to refute and much Impact is at stake (R48)",
    DecisionKind.CASUALTY: "lose the weakest blocks, never the great leader first",
    DecisionKind.RETREAT: "retreat toward friends and away from the enemy",
}


@frozen
class Hint:
    notation: str  # the command, with its side
    reason: str  # one line


def _label(command) -> str:
    from rules.surface import command_label

    return command_label(command)


def reason_of(bot, view: PlayerView, chosen) -> str:
    """One line: why the planner `bot` chose `chosen` at `view` (its last search, if it searched now)."""
    if len(view.legal) == 1:
        return "it is the only legal command"
    thumb = THUMBS.get(view.decision.kind, "level 1's rule of thumb")
    last = getattr(bot, "last", None)
    if not last:
        return f"rule of thumb: {thumb}"
    candidates, pulls, means = last["candidates"], last["playouts"], last["means"]
    playouts = sum(pulls)
    if chosen not in candidates:
        return f"rule of thumb: {thumb}"
    best = candidates.index(chosen)
    others = [i for i in range(len(candidates)) if i != best and pulls[i]]
    if best == 0:
        line = f"rule of thumb ({thumb}), kept after {playouts} playouts of {len(candidates)} choices"
        if others:
            runner = max(others, key=lambda i: means[i])
            line += f": {means[0]:+.1f} against {means[runner]:+.1f} for the next best, {_label(candidates[runner])}"
        return line
    return (f"{playouts} playouts to the week's end score it {means[best]:+.1f} "
            f"against {means[0]:+.1f} for the rule of thumb's {_label(candidates[0])}")


def hint_for(side: Side, seed: int, budget_s: float, view: PlayerView, log: Sequence[Event],
             fixed_playouts: int | None = None) -> Hint:
    """Level 2's command at `view` after the side's `log`, and its reason.
    `fixed_playouts` (tests): playouts that do not depend on the clock."""
    bot = make_bot(HINT_LEVEL, side, seed)
    if fixed_playouts is not None:
        bot.fixed_playouts = fixed_playouts
    player = BotPlayer(lambda: bot, budget_s=budget_s)
    player.feed(log)
    bot.last = None  # only this decision's search explains it
    command = player.choose(view, log)
    return Hint(format_command(command), reason_of(bot, view, command))


def explain(data: bytes) -> tuple[str, str]:
    """In a worker: the hint for a pickled bots.workers.Decision (its level is level 2)."""
    from sekigahara_tui.bots.workers import Decision, log_of

    decision: Decision = pickle.loads(data)
    hint = hint_for(decision.side, decision.seed, decision.budget_s, decision.view, log_of(decision))
    return hint.notation, hint.reason
