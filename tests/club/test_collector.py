"""The club server collects the young generation on a timer (club/cli.py):
CPython's own trigger lets it grow to ~150,000 objects under 500 games, and
walking it paused the server for up to 140 ms (benchmarks/club.py)."""

from __future__ import annotations

import asyncio
import gc

from sekigahara_tui.club.cli import collect_young_generation


def test_the_young_generation_is_collected_on_the_timer_alone():
    collected: list[int] = []

    def seen(phase: str, info: dict) -> None:
        if phase == "stop":
            collected.append(info["generation"])

    async def run_for(seconds: float) -> None:
        collector = asyncio.create_task(collect_young_generation(0.02))
        await asyncio.sleep(seconds)
        collector.cancel()

    thresholds = gc.get_threshold()
    gc.set_threshold(10**9)  # no collection of CPython's own: only the timer's are counted
    gc.callbacks.append(seen)
    try:
        asyncio.run(run_for(0.3))
    finally:
        gc.callbacks.remove(seen)
        gc.set_threshold(*thresholds)
    assert collected and set(collected) == {0}  # the youngest generation only
    assert 5 <= len(collected) <= 16  # one per 0.02 s of the 0.3 s, give or take a busy machine
