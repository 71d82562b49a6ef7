"""The club's computer seat: a seat played by "computer" at the level the
game was made with (issue 25: any level of bots/base.py's LEVELS), decided
in a worker process of the club's decision pool (bots/workers.py), so the
club's loop never waits for the computer to think. Its command takes the
game server's commit path like a client's: stored first, then applied and told.

A worker is given the seat's view and its side's log only (R55). A decision
that fails or takes too long is one line in the audit log, and level 1
decides in this process instead (a few milliseconds), so no game is stuck.

A subscriber of the game server (after each change, and when a game is
loaded, it looks whether the computer has a decision) and what the game
server asks who is present: the computer always sits in its seat.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import deque
from typing import TYPE_CHECKING, Callable

from rules.surface import BOTH_SIDES, Side, printable
from sekigahara_tui.bots.driver import BUDGET
from sekigahara_tui.bots.workers import (
    TIMES_KEPT,
    Decision,
    DecisionFailed,
    DecisionPool,
    SideLog,
    decision_seed,
    level_1_command,
    listed_command,
)
from sekigahara_tui.hosting.audit import AuditLog, NoAuditLog
from sekigahara_tui.hosting.catalog import Catalog
from sekigahara_tui.hosting.games import Change, HostedGame
from sekigahara_tui.hosting.members import COMPUTER
from sekigahara_tui.hosting.store import Action

if TYPE_CHECKING:
    from sekigahara_tui.hosting.game_server import GameServer

DEFAULT_LEVEL = "heuristic"  # level 1: the club's computer before issue 25
GRACE = 30.0  # seconds a decision may wait for a worker beyond its budget (other games' decisions queue)


class ComputerSeat:
    def __init__(
        self,
        catalog: Catalog,
        pool: DecisionPool,
        seed: int | None = None,
        *,
        level_of: Callable[[str], str | None] = lambda game_id: None,
        budget_s: float = BUDGET,
        grace_s: float = GRACE,
        audit: AuditLog | None = None,
    ) -> None:
        self.catalog = catalog
        self.pool = pool
        self.server: GameServer | None = None  # the game server it plays through (play_through)
        self.level_of = level_of  # the level the store holds for a game (None: level 1)
        self.budget_s = budget_s
        self.grace_s = grace_s
        self.audit = audit if audit is not None else NoAuditLog()
        self._seeds = random.Random(seed)
        self._pending: set[str] = set()  # games whose computer's decision is scheduled or under way
        self._levels: dict[str, str] = {}
        self._seat_seeds: dict[tuple[str, Side], int] = {}
        self._logs: dict[tuple[str, Side], SideLog] = {}
        self._tasks: set[asyncio.Task] = set()
        self.fallbacks = 0  # decisions level 1 made here because the worker's failed
        self.decision_times: deque[float] = deque(maxlen=TIMES_KEPT)  # seconds from asking a worker to its answer, waiting included (benchmarks)

    def play_through(self, server: GameServer) -> None:
        """The game server whose commit path its commands take (it is built
        with this seat among its subscribers, so it is given it afterwards)."""
        self.server = server

    def sits(self, game: HostedGame, side: Side) -> bool:
        """The computer is always at its seat (and at a seat it stands in for):
        a member playing it is not told the opponent is away."""
        return self.catalog.entries[game.id].players[side] == COMPUTER or game.stood_in is side

    def deciding(self, game_id: str) -> bool:
        """Whether the computer's decision in the game is scheduled or under way (it is not evicted then)."""
        return game_id in self._pending

    def level(self, game_id: str) -> str:
        level = self._levels.get(game_id)
        if level is None:
            level = self._levels[game_id] = self.level_of(game_id) or DEFAULT_LEVEL
        return level

    def set_level(self, game_id: str, level: str) -> None:
        """A new game's level (the store holds it too)."""
        self._levels[game_id] = level

    def forget(self, game_id: str) -> None:
        """The game left memory: a reloaded game's computer starts afresh."""
        self._pending.discard(game_id)
        self._levels.pop(game_id, None)
        for side in BOTH_SIDES:
            self._seat_seeds.pop((game_id, side), None)
            self._logs.pop((game_id, side), None)

    async def close(self) -> None:
        """Wait for the decisions under way (their commands are stored first), then stop the workers."""
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.pool.close()

    def _side(self, game: HostedGame) -> Side | None:
        entry = self.catalog.entries[game.id]
        for side in BOTH_SIDES:
            # a seat out of time it stands in for (game_clocks.py) plays from that seat's view only
            if (entry.players[side] == COMPUTER or game.stood_in is side) and side in game.host.state.decision.sides:
                return side
        return None

    def schedule(self, game: HostedGame) -> None:
        """Decide soon if the computer has a decision in the game."""
        if game.id in self._pending or game.host.is_over or self._side(game) is None:
            return
        self._pending.add(game.id)
        try:
            task = asyncio.get_running_loop().create_task(self._moves(game))
        except RuntimeError:  # no loop (a game loaded outside the server's loop)
            self._pending.discard(game.id)
            return
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _moves(self, game: HostedGame) -> None:
        """Decide in a worker without holding the game, then commit under the
        game's lock if the game is still where the decision saw it, or moved
        only by the member's secret choice in a simultaneous decision (R45:
        the decision knew all it may know); else decide again."""
        try:
            while True:
                if self.server is None or self.server.games.loaded.get(game.id) is not game or game.host.is_over:
                    return  # evicted (or withdrawn) meanwhile: it decides when next loaded
                side = self._side(game)
                if side is None:
                    return
                version = game.version
                text = await self._decide(game, side)
                async with game.changing:
                    if self.server.games.loaded.get(game.id) is not game or game.host.is_over:
                        return  # a resignation or a time-out ends a game without a new version
                    if game.version != version and not game.unseen_since(side, version):
                        continue  # the game moved on while the computer thought: look again
                    # (a member's secret choice meanwhile, R45, changes nothing it knew: its decision stands)
                    await self._commit(game, side, text)
                    return
        finally:
            self._pending.discard(game.id)
            if self.server is not None and self.server.games.loaded.get(game.id) is game:
                self.schedule(game)  # a next decision (the commit's change came while this one was pending)

    async def _decide(self, game: HostedGame, side: Side) -> str:
        """The command's notation from a worker; level 1 here if the worker fails."""
        view = game.host.view(side)
        log = game.host.events_for(side)
        seed = decision_seed(self._seat_seed(game.id, side), game.version)
        chunks = self._logs.setdefault((game.id, side), SideLog()).chunks_for(log)
        level = self.level(game.id)
        decision = Decision(level, side, seed, self.budget_s, view, chunks)
        started = time.perf_counter()
        try:
            text = await self.pool.decide(decision, self.budget_s + self.grace_s, tag=(game.id, game.version))
        except DecisionFailed as failure:
            return self._fallback(game, side, level, str(failure))
        self.decision_times.append(time.perf_counter() - started)
        return text

    def _fallback(self, game: HostedGame, side: Side, level: str, why: str) -> str:
        self.fallbacks += 1
        self.audit.record("computer-fallback", f"level {level} failed ({why}); level 1 decided here", front="club", game=game.id)
        return level_1_command(side, self._seat_seed(game.id, side), self.budget_s, game.host.view(side), game.host.events_for(side))

    async def _commit(self, game: HostedGame, side: Side, text: str) -> None:
        server = self.server
        assert server is not None
        legal = game.host.view(side).legal
        command = listed_command(text, side, legal)  # a worker's answer is checked like a client's
        if command is None:
            text = self._fallback(game, side, self.level(game.id), f"its command {printable(text, 80)!r} is not a legal one")
            command = listed_command(text, side, legal)
            assert command is not None  # level 1 chooses among the legal commands
        step = game.host.propose_listed(command)
        action = Action("command", side, text, None, time.time())

        def apply() -> None:
            game.host.accept(step)

        await server.commit(None, game, action, apply)  # a failure changes nothing; the next change tries again

    def _seat_seed(self, game_id: str, side: Side) -> int:
        """The seat's seed, drawn when the game first needs it."""
        key = (game_id, side)
        if key not in self._seat_seeds:
            self._seat_seeds[key] = self._seeds.randrange(2**31)
        return self._seat_seeds[key]

    # --- a subscriber of the game server ----------------------------------------------

    def game_changed(self, game: HostedGame, change: Change) -> None:
        self.schedule(game)

    def seat_joined(self, game: HostedGame, side: Side) -> None:
        pass  # the computer plays whether or not anyone is connected

    def seat_left(self, game: HostedGame, side: Side) -> None:
        pass
