"""Helpers that drive the app the way a player does: keys and the command line."""

from __future__ import annotations

import time

from textual import events
from textual.pilot import Pilot

from sekigahara_tui.screens.game import GameScreen
from sekigahara_tui.screens.info import BattleSummaryScreen, HandOverScreen
from sekigahara_tui.widgets.prompt import PromptPanel
from tui.screen_text import screen_text


async def take_seat(pilot: Pilot) -> GameScreen:
    """Press Enter on hand-over screens and battle summaries until a game screen shows."""
    while isinstance(pilot.app.screen, (HandOverScreen, BattleSummaryScreen)):
        await pilot.press("enter")
    screen = pilot.app.screen
    assert isinstance(screen, GameScreen), type(screen).__name__
    return screen


async def type_command(pilot: Pilot, line: str) -> GameScreen:
    """Type a line of notation on the command line and press Enter."""
    screen = await take_seat(pilot)
    prompt = screen.query_one(PromptPanel)
    prompt.command_line.focus()
    prompt.command_line.value = line
    await pilot.press("enter")
    return screen


def choice_notations(screen: GameScreen) -> list[str]:
    """The notation of every choice in the prompt's list, in order."""
    prompt = screen.query_one(PromptPanel)
    return [prompt.notation_of(i) for i in range(prompt.choices.option_count)]


async def choose(pilot: Pilot, text: str) -> GameScreen:
    """Pick the choice whose notation is `text` from the prompt's list with the
    arrow keys and Enter."""
    screen = await take_seat(pilot)
    choices = screen.query_one(PromptPanel).choices
    choices.focus()
    await pilot.press("home")
    texts = choice_notations(screen)
    assert text in texts, f"{text!r} is not among the choices {texts}"
    for _ in range(texts.index(text)):
        await pilot.press("down")
    await pilot.press("enter")
    return screen


async def submit_command_line(pilot: Pilot, side: str, line: str) -> GameScreen:
    """Submit a line on `side`'s command line, passing hand-over screens with their
    Enter action. Unlike type_command it skips Pilot's idle waits (about 20 ms of
    sleep per key), for long scripted games."""
    while isinstance(pilot.app.screen, (HandOverScreen, BattleSummaryScreen)):
        await pilot.app.screen.run_action("dismiss")
        await pilot.pause(0)
    screen = pilot.app.screen
    assert isinstance(screen, GameScreen), type(screen).__name__
    assert screen.seat.value == side, f"the app offered {screen.seat.value} the seat for {side}: {line}"
    command_line = screen.query_one(PromptPanel).command_line
    command_line.value = line
    given = len(screen.table.host.record.commands)
    await command_line.action_submit()
    for _ in range(100):  # the line travels Input -> PromptPanel -> GameScreen as messages
        await pilot.pause(0)
        if len(screen.table.host.record.commands) > given:
            return screen
    raise AssertionError(f"{side}: {line} was not applied: {screen.query_one('#message').render()}")


# (name, character) of a key whose name and character are not both the key itself.
KEYS = {"enter": ("enter", "\r"), "colon": ("colon", ":"), "down": ("down", None), " ": ("space", " "), "-": ("minus", "-")}


async def press_at_once(pilot, *keys: str) -> None:
    """Keys arriving together, as a terminal (or SSH) delivers a quick burst: all
    queued before the app handles the first. Pilot.press waits for the app to
    go idle between keys, which hides what happens to keys that follow closely."""
    for key in keys:
        pilot.app.post_message(events.Key(*KEYS.get(key, (key, key))))
    await pilot.pause()


UNTIL = 20.0  # seconds a screen test waits for what it expects: a failure, not a timing


async def until(pilot: Pilot, predicate, what: str) -> None:
    """Wait until predicate() holds, failing with the screen after UNTIL seconds."""
    deadline = time.monotonic() + UNTIL
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}: {screen_text(pilot.app)[-800:]}"
        await pilot.pause(0.02)
