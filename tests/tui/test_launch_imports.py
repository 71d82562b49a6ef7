"""The main menu opens without the engine, the game screen or the record code
(issue 13): they load when a game starts. And the menu's Footer builds its keys
once, not on every bindings signal with the same keys. Speed itself is measured
by benchmarks/tui.py, not here."""

from __future__ import annotations

import json
import subprocess
import sys

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from sekigahara_tui.screens.menu import MenuScreen
from sekigahara_tui.widgets.steady_footer import SteadyFooter

# What the main menu must not load: the engine and what sits on it.
DEFERRED = (
    "rules.engine",
    "rules.infra.record",
    "rules.state",
    "rules.surface",
    "sekigahara_tui.hosting.host",
    "sekigahara_tui.local",
    "sekigahara_tui.versus",
    "sekigahara_tui.screens.game",
)

# A fresh process opens the app headless, as benchmarks/tui.py does, and says,
# once the main menu is idle, which screen shows and which modules are loaded;
# with "play", it then starts a hot-seat game and says the same again.
PROBE = """
import json, sys
from pathlib import Path

def report(app):
    return {"screen": type(app.screen).__name__, "modules": sorted(sys.modules)}

async def ready(pilot):
    await pilot.pause()
    reports = [report(pilot.app)]
    if sys.argv[2] == "play":
        pilot.app.start(1)
        await pilot.pause()
        reports.append(report(pilot.app))
    print(json.dumps(reports))
    pilot.app.exit()

if sys.argv[3] == "cli":  # the `sekigahara` command itself, with no arguments
    from textual.app import App
    run = App.run
    App.run = lambda self: run(self, headless=True, size=(80, 24), auto_pilot=ready)
    from sekigahara_tui.cli import main
    sys.exit(main(["--save-dir", sys.argv[1]]))
from sekigahara_tui.app import SekigaharaApp
SekigaharaApp(save_dir=Path(sys.argv[1])).run(headless=True, size=(80, 24), auto_pilot=ready)
"""


def probe(tmp_path, then: str = "stay", entry: str = "app") -> list[dict]:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(tmp_path), then, entry],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_main_menu_opens_without_the_engine(tmp_path):
    (menu,) = probe(tmp_path)
    assert menu["screen"] == "MenuScreen"
    assert "sekigahara_tui.screens.menu" in menu["modules"]
    assert [name for name in DEFERRED if name in menu["modules"]] == []


def test_the_sekigahara_command_opens_the_menu_without_the_engine(tmp_path):
    (menu,) = probe(tmp_path, entry="cli")
    assert menu["screen"] == "MenuScreen"
    assert "sekigahara_tui.cli" in menu["modules"]
    assert [name for name in DEFERRED if name in menu["modules"]] == []


def test_a_game_started_from_the_menu_loads_what_the_menu_left_out(tmp_path):
    # The other half of the check above: the probe does see these modules once
    # a game needs them, so their absence from the menu means something.
    menu, game = probe(tmp_path, then="play")
    assert menu["screen"] == "MenuScreen"
    assert game["screen"] in ("GameScreen", "HandOverScreen")
    assert {"rules.engine", "rules.infra.record", "sekigahara_tui.local", "sekigahara_tui.screens.game"} <= set(game["modules"])


# --- the Footer that rebuilds only when its keys change -------------------------


def footer_keys(screen: Screen) -> list:
    return list(screen.query_one(SteadyFooter).query("FooterKey"))


async def test_the_menu_footer_keeps_its_keys_when_the_same_bindings_are_signalled(make_app):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, MenuScreen)
        before = footer_keys(app.screen)
        assert [key.description for key in before][:2] == ["New game", "CPU"]
        for _ in range(3):  # as a screen does when it opens: stack, focus, after a refresh
            app.screen.refresh_bindings()
            await pilot.pause()
        after = footer_keys(app.screen)
        assert [id(key) for key in after] == [id(key) for key in before]  # the same widgets, not rebuilt


class Switchable(Screen[None]):
    """A screen with one key that its check_action shows or hides."""

    BINDINGS = [Binding("x", "extra", "Extra")]
    extra_shown = False

    def compose(self) -> ComposeResult:
        yield Static("keys")
        yield SteadyFooter()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.extra_shown if action == "extra" else True

    def action_extra(self) -> None:
        pass


class SwitchableApp(App[None]):
    def get_default_screen(self) -> Screen:
        return Switchable()


async def test_the_steady_footer_rebuilds_when_the_keys_change():
    app = SwitchableApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert "Extra" not in [key.description for key in footer_keys(screen)]
        screen.extra_shown = True
        screen.refresh_bindings()
        await pilot.pause()
        assert "Extra" in [key.description for key in footer_keys(screen)]
        screen.extra_shown = False
        screen.refresh_bindings()
        await pilot.pause()
        assert "Extra" not in [key.description for key in footer_keys(screen)]
