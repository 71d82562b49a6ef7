"""The club server's collector (club/cli.py): no collection of CPython's own,
and a full one on a timer, every FULL_COLLECTION_SECONDS or as soon as
GROWTH_LIMIT tracked objects were made since the last. Young and middle
collections found nothing to free at 500 games and cost the server a pause
every few seconds and 12% of its CPU; collecting nothing at all would keep
every cycle (asyncio's transports) for good (issue 23, item 11)."""

from __future__ import annotations

import asyncio
import gc

from sekigahara_tui.club.cli import GROWTH_LIMIT, TIMER_TICK, collect_on_timer, tune_garbage_collector

FULL_EVERY = 4


def collections_on_timer(counts: list[int]) -> list[tuple[str, object]]:
    """The timer and the count are the test's: at tick i the collector's count
    reads counts[i]; counted in ticks, not in seconds of a loaded machine.
    What happened, in order."""
    happened: list[tuple[str, object]] = []
    ticked = asyncio.Event()
    ticks = iter(counts)
    now = [0]

    def seen(phase: str, info: dict) -> None:
        if phase == "stop":
            happened.append(("collected", info["generation"]))

    async def timer(seconds: float) -> None:
        happened.append(("waited", seconds))
        try:
            now[0] = next(ticks)
        except StopIteration:
            ticked.set()
            await asyncio.Event().wait()  # the last tick never ends: cancelled below
        await asyncio.sleep(0)

    async def run() -> None:
        collector = asyncio.create_task(collect_on_timer(sleep=timer, full_every=FULL_EVERY, count=lambda: now[0]))
        await asyncio.wait_for(ticked.wait(), 20)
        collector.cancel()

    was_enabled = gc.isenabled()
    gc.disable()  # every collection seen is the timer's
    try:
        gc.callbacks.append(seen)
        try:
            asyncio.run(run())
        finally:
            gc.callbacks.remove(seen)
    finally:
        if was_enabled:
            gc.enable()
    return happened


def tick(collects: bool) -> list[tuple[str, object]]:
    return [("waited", TIMER_TICK)] + ([("collected", 2)] if collects else [])


def test_every_nth_tick_collects_every_generation_and_no_other_tick_collects():
    happened = collections_on_timer([0] * 9)
    expected = [step for n in range(1, 10) for step in tick(n % FULL_EVERY == 0)]
    assert happened == expected + [("waited", TIMER_TICK)]


def test_past_the_growth_limit_the_next_tick_collects_and_the_count_starts_again():
    counts = [0, GROWTH_LIMIT + 1, 0, 0, 0, 0]  # the second tick is past the limit
    happened = collections_on_timer(counts)
    # Ticks 1-6: the 2nd collects (the limit), then 4 more ticks to the next full one (the 6th).
    expected = [step for n in range(1, 7) for step in tick(n in (2, 6))]
    assert happened == expected + [("waited", TIMER_TICK)]


def test_tuning_leaves_cpython_no_collection_of_its_own():
    was_enabled = gc.isenabled()
    try:
        tune_garbage_collector()
        assert not gc.isenabled()
        before = gc.get_stats()
        garbage = [[] for _ in range(50_000)]  # far past any threshold CPython would start one at
        del garbage
        assert [g["collections"] for g in gc.get_stats()] == [g["collections"] for g in before]
    finally:
        gc.unfreeze()
        if was_enabled:
            gc.enable()
