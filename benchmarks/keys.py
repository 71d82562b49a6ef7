"""Keys a hot-seat game takes: per Movement Phase and per battle (issue 13).

    python benchmarks/keys.py [--seeds 1 2 3] [--max-commands N]

A scripted hot-seat game played through Pilot by keys, as a player would: at
each decision the choices list is walked with Down (k times, k the index of a
seeded random legal choice) and Enter picks it; hand-over screens and battle
summaries take one Enter each. Every key is counted against where the game
stands when it is pressed: a Movement Phase (a week's turn), a battle or siege
(from its first deployment to its summary), or elsewhere (reinforcement, bid,
combat declarations). Each seed is played twice, with the same choices:
"before" (today's defaults) and "after" (both players turned on "allow without
asking when I hold no Loyalty card", ctrl+y Enter, counted too). The choice at
each decision depends only on the seed and the number of commands so far, so
both runs play the same game.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import tempfile
from collections import Counter
from pathlib import Path


def context_of(view, last_battle):
    """Where a key press counts: ("movement", week, turn), ("battle", week, turn,
    location), or ("other",)."""
    if view is None:
        return ("other",)
    if view.combat is not None and view.combat.battle is not None:
        battle = view.combat.battle
        return ("battle", view.week, view.turn.value, battle.location)
    if view.phase.value == "movement":
        return ("movement", view.week, view.turn.value)
    return ("other",)


async def play(seed: int, auto_allow: bool, save_dir: Path, max_commands: int | None) -> tuple[Counter, int]:
    """Keys per context for one game, and the number of commands it took."""
    from textual import events

    from sekigahara_tui.app import SekigaharaApp
    from sekigahara_tui.screens.game import GameScreen
    from sekigahara_tui.screens.info import AutoAllowDialog, BattleSummaryScreen, GameOverScreen, HandOverScreen

    # A script presses at once what a person presses after reading the board: the
    # hand-over's double-tap guard, which would ignore such an Enter, is off.
    HandOverScreen.SETTLE_S = HandOverScreen.APPEAR_SETTLE_S = 0.0

    keys: Counter = Counter()
    app = SekigaharaApp(save_dir=save_dir, seed=seed)
    turned_on: set = set()
    last_battle = ("other",)
    async with app.run_test(size=(120, 40)) as pilot:
        game = app.screen_stack[-1] if isinstance(app.screen, GameScreen) else next(
            s for s in app.screen_stack if isinstance(s, GameScreen)
        )
        host = game.table.host

        async def press(*pressed: str, where) -> None:
            """Post each key as the terminal would and wait until the app has
            handled it (Pilot.press sleeps about 20 ms per key for idleness)."""
            keys[where] += len(pressed)
            for key in pressed:
                before = (app.screen, len(host.record.commands), getattr(game.query_one("#prompt").choices, "highlighted", None))
                app.post_message(events.Key(key, "\r" if key == "enter" else None))
                for _ in range(200):
                    await pilot.pause(0)
                    after = (app.screen, len(host.record.commands), game.query_one("#prompt").choices.highlighted)
                    if after != before:
                        break
                else:
                    await pilot.pause()
                await pilot.pause(0)

        while True:
            screen = app.screen
            where = context_of(game.view, last_battle)
            if where[0] == "battle":
                last_battle = where
            if isinstance(screen, GameOverScreen) or host.is_over:
                break
            if max_commands is not None and len(host.record.commands) >= max_commands:
                break
            if isinstance(screen, HandOverScreen):
                await press("enter", where=where)
                continue
            if isinstance(screen, BattleSummaryScreen):
                await press("enter", where=last_battle)  # the end of the battle just summarised
                continue
            if isinstance(screen, AutoAllowDialog):
                await press("enter", where=where)
                continue
            assert isinstance(screen, GameScreen), type(screen).__name__
            if auto_allow and game.seat not in turned_on and game.check_action("auto_allow", ()):
                turned_on.add(game.seat)
                await press("ctrl+y", where=where)  # the dialog; its Enter comes next round
                continue
            view = game.view
            prompt = game.query_one("#prompt")
            choices = prompt.choices
            if not choices.has_focus:
                choices.focus()
                await pilot.pause()
            count = choices.option_count
            assert count == len(view.legal), (count, len(view.legal))
            pick = random.Random(f"keys/{seed}/{len(host.record.commands)}").randrange(count)
            start = choices.highlighted or 0
            moves = ["down"] * (pick - start) if pick >= start else ["up"] * (start - pick)
            given = len(host.record.commands)
            await press(*moves, "enter", where=where)
            assert len(host.record.commands) > given, "the choice was not applied"
    return keys, len(host.record.commands)


def figures(keys: Counter) -> dict[str, list[int]]:
    return {
        kind: [n for where, n in keys.items() if where[0] == kind]
        for kind in ("movement", "battle", "other")
    }


def describe(values: list[int]) -> str:
    if not values:
        return "none"
    return (f"{len(values)}, keys: mean {statistics.mean(values):.1f}, median {statistics.median(values):.0f}, "
            f"min {min(values)}, max {max(values)}, total {sum(values)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--max-commands", type=int, help="stop each game after this many commands")
    args = parser.parse_args()
    totals = {run: Counter() for run in ("before", "after")}
    for seed in args.seeds:
        for run in ("before", "after"):
            with tempfile.TemporaryDirectory() as save_dir:
                keys, commands = asyncio.run(play(seed, run == "after", Path(save_dir), args.max_commands))
            totals[run].update({(seed, *where): n for where, n in keys.items()})
            per = figures(keys)
            print(f"seed {seed} {run:6}: {commands} commands, {sum(keys.values())} keys; "
                  f"Movement Phases {describe(per['movement'])}; battles {describe(per['battle'])}")
    print()
    for run in ("before", "after"):
        per = {kind: [n for where, n in totals[run].items() if where[1] == kind] for kind in ("movement", "battle", "other")}
        print(f"{run:6} (seeds {' '.join(map(str, args.seeds))}):")
        print(f"  per Movement Phase: {describe(per['movement'])}")
        print(f"  per battle or siege: {describe(per['battle'])}")
        print(f"  elsewhere (reinforcement, bid, declarations): total {sum(per['other'])}")


if __name__ == "__main__":
    main()
