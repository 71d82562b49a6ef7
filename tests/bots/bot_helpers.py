"""Driving bots over hand-built positions: the test is the referee."""

from __future__ import annotations

from rules.engine import apply
from rules.infra.position import load_position
from rules.sides import Side
from rules.view import view
from sekigahara_tui.bots.base import make_bot


def decide(state, side: Side, level: str = "heuristic", seed: int = 1, bot=None):
    """The command a fresh bot (or `bot`) of `side` gives at `state`."""
    bot = bot or make_bot(level, side, seed)
    command = bot.choose(view(state, side), 2.0)
    assert command in view(state, side).legal
    return command


def play_while(state, side: Side, keep_going, level: str = "heuristic", seed: int = 1, limit: int = 200):
    """Let a bot of `side` answer every decision while `keep_going(state)`;
    returns the state reached and the commands given."""
    bot = make_bot(level, side, seed)
    given = []
    while keep_going(state) and side in state.decision.sides and len(given) < limit:
        command = bot.choose(view(state, side), 2.0)
        state, events = apply(state, command)
        bot.observe([e for e in events if side in e.visible_to()])
        given.append(command)
    return state, given


def position(text: str):
    return load_position(text, source="test position")
