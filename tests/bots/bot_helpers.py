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
