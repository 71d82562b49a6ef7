"""Speed of the terminal app: launch time and key-press-to-screen-update time.

    python benchmarks/tui.py [--launches 5] [--presses 40] [--launch-only]

Launch: a fresh Python process starts the app headless and reports when the
main menu has mounted and the app is idle, waiting for a key (interpreter
start-up and imports included); a bare Textual app (a Static and a Footer) is
launched the same way, in turn with it, and the ratio of the medians printed.
The app is also launched through the `sekigahara` command's own entry
(cli.main: argument parsing and checks first), as a player starts it. Key presses: in one headless app at 80x24, the
time from posting a key until the last screen update it causes is written
(the last screen update the key causes), for three kinds of key: moving in the choices list,
moving the map cursor, and Enter choosing a command (the engine applies it and
every panel redraws), and typing a letter on the command line (the choices
narrow to what is typed). Hand-over screens are dismissed between commands and
not timed. Each kind's median and 90th percentile are printed (issue 27, item
11: goals 16 ms, one frame, and 33 ms); the machine is noisy, so quote them as such.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LAUNCH_SCRIPT = """
import sys, time
started = float(sys.argv[1])
from sekigahara_tui.app import SekigaharaApp

async def ready(pilot):
    await pilot.pause()
    print(time.time() - started)
    pilot.app.exit()

SekigaharaApp(save_dir=__import__("pathlib").Path(sys.argv[2])).run(headless=True, size=(80, 24), auto_pilot=ready)
"""


# The `sekigahara` command with no arguments, headless: App.run is wrapped only
# to pass headless and the auto-pilot (Textual is imported first for that, which
# the app would import anyway; the total from process start is what counts).
CLI_LAUNCH_SCRIPT = """
import sys, time
started = float(sys.argv[1])
from textual.app import App

run = App.run

async def ready(pilot):
    await pilot.pause()
    print(time.time() - started)
    pilot.app.exit()

App.run = lambda self: run(self, headless=True, size=(80, 24), auto_pilot=ready)
from sekigahara_tui.cli import main

sys.exit(main(["--save-dir", sys.argv[2]]))
"""


BARE_LAUNCH_SCRIPT = """
import sys, time
started = float(sys.argv[1])
from textual.app import App
from textual.widgets import Footer, Static

class Bare(App):
    def compose(self):
        yield Static("a bare Textual app")
        yield Footer()

async def ready(pilot):
    await pilot.pause()
    print(time.time() - started)
    pilot.app.exit()

Bare().run(headless=True, size=(80, 24), auto_pilot=ready)
"""


def launch_seconds(save_dir: Path, script: str = LAUNCH_SCRIPT) -> float:
    started = time.time()
    out = subprocess.run(
        [sys.executable, "-c", script, repr(started), str(save_dir)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return float(out.strip().splitlines()[-1])


async def key_timings(presses: int, save_dir: Path) -> dict[str, list[float]]:
    from sekigahara_tui.app import SekigaharaApp
    from sekigahara_tui.screens.game import GameScreen
    from sekigahara_tui.screens.info import BattleSummaryScreen, HandOverScreen

    # A script presses at once what a person presses after reading the board: the
    # hand-over's double-tap guard, which would ignore such an Enter, is off.
    HandOverScreen.SETTLE_S = HandOverScreen.APPEAR_SETTLE_S = 0.0
    from sekigahara_tui.widgets.map_panel import MapPanel
    from sekigahara_tui.widgets.prompt import PromptPanel

    timings: dict[str, list[float]] = {"choices list": [], "map cursor": [], "command line letter": [], "choose a command": []}
    chooser = random.Random(1)
    app = SekigaharaApp(save_dir=save_dir, seed=1)
    async with app.run_test(size=(80, 24)) as pilot:

        # Stamp every screen update the app writes, so a key's time is measured to
        # the last update it causes, not to Pilot's idle detection (which sleeps).
        updates: list[float] = []
        display = app._display

        def stamped_display(screen, renderable) -> None:
            updates.append(time.perf_counter())
            display(screen, renderable)

        app._display = stamped_display

        async def timed(kind: str, key: str) -> None:
            await pilot.pause()
            updates.clear()
            started = time.perf_counter()
            await pilot.press(key)
            await pilot.pause()
            assert updates, f"{key} changed nothing on the screen"
            timings[kind].append((max(updates) - started) * 1000)

        async def to_game() -> GameScreen:
            while isinstance(app.screen, (HandOverScreen, BattleSummaryScreen)):
                await pilot.press("enter")
            assert isinstance(app.screen, GameScreen), type(app.screen)
            return app.screen

        for i in range(presses):
            screen = await to_game()
            prompt = screen.query_one(PromptPanel)
            choices = prompt.choices
            choices.focus()
            if choices.option_count > 1:  # with one choice the cursor cannot move
                at_end = (choices.highlighted or 0) >= choices.option_count - 1
                await timed("choices list", "up" if at_end else "down")
            screen.query_one(MapPanel).focus()
            await pilot.pause()
            await timed("map cursor", "right" if i % 2 == 0 else "left")
            prompt.command_line.focus()
            await pilot.pause()
            await timed("command line letter", "b")
            prompt.command_line.value = ""
            prompt.choices.focus()
            prompt.choices.highlighted = chooser.randrange(prompt.choices.option_count)
            await pilot.pause()
            await timed("choose a command", "enter")
    return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--launches", type=int, default=5)
    parser.add_argument("--presses", type=int, default=40)
    parser.add_argument("--launch-only", action="store_true", help="time the launches only")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as save_dir:
        launches, bare, cli = [], [], []
        for _ in range(args.launches):  # side by side, in turn, so all see the same machine
            bare.append(launch_seconds(Path(save_dir), BARE_LAUNCH_SCRIPT))
            launches.append(launch_seconds(Path(save_dir)))
            cli.append(launch_seconds(Path(save_dir), CLI_LAUNCH_SCRIPT))
        print(f"launch to main menu: median {statistics.median(launches):.2f} s over {len(launches)} launches "
              f"(min {min(launches):.2f}, max {max(launches):.2f}; target 1.0 s)")
        print(f"launch of a bare Textual app to its first screen: median {statistics.median(bare):.2f} s "
              f"(min {min(bare):.2f}, max {max(bare):.2f})")
        print(f"launch ratio, Sekigahara / bare Textual: {statistics.median(launches) / statistics.median(bare):.2f}x "
              f"(target 1.5x)")
        print(f"launch through the sekigahara command (cli.main): median {statistics.median(cli):.2f} s "
              f"(min {min(cli):.2f}, max {max(cli):.2f}); ratio to bare Textual "
              f"{statistics.median(cli) / statistics.median(bare):.2f}x")
        if args.launch_only:
            return
        timings = asyncio.run(key_timings(args.presses, Path(save_dir)))
    every = [t for kind in timings.values() for t in kind]
    for kind, values in [*timings.items(), ("all keys", every)]:
        print(f"key to update, {kind}: median {statistics.median(values):.1f} ms, p90 {p90(values):.1f} ms "
              f"over {len(values)} presses (goals: 16 ms, 33 ms)")


def p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10)[-1] if len(values) > 1 else values[0]


if __name__ == "__main__":
    main()
