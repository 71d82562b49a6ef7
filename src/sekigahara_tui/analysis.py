"""Analysis of a finished game (issue 25, section 3): each side's chance to
win at each half-turn, the five largest swings, and a plot by week.

Only a finished game is analysed: the analysis looks at the whole state
(every hidden block and card), which is fair once the game is over and would
tell a side what it may not know while it goes on (R55). A game in progress is
refused in one line.

A half-turn is one player's Movement and Combat Phases (6.4: a, b of turn A
are the first player's half of it). At the start of each, the chance that
Ishida wins is the share of `playouts` games played on from that very state
by level 1 on both sides, with a little noise (bots/planner.py's play_out),
to the end of the week, there judged by the planner's evaluation (VP,
strength, cards, the great leaders' safety) made a chance (see `chance`).
Not to the end of the game: in our trials level 1 against itself won as
Ishida from nearly every half-turn, which said 100% all along; and a week
costs far less.
Each of the five largest changes of that chance between two half-turns is
explained at its first decision where level 2 (bots/hints.py, from the mover's
own view and log, as it would have played) chooses otherwise than the player
did: both commands, and the chance after each, by as many playouts. Every
playout has its seed from the analysis's seed, the half-turn and its number,
and level 2 plays a fixed number of playouts a decision, so a record and a
seed give the same analysis on any machine, loaded or not.
"""

from __future__ import annotations

import math
import random
from typing import Sequence

from attrs import frozen

from rules.engine import apply_trusted
from rules.infra.record import GameRecord, ended_state, replay_steps
from rules.sides import BOTH_SIDES, Side
from rules.state import GameState, Phase
from rules.surface import command_label
from rules.victory import end_outside_rules
from rules.view import view
from sekigahara_tui.bots.heuristic import HeuristicBot
from sekigahara_tui.bots.hints import hint_for
from sekigahara_tui.bots.planner import evaluate, play_out
from sekigahara_tui.labels import side_name
from sekigahara_tui.week_plots import week_plots, weekly_figures

PLAYOUTS = 8  # games played on from each half-turn (the default --budget)
LAST_WEEK = 7  # the game ends after week 7 (6.4)
SPREAD = 1.5  # evaluation points (about VP) of a lead worth 73% with no week left; more a week left
SWINGS = 5
LOOKS = 3  # decisions of a swing's half-turn that level 2 is asked about, at most
PLAYED_SHOWN = 4  # commands of a half-turn listed as what was played


class AnalysisRefused(Exception):
    """A record that cannot be analysed (a game in progress); one line."""


@frozen
class Point:
    step: int  # commands played before it
    week: int
    turn: str
    mover: Side
    chance: float  # Ishida's chance to win


@frozen
class Swing:
    before: Point
    after: float  # Ishida's chance at the next half-turn (or the result)
    played: str  # the mover's commands in the half-turn, in words
    at: str  # the decision level 2 was asked about, in words ("" if none)
    chosen: str  # what the player chose there
    computer: str  # what level 2 would have played ("" if it agreed throughout)
    chance_chosen: float | None
    chance_computer: float | None


@frozen
class Analysis:
    seed: int
    playouts: int
    winner: Side | None
    cause: str
    points: tuple[Point, ...]
    swings: tuple[Swing, ...]
    plots: str


def chance(state: GameState, playouts: int, key: str) -> float:
    """Ishida's chance to win from `state`: the mean over `playouts` games
    played on by level 1 to the end of the week (or of the game: then it is
    won or lost) of the planner's evaluation there, made a chance by a
    logistic whose spread grows with the weeks still to play (a lead at the
    end of week 2 decides less than one at the end of week 6)."""
    if state.is_over:
        return _won(state)
    total = 0.0
    for j in range(playouts):
        noise = random.Random(f"analysis/{key}/{j}")
        bots = {side: HeuristicBot(side, noise.randrange(2**31)) for side in BOTH_SIDES}
        end = play_out(state, bots, noise, state.week)
        if end.is_over:
            total += _won(end)
        else:
            spread = SPREAD * (1 + max(0, LAST_WEEK + 1 - end.week))
            total += 1 / (1 + math.exp(-evaluate(end, Side.ISHIDA) / spread))
    return total / playouts


def _won(state: GameState) -> float:
    if state.result is None or state.result.winner is None:
        return 0.5
    return 1.0 if state.result.winner is Side.ISHIDA else 0.0


def analyse(record: GameRecord, playouts: int = PLAYOUTS, seed: int = 0, ended: tuple[Side | None, str] | None = None) -> Analysis:
    """The analysis of a finished game's record; AnalysisRefused for a game in progress.
    `ended`: (winner, cause) of a club game ended outside the rules (a
    resignation, a time-out: hosting/results.py), which its record of commands
    does not hold; the club gives a record only once the game is over."""
    if playouts < 1:
        raise AnalysisRefused("the budget must be at least one playout a half-turn")
    steps = list(replay_steps(record))  # a bad record raises RecordError, naming the command
    final = ended_state(record, steps[-1][1])  # an exported club game's end (issue 25)
    if ended is not None and not final.is_over:
        final = end_outside_rules(final, *ended)  # ValueError for a cause that is not one
    if not final.is_over:
        raise AnalysisRefused("the game is still in progress: only a finished game is analysed "
                              "(the analysis sees every hidden block and card)")
    logs: list[dict[Side, int]] = []  # each step: how many events each side had seen by then
    seen = {side: 0 for side in BOTH_SIDES}
    events: dict[Side, list] = {side: [] for side in BOTH_SIDES}
    for _, _, new in steps:
        for side in BOTH_SIDES:
            events[side] += [e for e in new if side in e.visible_to()]
            seen[side] = len(events[side])
        logs.append(dict(seen))
    starts = half_turns(steps)
    points = []
    for i in starts:
        state = steps[i][1]
        points.append(Point(i, state.week, state.turn.value, state.active, chance(state, playouts, f"{seed}/{i}")))
    after = [p.chance for p in points[1:]] + [_won(final)]
    ends = [p.step for p in points[1:]] + [len(steps) - 1]
    moved = [n for n in range(len(points)) if round(100 * after[n]) != round(100 * points[n].chance)]
    order = sorted(moved, key=lambda n: (-abs(after[n] - points[n].chance), n))[:SWINGS]
    swings = []
    for n in order:
        swings.append(_swing(steps, events, logs, points[n], after[n], ends[n], playouts, seed))
    figures = weekly_figures(events[Side.ISHIDA], final.week)
    by_week = [round(100 * next((p.chance for p in points if p.week == w), _won(final))) for w in range(1, final.week + 1)]
    figures["chance:ishida"], figures["chance:tokugawa"] = by_week, [100 - c for c in by_week]
    result = final.result
    return Analysis(seed, playouts, result.winner, result.cause, tuple(points), tuple(swings), week_plots(figures))


def half_turns(steps: Sequence) -> list[int]:
    """The steps at which a half-turn begins: a player's Movement Phase (6.4)."""
    starts, last = [], None
    for i, (_, state, _) in enumerate(steps):
        key = (state.week, state.turn, state.active)
        if state.phase is Phase.MOVEMENT and not state.is_over and key != last:
            starts.append(i)
            last = key
    return starts


def _swing(steps, events, logs, point: Point, after: float, end: int, playouts: int, seed: int) -> Swing:
    mover = point.mover
    mine = [i for i in range(point.step, end) if steps[i + 1][0] is not None and steps[i + 1][0].side is mover]
    played = [command_label(steps[i + 1][0]) for i in mine]
    shown = "; ".join(played[:PLAYED_SHOWN]) + (f"; and {len(played) - PLAYED_SHOWN} more" if len(played) > PLAYED_SHOWN else "")
    looked = 0
    first_at = None
    for i in mine:
        state = steps[i][1]
        seat = view(state, mover)
        if len(seat.legal) < 2:
            continue
        looked += 1
        chosen = steps[i + 1][0]
        first_at = first_at or (i, chosen)
        hint = hint_for(mover, seed, 0.0, seat, events[mover][: logs[i][mover]], fixed_playouts=2)
        computer = next(c for c in seat.legal if _same(c, hint.notation))
        if computer != chosen:
            key = f"{seed}/{i}"
            return Swing(point, after, shown, seat.prompt, command_label(chosen, seat), command_label(computer, seat),
                         chance(steps[i + 1][1], playouts, key + "/played"),
                         chance(apply_trusted(state, computer)[0], playouts, key + "/computer"))
        if looked >= LOOKS:
            break
    at = command_label(first_at[1]) if first_at else ""
    return Swing(point, after, shown, "", at, "", None, None)


def _same(command, notation: str) -> bool:
    from rules.notation import format_command

    return format_command(command) == notation


def report(analysis: Analysis, title: str = "") -> str:
    """The analysis as text: the chance at each half-turn, the swings, the plots by week."""
    pct = lambda p: f"{round(100 * p)}%"  # noqa: E731
    winner = side_name(analysis.winner) if analysis.winner else "nobody"
    lines = [f"Analysis{' of ' + title if title else ''}: {winner} won ({analysis.cause}); "
             f"{analysis.playouts} playouts a half-turn, seed {analysis.seed}.",
             "Ishida's chance to win as each half-turn began (level 1 playing on from there, everything revealed):"]
    for week in sorted({p.week for p in analysis.points}):
        lines.append(f"  week {week}: " + ", ".join(
            f"{p.turn} {side_name(p.mover)} {pct(p.chance)}" for p in analysis.points if p.week == week))
    lines += ["", f"The {len(analysis.swings)} largest swings:" if analysis.swings else "No swing."]
    for n, s in enumerate(analysis.swings, start=1):
        lines.append(f"{n}. Week {s.before.week} turn {s.before.turn}, {side_name(s.before.mover)}'s half-turn: "
                     f"Ishida {pct(s.before.chance)} -> {pct(s.after)}")
        lines.append(f"   played: {s.played or 'nothing'}")
        if s.computer:
            lines.append(f"   at \"{s.at}\": played {s.chosen}, Ishida's chance after it {pct(s.chance_chosen)}")
            lines.append(f"   level 2 would have played {s.computer}, Ishida's chance after it {pct(s.chance_computer)}")
        elif s.chosen:
            lines.append(f"   level 2 would have chosen as played at the half-turn's first decisions ({s.chosen}, ...)")
    lines += ["", analysis.plots]
    return "\n".join(lines)


def analysis_text(request: tuple) -> str:
    """In a worker (the game over screen's `a`): the report for (record JSON,
    playouts, seed[, (winner, cause) of an end outside the rules])."""
    from rules.infra.record import record_from_json

    text, playouts, seed, *ended = request
    return report(analyse(record_from_json(text), playouts, seed, ended[0] if ended else None))
