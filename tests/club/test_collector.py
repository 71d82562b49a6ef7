"""The club server collects on a timer (club/cli.py): CPython's own trigger
lets the young generation grow far past its threshold under hundreds of
games, and walking it then pauses the server. The timer collects the older
generations too on a schedule (all of them, never the middle one alone:
walking the long-lived states found nothing to free and paused the server):
collecting only the young one left every cycle that outlived one young
collection in memory for good (issue 23, item 11)."""

from __future__ import annotations

import asyncio
import gc

from sekigahara_tui.club.cli import GC_THRESHOLDS, YOUNG_COLLECTION_EVERY, collect_on_timer

# The club's own thresholds: CPython then never starts a middle or full
# collection of its own (the young one is not counted: 20,000 allocations are
# not made in a test's tick), so every collection seen is the timer's.
THRESHOLDS = GC_THRESHOLDS
FULL_EVERY = 4
# A young collection each tick, a full one each FULL_EVERY-th: never the middle one alone.
EXPECTED = [0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 2, 0]


def collections_on_timer(ticks: int) -> list[tuple[str, float]]:
    """The timer is the test's: each tick is a wait of YOUNG_COLLECTION_EVERY,
    and after each comes one collection; counted in ticks, not in seconds of
    a loaded machine. What happened, in order."""
    happened: list[tuple[str, float]] = []
    ticked = asyncio.Event()

    def seen(phase: str, info: dict) -> None:
        if phase == "stop":
            happened.append(("collected", info["generation"]))

    async def timer(seconds: float) -> None:
        happened.append(("waited", seconds))
        if sum(1 for what, _ in happened if what == "waited") > ticks:
            ticked.set()
            await asyncio.Event().wait()  # the last tick never ends: cancelled below
        await asyncio.sleep(0)

    async def run() -> None:
        collector = asyncio.create_task(collect_on_timer(sleep=timer, full_every=FULL_EVERY))
        await asyncio.wait_for(ticked.wait(), 20)
        collector.cancel()

    thresholds = gc.get_threshold()
    gc.set_threshold(*THRESHOLDS)
    try:
        gc.collect()  # every count at 0
        gc.callbacks.append(seen)
        try:
            asyncio.run(run())
        finally:
            gc.callbacks.remove(seen)
    finally:
        gc.set_threshold(*thresholds)
    return happened


def test_each_tick_collects_the_young_generation_and_every_nth_all_of_them():
    happened = collections_on_timer(len(EXPECTED))
    expected = [step for generation in EXPECTED for step in (("waited", YOUNG_COLLECTION_EVERY), ("collected", generation))]
    assert happened == expected + [("waited", YOUNG_COLLECTION_EVERY)]
