"""The club's game clocks at work (issue 24): a subscriber of the game
server that keeps each clocked game's clocks (clocks.py), stamps them on each
action before it is stored (store.py, in the action's transaction), tells
the seats, and ends a game whose side ran out of time.

After each change the decision is applied (`Clocks.decision`): a side
handed the decision gains the increment once a hand-over, not once a step.
An undo hands the decision back with no increment (else moving and undoing
would farm time). The earliest time a clock can run out is one timer
(loop.call_at); when it fires the clocks are looked at again (a vacation or
down time may have stopped one) and a side out of time loses
(results.end_outside_rules, "timed-out") or, if the game said so at its
creation, the computer stands in for it (computer_seat.py plays a side whose
`game.stood_in` it is; the rules' end is then stored as finished-by-stand-in).

A clock that drops below a day (below a tenth of its start for a preset
that starts at a day or less: live, daily) gives its member one `clock-low` notice
(`tell_low`: game_notices.py); once a drop: it is told again only after an
increment took it back above and it dropped again. The same timer wakes for
the drop. A clock found low when its game is loaded (a restart) is taken as
told already.

Charged to nobody: the server's down time (clock_store.py's heartbeat) and,
on correspondence clocks, a member's vacation.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Callable

from attrs import evolve

from rules.surface import BOTH_SIDES, Side
from sekigahara_tui.club.protocol import ClockLine
from sekigahara_tui.club.protocol import encode as club_encode
from sekigahara_tui.hosting.audit import AuditLog, NoAuditLog
from sekigahara_tui.hosting.clock_store import ClockedGame, ClockStore
from sekigahara_tui.hosting.clocks import Clocks, ClockPreset, Interval
from sekigahara_tui.durations import duration
from sekigahara_tui.hosting.games import Change, HostedGame
from sekigahara_tui.hosting.members import COMPUTER
from sekigahara_tui.hosting.store import Action

if TYPE_CHECKING:
    from sekigahara_tui.hosting.computer_seat import ComputerSeat
    from sekigahara_tui.hosting.results import Results
    from sekigahara_tui.hosting.store_games import StoreGames

BEAT_EVERY = 1.0  # seconds: the server's down time is known to this
DAY = 86400.0
LOW_SHARE = 0.1  # of a live clock's start


def low_below(preset: ClockPreset) -> float:
    """The seconds left under which a clock is low: a day; a tenth of its start
    for a clock that starts at a day or less (live; and daily, else low from its
    first second)."""
    return DAY if preset.initial_s > DAY else LOW_SHARE * preset.initial_s


def clock_words(line: ClockLine) -> str:
    """Both clocks in a notice: 'Ishida 20h 5m (running) · Tokugawa 2d 3h'."""
    return " · ".join(f"{side.value.capitalize()} {duration(left)}" + (" (running)" if side in line.running else "")
                      for side, left in zip(BOTH_SIDES, line.left))


class GameClocks:
    def __init__(
        self, clock_store: ClockStore, games: StoreGames, results: Results, computer: ComputerSeat,
        audit: AuditLog | NoAuditLog = NoAuditLog(), now: Callable[[], float] = time.time,
    ) -> None:
        self.store = clock_store
        self.games = games
        self.results = results
        self.computer = computer
        self.audit = audit
        self.now = now
        self.clocks: dict[str, Clocks] = {}  # game id -> its clocks after its last change
        self.kept: dict[str, ClockedGame] = {}  # game id -> its players, on_time_out, stood_in
        self._stamped: dict[str, Clocks] = {}  # game id -> its clocks as stored with the action being committed
        self._down: list[Interval] = []
        self._vacations: dict[str, list[Interval]] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._beating: asyncio.Task | None = None
        self._ending: set[asyncio.Task] = set()
        self.low: dict[str, set[Side]] = {}  # game id -> sides whose clock is low and were told (or found so)
        # (game, side, both clocks in words): tell the side's member their clock is low
        self.tell_low: Callable[[HostedGame, Side, str], None] = lambda game, side, words: None

    # --- starting ------------------------------------------------------------------

    def start(self) -> None:
        """At the server's start: the down time since the last heartbeat is
        charged to nobody; every clocked game in play is loaded once (who
        decides comes from its replay) and the timer set; the heartbeat begins."""
        self.store.note_start(self.now())
        self.reread()
        for kept in list(self.kept.values()):
            self.games.find(kept.id)  # on_load: game_loaded
        self._schedule()
        self._beating = asyncio.get_running_loop().create_task(self._beat())

    def reread(self) -> None:
        self._down = self.store.down_times()
        self._vacations = self.store.all_vacations()
        self.kept = {kept.id: kept for kept in self.store.clocked_games()}

    async def _beat(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            try:
                await loop.run_in_executor(None, self.store.beat, self.now())
            except Exception as error:  # noqa: BLE001 - a missed beat only widens the next down time
                self.audit.record("clock-beat-failed", str(error)[:200])
            await asyncio.sleep(BEAT_EVERY)

    async def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if self._beating is not None:
            self._beating.cancel()
            await asyncio.gather(self._beating, return_exceptions=True)
        await asyncio.gather(*self._ending, return_exceptions=True)
        self.store.close()

    def started(self, game_id: str) -> None:
        """A game's second seat was taken: its clock (if it has one) started in that transaction."""
        kept = self.store.clocked_game(game_id)
        if kept is None:
            return
        self.kept[game_id] = kept
        game = self.games.loaded.get(game_id)
        if game is not None:
            self.game_loaded(game)
            self.tell(game)
        else:
            self.games.find(game_id)  # on_load: game_loaded

    def game_loaded(self, game: HostedGame) -> None:
        """A game comes into memory: its clocks from the store's row and its replayed decision."""
        kept = self.kept.get(game.id)
        if kept is None and game.id not in self.clocks:
            kept = self.store.clocked_game(game.id)  # started since (its second seat taken)
            if kept is not None:
                self.kept[game.id] = kept
        if kept is None or game.host.is_over:
            return
        game.stood_in = kept.stood_in
        if game.id not in self.clocks:
            self.clocks[game.id] = self._handed(kept.clocks, game, undo=bool(game.actions) and game.actions[-1].kind == "undo")
            self.low[game.id] = set(self._low_sides(game.id, self.now()))  # told before a restart, or as good as
        self._schedule()

    # --- what is charged -------------------------------------------------------------

    def excluded(self, game_id: str) -> dict[Side, list[Interval]]:
        kept = self.kept.get(game_id)
        clocks = self.clocks.get(game_id)
        out: dict[Side, list[Interval]] = {side: list(self._down) for side in BOTH_SIDES}
        if kept is not None and clocks is not None and clocks.preset.correspondence:
            for side, member in zip(BOTH_SIDES, kept.players):
                out[side] += self._vacations.get(member or "", [])
        return out

    def vacation_taken(self, member: str) -> list[str]:
        """`member` declared days away (vacations.py): their games' clocks stop
        for them from its start; both seats of each are told at once, and the
        timer is set again. The ids of their clocked games in memory."""
        self._vacations = self.store.all_vacations()
        told = []
        for game_id, kept in list(self.kept.items()):
            game = self.games.loaded.get(game_id)
            if member in kept.players and game is not None:
                self.tell(game)
                told.append(game_id)
        self._schedule()
        return told

    def on_vacation_until(self, member: str | None, now: float) -> float | None:
        return next((b for a, b in self._vacations.get(member or "", []) if a <= now < b), None)

    def _handed(self, before: Clocks, game: HostedGame, undo: bool) -> Clocks:
        sides = frozenset() if game.host.is_over else frozenset(game.host.state.decision.sides)
        if undo:  # handed back, no increment
            return evolve(before, running=sides)
        return before.decision(sides, before.since)

    def stamp(self, game: HostedGame, action: Action) -> Action:
        """The action with its game's clocks charged to its time (stored with it)."""
        clocks = self.clocks.get(game.id)
        if clocks is None:
            return action
        # charged to this clock's now (the game's lock is held until the change is told)
        self._stamped[game.id] = charged = clocks.at(self.now(), self.excluded(game.id))
        return evolve(action, clock=charged)

    # --- a subscriber of the game server ---------------------------------------------

    def game_changed(self, game: HostedGame, change: Change) -> None:
        clocks = self.clocks.get(game.id)
        if clocks is None:
            return
        if game.host.is_over:
            self._stamped.pop(game.id, None)
            self.clocks.pop(game.id, None)
            self.kept.pop(game.id, None)
            self.low.pop(game.id, None)
        elif change.action is not None:
            charged = self._stamped.pop(game.id, None) or clocks.at(self.now(), self.excluded(game.id))
            self.clocks[game.id] = self._handed(charged, game, undo=change.action.kind == "undo")
            self._look_low(game, self.now())
        self.tell(game)
        self._schedule()

    def seat_joined(self, game: HostedGame, side: Side) -> None:
        self._vacations = self.store.all_vacations()
        connection = game.connections.get(side)
        line = self.line(game)
        if connection is not None and line is not None:
            connection.send_line(club_encode(line))

    def seat_left(self, game: HostedGame, side: Side) -> None:
        pass

    def line(self, game: HostedGame) -> ClockLine | None:
        """Both clocks, as every seat sees them (public: R55 hides nothing of time)."""
        return self.line_of(game.id, game.stood_in)

    def words_of(self, game_id: str) -> str | None:
        """Both clocks in a notice's words (clock_words); None: the game has no clock."""
        line = self.line_of(game_id)
        return clock_words(line) if line is not None else None

    def ticking(self, game_id: str) -> bool:
        """Whether the game is in play with a clock (kept here after its eviction: its time-out loads it)."""
        return game_id in self.clocks

    def line_of(self, game_id: str, stood_in: Side | None = None) -> ClockLine | None:
        """The same for a game by its id (the lobby's lines): the stand-in as kept."""
        clocks = self.clocks.get(game_id)
        if clocks is None:
            return None
        now = self.now()
        left = clocks.at(now, self.excluded(game_id)).left_s
        kept = self.kept.get(game_id)
        stood_in = stood_in or (kept.stood_in if kept is not None else None)
        players = kept.players if kept is not None else (None, None)
        away = tuple(self.on_vacation_until(member, now) if clocks.preset.correspondence else None for member in players)
        running = tuple(side for side in BOTH_SIDES if side in clocks.running)
        return ClockLine(clocks.preset.name, (max(0.0, left[0]), max(0.0, left[1])), running, away, stood_in)

    def tell(self, game: HostedGame) -> None:
        line = self.line(game)
        if line is None:
            return
        for connection in list(game.connections.values()):
            connection.send_line(club_encode(line))

    # --- running out -------------------------------------------------------------------

    def _schedule(self) -> None:
        """One timer, for the earliest a clock can run out given what is excluded so far
        (a vacation begun later is seen when it fires: it looks again)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        now = self.now()
        lefts = [
            clocks.left(side, now, self.excluded(game_id)) - (low_below(clocks.preset) if side not in self.low.get(game_id, ()) else 0.0)
            for game_id, clocks in self.clocks.items()
            for side in clocks.running
            if not self._exempt(game_id, side)
        ]
        if not lefts:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        delay = min(lefts)
        delay = delay if delay > 0 else 1.0  # out already but not ended (a store failure): try again in a second
        self._timer = loop.call_at(loop.time() + delay, self._fire)

    def _low_sides(self, game_id: str, now: float) -> list[Side]:
        clocks = self.clocks.get(game_id)
        if clocks is None:
            return []
        excluded = self.excluded(game_id)
        return [side for side in BOTH_SIDES if not self._exempt(game_id, side) and clocks.left(side, now, excluded) < low_below(clocks.preset)]

    def _look_low(self, game: HostedGame, now: float) -> None:
        """Tell each side whose clock dropped low since it was last above; forget a side back above."""
        low_now = set(self._low_sides(game.id, now))
        told = self.low.setdefault(game.id, set())
        told &= low_now  # back above (an increment): a later drop is a new one
        line = self.line(game)
        for side in sorted(low_now - told, key=lambda s: s.value):
            told.add(side)
            if line is not None:
                self.tell_low(game, side, clock_words(line))

    def _exempt(self, game_id: str, side: Side) -> bool:
        """The computer's seat, or one it stands in for, never runs out."""
        kept = self.kept.get(game_id)
        if kept is None:
            return True
        return kept.stood_in is side or kept.players[0 if side is Side.ISHIDA else 1] == COMPUTER

    def _fire(self) -> None:
        self._timer = None
        task = asyncio.get_running_loop().create_task(self.check(self.now()))
        self._ending.add(task)
        task.add_done_callback(self._ending.discard)

    async def check(self, now: float) -> list[tuple[str, Side]]:
        """End or stand in for every side out of time at `now`; (game, side) for each.
        The next timer is set for the rest (those a vacation stopped, later)."""
        self._vacations = self.store.all_vacations()  # `member vacation` writes them while the club runs
        out = []
        for game_id, clocks in list(self.clocks.items()):
            excluded = self.excluded(game_id)
            side = next((s for s in BOTH_SIDES if s in clocks.running and not self._exempt(game_id, s)
                         and clocks.left(s, now, excluded) <= 0), None)
            if side is None:
                if set(self._low_sides(game_id, now)) - self.low.get(game_id, set()):
                    game = self.games.find(game_id)
                    if game is not None and not game.host.is_over:
                        self._look_low(game, now)
                continue
            game = self.games.find(game_id)
            if game is None or game.host.is_over:
                continue
            out.append((game_id, side))
            await self._out_of_time(game, side)
        self._schedule()
        return out

    async def _out_of_time(self, game: HostedGame, side: Side) -> None:
        kept = self.kept.get(game.id)
        how = kept.on_time_out if kept is not None else "lose"
        if how.startswith("stand-in:"):
            async with game.changing:
                if not self.store.stand_in(game.id, side, how[len("stand-in:"):]):  # stored before the computer plays
                    self.audit.record("clock-not-ended", "another host owns the game now", game=game.id)
                    return
                game.stood_in = side
                if kept is not None:
                    self.kept[game.id] = evolve(kept, stood_in=side)
            self.audit.record("clock-stand-in", f"{side.value} ran out of time: the computer finishes the seat", game=game.id)
            self.tell(game)
            self.computer.schedule(game)
            return
        from sekigahara_tui.hosting.results import NotEnded

        try:
            await self.results.end_outside_rules(game, "timed-out", side, None)
        except NotEnded as refusal:  # over meanwhile, or the store failed: the timer looks again
            self.audit.record("clock-not-ended", refusal.reason, game=game.id)
