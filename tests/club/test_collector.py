"""The club server collects the young generation on a timer (club/cli.py):
CPython's own trigger lets it grow far past its threshold under hundreds of
games, and walking it then pauses the server."""

from __future__ import annotations

import asyncio
import gc

from sekigahara_tui.club.cli import YOUNG_COLLECTION_EVERY, collect_young_generation

TICKS = 5


def test_the_young_generation_is_collected_on_the_timer_alone():
    """The timer is the test's: each tick is a wait of YOUNG_COLLECTION_EVERY,
    and after each comes one collection of the youngest generation, and none
    before the first; counted in ticks, not in seconds of a loaded machine."""
    happened: list[tuple[str, float]] = []
    ticked = asyncio.Event()

    def seen(phase: str, info: dict) -> None:
        if phase == "stop":
            happened.append(("collected", info["generation"]))

    async def timer(seconds: float) -> None:
        happened.append(("waited", seconds))
        if sum(1 for what, _ in happened if what == "waited") > TICKS:
            ticked.set()
            await asyncio.Event().wait()  # the last tick never ends: cancelled below
        await asyncio.sleep(0)

    async def run() -> None:
        collector = asyncio.create_task(collect_young_generation(sleep=timer))
        await asyncio.wait_for(ticked.wait(), 20)
        collector.cancel()

    thresholds = gc.get_threshold()
    gc.set_threshold(10**9)  # no collection of CPython's own: only the timer's are counted
    gc.callbacks.append(seen)
    try:
        asyncio.run(run())
    finally:
        gc.callbacks.remove(seen)
        gc.set_threshold(*thresholds)
    assert happened == [("waited", YOUNG_COLLECTION_EVERY), ("collected", 0)] * TICKS + [("waited", YOUNG_COLLECTION_EVERY)]
