"""What the decision-pool tests run in a worker process (bots/workers.py):
importable by the worker (tests/ is on the path the workers inherit).

`gate_decide` waits in the worker until the test opens the gate, after
saying it has begun (`entered`): the test knows the computer is thinking
and holds it there as long as it likes, with no timing.
"""

from __future__ import annotations

import multiprocessing
import os

from sekigahara_tui.bots.workers import DecisionPool, decide, explain

_gates: dict[str, object] = {}


def set_gates(entered, gate, pids) -> None:
    """The worker's initializer: the test's events and its list of worker pids."""
    _gates.update(entered=entered, gate=gate, pids=pids)


def gate_decide(data: bytes) -> str:
    _gates["pids"].append(os.getpid())
    _gates["entered"].set()
    _gates["gate"].wait()
    return decide(data)


def gate_explain(data: bytes) -> tuple[str, str]:
    """A hint (h) held at the gate like a decision."""
    _gates["pids"].append(os.getpid())
    _gates["entered"].set()
    _gates["gate"].wait()
    return explain(data)


def gate_hold(answer):
    """Any task held at the gate (a pool's `run`), answering its argument."""
    _gates["entered"].set()
    _gates["gate"].wait()
    return answer


def failing_decide(data: bytes) -> str:
    raise RuntimeError("this worker always fails")


class GatedPool:
    """A one-worker DecisionPool whose decisions and hints wait for `open()`."""

    def __init__(self, workers: int = 1, **options) -> None:
        context = multiprocessing.get_context("forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn")
        self.manager = context.Manager()
        self.entered = self.manager.Event()
        self.gate = self.manager.Event()
        self.pids = self.manager.list()
        self.pool = DecisionPool(workers, decide=gate_decide, explain=gate_explain, initializer=set_gates, initargs=(self.entered, self.gate, self.pids), **options)

    def open(self) -> None:
        self.gate.set()

    def close(self) -> None:
        self.gate.set()
        self.manager.shutdown()
