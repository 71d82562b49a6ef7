"""The club's computer seat: a seat played by "computer" is decided in the
club's process by the heuristic bot (issue 14), driven by the one bot driver
(net/bot.py's BotPlayer, made by bots/driver.py), through the game server's
commit path like a client's command: stored first, then applied and told.

A subscriber of the game server (after each change, and when a game is
loaded, it looks whether the computer has a decision) and what the game
server asks who is present: the computer always sits in its seat.
"""

from __future__ import annotations

import asyncio
import random
import time
from typing import TYPE_CHECKING

from rules.notation import format_command
from rules.surface import BOTH_SIDES, Side
from sekigahara_tui.bots.driver import BotPlayer, level_player
from sekigahara_tui.hosting.catalog import Catalog
from sekigahara_tui.hosting.games import Change, HostedGame
from sekigahara_tui.hosting.members import COMPUTER
from sekigahara_tui.hosting.store import Action

if TYPE_CHECKING:
    from sekigahara_tui.hosting.game_server import GameServer


class ComputerSeat:
    def __init__(self, catalog: Catalog, seed: int | None = None) -> None:
        self.catalog = catalog
        self.server: GameServer | None = None  # the game server it plays through (play_through)
        self._seeds = random.Random(seed)
        self._pending: set[str] = set()  # games whose computer's decision is scheduled
        self._players: dict[tuple[str, Side], BotPlayer] = {}
        self._tasks: set[asyncio.Task] = set()

    def play_through(self, server: GameServer) -> None:
        """The game server whose commit path its commands take (it is built
        with this seat among its subscribers, so it is given it afterwards)."""
        self.server = server

    def sits(self, game: HostedGame, side: Side) -> bool:
        """The computer plays in this process: its seat is never empty, so a
        member playing it is not told the opponent is away."""
        return self.catalog.entries[game.id].players[side] == COMPUTER or game.stood_in is side

    def deciding(self, game_id: str) -> bool:
        """Whether the computer's decision in the game is scheduled (it is not evicted then)."""
        return game_id in self._pending

    def forget(self, game_id: str) -> None:
        """The game left memory: a reloaded game's computer starts afresh."""
        self._pending.discard(game_id)
        for side in BOTH_SIDES:
            self._players.pop((game_id, side), None)

    async def close(self) -> None:
        """Wait for the decisions under way: their commands are stored first."""
        await asyncio.gather(*self._tasks, return_exceptions=True)

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
            task = asyncio.get_running_loop().create_task(self._moves(game, game.version))
        except RuntimeError:  # no loop (a game loaded outside the server's loop)
            self._pending.discard(game.id)
            return
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _moves(self, game: HostedGame, version: int) -> None:
        """The computer's seat decides with the heuristic bot among its legal commands,
        committed before the game changes, like a client's command."""
        server = self.server
        assert server is not None
        async with game.changing:
            self._pending.discard(game.id)
            if server.games.loaded.get(game.id) is not game:
                return  # evicted (or withdrawn) meanwhile: it decides when next loaded
            side = self._side(game)
            if side is None or game.version != version:
                self.schedule(game)  # the game moved on: look again
                return
            seen = game.host.view(side)
            if not seen.legal:
                return
            command = self._player(game, side).choose(seen, game.host.events_for(side))
            step = game.host.propose(command)
            action = Action("command", side, format_command(command), None, time.time())

            def apply() -> None:
                game.host.accept(step)

            await server.commit(None, game, action, apply)  # a failure changes nothing; the next change tries again

    def _player(self, game: HostedGame, side: Side) -> BotPlayer:
        """The heuristic bot (issue 14) of this game's computer seat, driven by a
        BotPlayer (bots/driver.py) fed from its side's log (R55: its own side's
        events only); its seed is drawn when the game first needs it."""
        key = (game.id, side)
        player = self._players.get(key)
        if player is None:
            player = self._players[key] = level_player("heuristic", side, self._seeds.randrange(2**31))
        return player

    # --- a subscriber of the game server ----------------------------------------------

    def game_changed(self, game: HostedGame, change: Change) -> None:
        self.schedule(game)

    def seat_joined(self, game: HostedGame, side: Side) -> None:
        pass  # the computer plays whether or not anyone is connected

    def seat_left(self, game: HostedGame, side: Side) -> None:
        pass
