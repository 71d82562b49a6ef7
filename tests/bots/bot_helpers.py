"""Driving bots over hand-built positions: the test is the referee."""

from __future__ import annotations

from rules.engine import apply, apply_trusted, start_game
from rules.infra.position import load_position
from rules.sides import BOTH_SIDES, Side
from rules.view import view
from sekigahara_tui.bots.base import make_bot
from sekigahara_tui.bots.heuristic import HeuristicBot


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


KUWANA_BATTLE = """
[game]
week = 3
phase = "combat"
first_player = "tokugawa"
active = "tokugawa"
combats = ["kuwana"]

[blocks]
osaka = ["ishida-leader"]
mori_box = ["mori-leader", "mori-3-1", "mori-3-2", "mori-3-3", "mori-3-4"]
kuwana = [{kuwana}]
edo = ["tokugawa-leader"]

[hands]
ishida = [{ishida}]
tokugawa = [{tokugawa}]

[control]
kyoto = "ishida"
edo = "tokugawa"
"""


def kuwana_battle(kuwana: list[str], ishida: list[str], tokugawa: list[str]):
    """Week 3, Tokugawa's Combat Phase: the blocks at Kuwana and both hands given,
    the combat there still to be declared (docs/positions.md)."""

    def quoted(names: list[str]) -> str:
        return ", ".join(f'"{name}"' for name in names)

    text = KUWANA_BATTLE.replace("{kuwana}", quoted(kuwana)).replace("{ishida}", quoted(ishida))
    return position(text.replace("{tokugawa}", quoted(tokugawa)))
def level_1_decisions(seed: int, limit: int = 900):
    """(state, side, level-1 bot of that side) at the decisions of a level-1 game."""
    state, events = start_game(seed)
    bots = {side: HeuristicBot(side, seed) for side in BOTH_SIDES}
    for side in BOTH_SIDES:
        bots[side].observe([e for e in events if side in e.visible_to()])
    for _ in range(limit):
        if state.is_over:
            return
        side = sorted(state.decision.sides)[0]
        yield state, side, bots[side]
        state, events = apply_trusted(state, bots[side].choose(view(state, side), 0.0))
        for each in BOTH_SIDES:
            bots[each].observe([e for e in events if each in e.visible_to()])
