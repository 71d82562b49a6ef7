"""Playing against the computer: one seat for the player, a bot for the other side.

A VersusTable is a hot-seat table (sekigahara_tui.local) with only the human's
seat in `seats`, so the game screen never hands the keyboard over. The bot
sits at the other side and is given only what that side may know (R55): the
side's view (`host.view(side)`) and the events visible to it
(`host.events_for(side)`). It thinks in a worker process (bots/workers.py, a
pool of one), so keys, the map and the log stay live while the planner
thinks for seconds (a thread would not do: the GIL); a worker that fails is
replaced by level 1 in this process. Given a bot factory (`make`, tests), it
thinks in a thread of this process instead, with a BotPlayer (bots/driver.py).
It answers in the app's event loop, one command at a time, `pace` seconds
apart, so the player can follow each move in the log and on the map; `skip()`
plays the bot's moves at once until the player must decide again. Saving and
the autosave are the record's, as in hot seat.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Callable

from rules.notation import parse_command
from rules.surface import Command, Side
from sekigahara_tui.bots.base import LEVELS, Bot
from sekigahara_tui.bots.driver import BotPlayer
from sekigahara_tui.bots.workers import (
    Decision,
    DecisionFailed,
    DecisionPool,
    SideLog,
    decision_seed,
    level_1_command,
    listed_command,
)
from sekigahara_tui.hosting.host import GameHost
from sekigahara_tui.local import LocalSeat, LocalTable
from sekigahara_tui.seat import Seat

PACE = 0.6  # seconds between the computer's commands
BUDGET = 2.0  # seconds the computer may think over one decision
GRACE = 30.0  # seconds beyond its budget before a worker's decision is given up (level 1 decides)


def open_saved(path: Path, autosave: Path | None = None) -> LocalTable:
    """A saved game as the table it was: against the computer if its record names
    one, else hot seat. A bad file raises RecordError, an unknown computer level
    ValueError, and neither touches the autosave."""
    host = GameHost.load(path)
    table = VersusTable.resume(host) if host.computer is not None else LocalTable(host)
    if autosave is not None:
        host.autosave_to(autosave)
    return table


def computer_of(computer: str | None) -> tuple[Side, str] | None:
    """The computer's side and level a record names, "tokugawa:heuristic" (None for hot seat)."""
    if computer is None:
        return None
    side, level = computer.split(":")  # its form was checked when the record was read (rules.infra.record)
    return Side(side), level


class VersusTable(LocalTable):
    """The player's seat and the computer's side over one GameHost."""

    def __init__(
        self,
        host: GameHost,
        human: Side,
        level: str,
        *,
        bot_seed: int | None = None,
        pace: float = PACE,
        budget_s: float = BUDGET,
        make: Callable[[str, Side, int], Bot] | None = None,
        pool: DecisionPool | None = None,
    ) -> None:
        super().__init__(host)
        self.human = human
        self.bot_side = human.other
        self.level = level
        self.skipping = False  # play the computer's moves at once until the player decides
        self._bot_seed = random.SystemRandom().randrange(2**31) if bot_seed is None else bot_seed
        self.seats = {human: LocalSeat(self, human)}
        seed = self._bot_seed
        self.budget_s = budget_s
        self.pace = pace  # seconds between the computer's commands; the screen may change it
        # A bot factory given (tests): a BotPlayer in this process; else a worker (start()).
        self.player = BotPlayer(lambda: make(level, self.bot_side, seed), budget_s=budget_s) if make is not None else None
        self.pool = pool
        self._log = SideLog()  # the bot side's log, pickled once (bots/workers.py)
        self._task: asyncio.Task | None = None
        self._wake = asyncio.Event()
        self._closed = False
        self.bot_commands = 0  # commands the computer has given

    @classmethod
    def new_game(cls, seed: int, human: Side, level: str, autosave: Path | None = None, **options) -> VersusTable:
        # The record names the computer's side and level, so that the autosave or
        # a save reopens as a game against the computer, not as hot seat.
        host = GameHost.new(seed, autosave=autosave, computer=f"{human.other.value}:{level}")
        return cls(host, human, level, **options)

    @classmethod
    def resume(cls, host: GameHost, **options) -> VersusTable:
        """A saved game against the computer, the computer back at its side. A
        fresh bot hears the whole log of its side before it decides (BotPlayer.feed)."""
        computer = computer_of(host.computer)
        if computer is None:
            raise ValueError("this save is not a game against the computer")
        bot_side, level = computer
        if level not in LEVELS:
            raise ValueError(f"the computer's level {level!r} is not one of {', '.join(LEVELS)}")
        return cls(host, bot_side.other, level, **options)

    @property
    def seat(self) -> LocalSeat:
        return self.seats[self.human]  # type: ignore[return-value]

    def first_seat(self) -> Seat:
        return self.seat

    # --- the table's life in the event loop ----------------------------------------

    def start(self) -> None:
        self._closed = False
        if self.player is None and (self.pool is None or self.pool.closed):
            self.pool = DecisionPool(1, quiet=True)
        if self.pool is not None:
            self.pool.start()  # the worker starts now, not at the computer's first decision
        self._schedule()

    def close(self) -> None:
        self._closed = True
        if self._task is not None:
            self._task.cancel()
            self._task = None
        if self.pool is not None:
            self.pool.close_soon()
        super().close()

    def changed(self) -> None:
        super().changed()
        self._schedule()

    def skip(self) -> None:
        """Skip ahead: the computer's moves at once until the player must decide."""
        self.skipping = True
        self._wake.set()

    def bot_to_act(self) -> bool:
        return not self.host.is_over and bool(self.host.view(self.bot_side).legal)

    def _schedule(self) -> None:
        if self._closed or (self._task is not None and not self._task.done()):
            return
        if not self.bot_to_act():
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # not in the app's loop yet: start() schedules
            return
        self._task = loop.create_task(self._bot_turns())

    async def _bot_turns(self) -> None:
        """The computer's commands, one every `pace` seconds, while it has any."""
        while not self._closed and self.bot_to_act():
            if not self.skipping and self.pace > 0:
                self._wake.clear()
                try:
                    await asyncio.wait_for(self._wake.wait(), self.pace)
                except asyncio.TimeoutError:
                    pass
            if self._closed:
                return
            before = self.changes
            seen = self.host.view(self.bot_side)
            if not seen.legal:
                break
            log = self.host.events_for(self.bot_side)
            command = await self._decide(seen, log)
            if self._closed:
                return
            if self.changes != before:  # the player moved meanwhile (a simultaneous decision): decide again
                continue
            self.play(command)
        self._task = None
        if self.seat.deciding() or self.host.is_over:
            self.skipping = False

    async def _decide(self, seen, log) -> Command:
        """The computer's command: from its worker (level 1 here if the worker
        fails or answers with a command that is not legal), or from the
        BotPlayer in a thread."""
        if self.player is not None:
            return await asyncio.to_thread(self.player.choose, seen, log)
        assert self.pool is not None
        seed = decision_seed(self._bot_seed, len(self.host.record.commands))
        decision = Decision(self.level, self.bot_side, seed, self.budget_s, seen, self._log.chunks_for(log))
        try:
            command = listed_command(await self.pool.decide(decision, self.budget_s + GRACE), self.bot_side, seen.legal)
        except DecisionFailed:
            command = None
        if command is None:
            command = parse_command(level_1_command(self.bot_side, seed, self.budget_s, seen, log), side=self.bot_side)
        return command

    def play(self, command) -> None:
        """Give the computer's command to the host and show it to the player."""
        self.host.submit(command)  # the command is from the bot's view's legal list; the host checks it again
        self.bot_commands += 1
        self.changed()
        if self.seat.deciding():
            self.skipping = False

    def default_save_name(self) -> str:
        # By the time of saving, like hot seat: the seed would tell the computer's cards.
        return super().default_save_name().removesuffix(".json") + f"-{self.human.value}-vs-{self.level}.json"
