"""The computer decides in worker processes (issue 25, section 1).

The planner (level 2) thinks for seconds of pure Python; in the club's event
loop that would stop every other game, and in the app's it would freeze the
screen (a thread does not help: the GIL). A `DecisionPool` hands each
decision to a process of a ProcessPoolExecutor started with "forkserver"
(or "spawn"), never "fork": the club's process holds threads and an event
loop that a forked child must not inherit. The caller awaits the answer
with asyncio, so its loop never waits.

What crosses to a worker is a `Decision`: the level, side, seed and budget,
the side's view and the side's own log (R55: `events_for(side)`), nothing
else; a test pickles exactly these bytes and looks for what the side may not
know. A hint (bots/hints.py) crosses as the same Decision; the only other
thing a worker is given is a finished game's record, for its analysis
(`run`, analysis.py), when every hidden piece is known to all. A worker
keeps nothing between decisions: each decision builds a fresh bot
(bots/driver.py's BotPlayer) and feeds it the side's whole log, so a bot
that keeps a belief across decisions (the planner's) has all its history.
Why whole logs rather than a bot kept alive in a sticky worker: any worker
may take any decision (no game waits behind another game's worker), a worker
that dies loses nothing, and an undo (R58) is simply a shorter log, never a
belief to roll back. The cost, measured for a whole game (870 events of a
side): 40 KB, 6 ms to unpickle and 2-6 ms to observe in the worker, nothing
next to a planner's decision. The caller's side pickles only the events new
since its last decision (`SideLog` keeps the older ones as pickled chunks).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import pickle
import signal
import sys
import time
from collections import OrderedDict, deque
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Sequence

from attrs import frozen

from rules.notation import NotationError, format_command, parse_command
from rules.surface import Command, Event, PlayerView, Side

CHUNKS = 32  # a log of more pickled chunks than this is pickled again as one
TIMES_KEPT = 10_000  # the latest decisions' times a pool keeps (benchmarks), so its memory stays flat


def default_workers() -> int:
    """Cores minus one (the server's own loop keeps one), at least one."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, cores - 1)


@frozen
class Decision:
    """What a worker is given for one decision: no more than the side knows (R55)."""

    level: str
    side: Side
    seed: int  # the bot's, for this decision (decision_seed)
    budget_s: float
    view: PlayerView  # view(state, side)
    log: tuple[bytes, ...]  # events_for(side), pickled in chunks (SideLog)


class DecisionFailed(Exception):
    """A decision that raised, timed out or lost its worker; the message says which in one line."""


class SideLog:
    """One side's log as pickled chunks, kept between its decisions so that
    only the events new since the last one are pickled. A log that shrank or
    changed where it was last seen (an undo, R58) is pickled afresh."""

    def __init__(self) -> None:
        self.chunks: list[bytes] = []
        self.count = 0  # events pickled
        self.last: Event | None = None

    def chunks_for(self, log: Sequence[Event]) -> tuple[bytes, ...]:
        count = self.count
        if len(log) < count or (count and log[count - 1] != self.last):
            self.chunks, count = [], 0
        if len(log) > count:
            if len(self.chunks) >= CHUNKS:  # many small pickles cost more to read than one
                self.chunks, count = [], 0
            self.chunks.append(pickle.dumps(tuple(log[count:]), protocol=pickle.HIGHEST_PROTOCOL))
        self.count = len(log)
        self.last = log[-1] if log else None
        return tuple(self.chunks)


def decision_seed(seat_seed: int, step: int) -> int:
    """A decision's bot seed: the seat's, moved on by the game's step (its
    number of commands, which both sides see), so that a fresh bot each
    decision still draws afresh each decision (by the log's length, a command
    that shows the side nothing would repeat a random choice)."""
    return (seat_seed * 1_000_003 + step) % 2**31


def level_1_command(side: Side, seed: int, budget_s: float, view: PlayerView, log: Sequence[Event]) -> str:
    """The fallback when a worker fails: level 1 decides in the caller's
    process (a few milliseconds), so no game is stuck."""
    from sekigahara_tui.bots.driver import level_player

    return format_command(level_player("heuristic", side, seed, budget_s=budget_s).choose(view, log))


# A worker's events of the chunks it has read lately: a chunk's bytes never
# change, so a log's older chunks are read once per worker, not once per decision.
_read: OrderedDict[bytes, tuple[Event, ...]] = OrderedDict()
READ_CHUNKS = 256


def _events(chunk: bytes) -> tuple[Event, ...]:
    events = _read.get(chunk)
    if events is None:
        events = _read[chunk] = pickle.loads(chunk)
        while len(_read) > READ_CHUNKS:
            _read.popitem(last=False)
    else:
        _read.move_to_end(chunk)
    return events


def listed_command(text: str, side: Side, legal: Sequence[Command]) -> Command | None:
    """A worker's answer as one of the side's legal commands; None if it is
    none of them (a worker's answer is checked like a client's)."""
    try:
        command = parse_command(text, side=side)
    except NotationError:
        return None
    return command if command.side is side and command in legal else None


def log_of(decision: Decision) -> list[Event]:
    """A decision's whole log, read from its chunks."""
    return [event for chunk in decision.log for event in _events(chunk)]


def decide(data: bytes) -> str:
    """In a worker: the command (as notation) a fresh bot of the decision's
    level chooses after observing the side's whole log (a fresh bot: what it
    chooses depends on the decision alone, not on which worker took it)."""
    from sekigahara_tui.bots.driver import level_player

    decision: Decision = pickle.loads(data)
    player = level_player(decision.level, decision.side, decision.seed, budget_s=decision.budget_s)
    return format_command(player.choose(decision.view, log_of(decision)))


def explain(data: bytes) -> tuple[str, str]:
    """In a worker: a hint, level 2's command and its reason (bots/hints.py)."""
    from sekigahara_tui.bots.hints import explain as hint

    return hint(data)


def _timed(function: Callable[[Any], Any], argument: Any) -> tuple[Any, float]:
    """In a worker: `function(argument)` and the seconds it took there, so
    the caller can tell a worker's thinking from the wait for a worker."""
    started = time.perf_counter()
    answer = function(argument)
    return answer, time.perf_counter() - started


def _ready() -> int:
    """A first task, so that the workers start (and import the bots) before the first decision."""
    import sekigahara_tui.bots.search  # noqa: F401  (the slowest level's imports, the planner's with them)

    return os.getpid()


def _worker_start(quiet: bool, initializer: Callable[..., None] | None, initargs: tuple) -> None:
    """A worker's start: ctrl+c at the server's terminal stops the server,
    which shuts its workers down, rather than interrupting them mid-decision;
    a worker of the app (`quiet`) prints nothing on the player's screen."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if quiet:
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
    if initializer is not None:
        initializer(*initargs)


@contextlib.contextmanager
def _real_stdio():
    """multiprocessing hands its helper processes sys.stderr's file descriptor;
    inside a Textual app sys.stdout and sys.stderr are the app's capture, with
    none. While workers start, they are the process's own."""
    saved = sys.stdout, sys.stderr
    try:
        for name in ("stdout", "stderr"):
            stream = getattr(sys, name)
            try:
                ok = stream is not None and stream.fileno() >= 0
            except (AttributeError, OSError, ValueError):
                ok = False
            if not ok:
                setattr(sys, name, getattr(sys, f"__{name}__"))
        yield
    finally:
        sys.stdout, sys.stderr = saved


class DecisionPool:
    """Worker processes that decide for the computer (module docstring).

    `decide` is the function a worker runs on the pickled Decision, and
    `explain` the one it runs for a hint (tests give ones that wait for their
    signal); `initializer`/`initargs` are the
    executor's; `tap(tag, data)` sees the very bytes each decision sends.
    """

    def __init__(
        self,
        workers: int | None = None,
        *,
        decide: Callable[[bytes], str] = decide,
        explain: Callable[[bytes], tuple[str, str]] = explain,
        initializer: Callable[..., None] | None = None,
        initargs: tuple = (),
        quiet: bool = False,
        tap: Callable[[Any, bytes], None] | None = None,
    ) -> None:
        self.workers = default_workers() if workers is None else workers
        if self.workers < 1:
            raise ValueError("a decision pool needs at least one worker")
        self._decide = decide
        self._explain = explain
        self._start_args = (quiet, initializer, initargs)
        self.tap = tap
        self._executor: ProcessPoolExecutor | None = None
        self.closed = False
        self.decisions = 0
        self.failures = 0
        self.think_times: deque[float] = deque(maxlen=TIMES_KEPT)  # seconds each answer took inside its worker

    def _pool(self) -> ProcessPoolExecutor:
        if self.closed:
            raise DecisionFailed("the decision pool is shut down")
        if self._executor is None:
            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
            with _real_stdio():
                self._executor = ProcessPoolExecutor(
                    self.workers, mp_context=context, initializer=_worker_start, initargs=self._start_args
                )
        return self._executor

    def _submit(self, function: Callable, *arguments):
        pool = self._pool()
        with _real_stdio():  # a submit may start a worker
            return pool.submit(function, *arguments)

    def start(self) -> None:
        """Start the workers now, so the first decision does not wait for them."""
        for _ in range(self.workers):
            self._submit(_ready)

    async def decide(self, decision: Decision, timeout_s: float, tag: Any = None) -> str:
        """The command's notation, decided in a worker; DecisionFailed if the
        worker raised, did not answer within `timeout_s` (counted from now,
        queueing included) or died."""
        return await self._run(self._decide, decision, timeout_s, tag)

    async def explain(self, decision: Decision, timeout_s: float, tag: Any = None) -> tuple[str, str]:
        """A hint worked out in a worker: (notation, reason), as `decide` fails."""
        return await self._run(self._explain, decision, timeout_s, tag)

    async def _run(self, function: Callable[[bytes], Any], decision: Decision, timeout_s: float, tag: Any) -> Any:
        data = pickle.dumps(decision, protocol=pickle.HIGHEST_PROTOCOL)
        if self.tap is not None:
            self.tap(tag, data)
        return await self.run(function, data, timeout_s)

    async def run(self, function: Callable[..., Any], argument: Any, timeout_s: float) -> Any:
        """`function(argument)` in a worker, failing as `decide` does (a
        finished game's analysis, screens/analysis.py)."""
        try:
            future = self._submit(_timed, function, argument)
        except (BrokenProcessPool, RuntimeError) as error:
            self._broken()
            raise DecisionFailed(f"the decision pool cannot take it: {error}") from None
        try:
            answer, thought = await asyncio.wait_for(asyncio.wrap_future(future), timeout_s)
        except asyncio.TimeoutError:
            self.failures += 1
            raise DecisionFailed(f"no decision within {timeout_s:g} s") from None
        except BrokenProcessPool:
            self.failures += 1
            self._broken()
            raise DecisionFailed("its worker process died") from None
        except Exception as error:  # the bot raised in the worker
            self.failures += 1
            raise DecisionFailed(f"the worker raised {type(error).__name__}: {error}") from None
        self.decisions += 1
        self.think_times.append(thought)
        return answer

    def _broken(self) -> None:
        """A worker died: the executor is unusable; the next decision starts a new one."""
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    async def close(self) -> None:
        """Shut the workers down: decisions not yet begun are dropped, those
        under way are waited for (a bot's budget bounds them)."""
        self.closed = True
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)

    def close_soon(self) -> None:
        """Shut down without waiting (the app's table, closed from a sync callback)."""
        self.closed = True
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
