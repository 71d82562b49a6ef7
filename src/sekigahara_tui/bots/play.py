"""A local game between two bots, with the engine as the referee.

The referee holds the GameState; each bot gets only `view(state, side)` and
the events visible to its side (R55). This module owns a whole game, so it
reaches the engine; the bots themselves import only the client surface.
"""

from __future__ import annotations

import time
import traceback
from typing import Callable

from attrs import field, frozen

from rules.engine import apply, apply_trusted, start_game
from rules.errors import IllegalCommand
from rules.infra.record import GameRecord, new_record
from rules.sides import BOTH_SIDES, Side
from rules.view import view
from sekigahara_tui.bots.base import Bot
from sekigahara_tui.bots.driver import BotPlayer, level_player

MAX_DECISIONS = 20_000


@frozen
class GameOutcome:
    seed: int
    levels: dict  # side value -> level name
    winner: Side | None  # None: the game did not finish (a crash, an illegal command, no end)
    cause: str  # "vp", an instant-victory cause, or what went wrong
    vp: tuple[int, int] | None
    decisions: int
    times: dict = field(factory=dict)  # side value -> list of seconds per decision
    illegal: tuple[str, ...] = ()  # "side: command: reason"
    crash: str | None = None  # the traceback of a bot that raised
    record: GameRecord | None = None
    state: object = None  # the referee's final GameState


def _events_for(side: Side, events) -> list:
    return [event for event in events if side in event.visible_to()]


def play_game(
    seed: int,
    ishida: str | Bot,
    tokugawa: str | Bot,
    *,
    budget_s: float = 2.0,
    bot_seed: int | None = None,
    max_decisions: int = MAX_DECISIONS,
    on_decision: Callable[[Side, object, object], None] | None = None,
) -> GameOutcome:
    """Play one game from `start_game(seed)`. A level name builds a bot seeded
    with `bot_seed` (default: the game's seed). A bot's illegal command or
    exception ends the game with no winner; the outcome says which.
    `on_decision(side, view, command)` sees every decision (tests use it).
    Each bot is driven by a BotPlayer (bots/driver.py) fed from its side's
    log, which here only grows (no undo between bots)."""
    chosen_seed = seed if bot_seed is None else bot_seed
    players: dict[Side, BotPlayer] = {}
    levels: dict[str, str] = {}
    for side, player in zip(BOTH_SIDES, (ishida, tokugawa)):
        if isinstance(player, str):
            players[side] = level_player(player, side, chosen_seed, budget_s=budget_s)
        else:
            players[side] = BotPlayer(lambda bot=player: bot, budget_s=budget_s)
        levels[side.value] = player if isinstance(player, str) else type(player).__name__
    state, events = start_game(seed)
    record = new_record(seed)
    logs: dict[Side, list] = {side: _events_for(side, events) for side in BOTH_SIDES}
    for side, player in players.items():
        player.feed(logs[side])
    times: dict[str, list[float]] = {side.value: [] for side in BOTH_SIDES}
    decisions = 0

    def unfinished(cause: str, illegal: tuple[str, ...] = (), crash: str | None = None) -> GameOutcome:
        return GameOutcome(seed, levels, None, cause, None, decisions, times, illegal, crash, record, state)

    while not state.is_over:
        if decisions >= max_decisions:
            return unfinished(f"no end after {max_decisions} decisions")
        side = sorted(state.decision.sides)[0]
        seen = view(state, side)
        if not seen.legal:
            return unfinished(f"{side.value} must decide but has no legal command")
        started = time.perf_counter()
        try:
            command = players[side].choose(seen, logs[side])
        except Exception:
            return unfinished(f"{side.value} crashed", crash=traceback.format_exc())
        times[side.value].append(time.perf_counter() - started)
        if on_decision is not None:
            on_decision(side, seen, command)
        try:
            if command in seen.legal:
                state, events = apply_trusted(state, command)
            else:
                state, events = apply(state, command)
        except IllegalCommand as error:
            return unfinished(f"{side.value} gave an illegal command", illegal=(f"{side.value}: {command}: {error}",))
        except Exception:
            return unfinished(f"{side.value}'s command broke the engine", crash=traceback.format_exc())
        record = record.with_command(command)
        decisions += 1
        for each, player in players.items():
            logs[each] += _events_for(each, events)
            player.feed(logs[each])  # as they happen, as `observe` asks
    result = state.result
    assert result is not None
    vp = (result.vp.ishida, result.vp.tokugawa) if result.vp is not None else None
    return GameOutcome(seed, levels, result.winner, result.cause, vp, decisions, times, (), None, record, state)
