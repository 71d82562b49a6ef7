"""A whole club game over SSH: a member plays the computer to the end by key
presses on a real SSH connection, and the store's record replays to the end
the screen showed (issue 12)."""

from __future__ import annotations

import random
import re

from front_helpers import choose_side_and_level, Terminal, connect
from rules.infra.record import replay
from sekigahara_tui.club.ssh_front import start_ssh
from sekigahara_tui.hosting.store import Store, record_of

from test_club_over_ssh import club_with_alice  # noqa: F401  (the fixture)

CHOICES = re.compile(r"(\d+) choices")


def deciding(terminal: Terminal) -> bool:
    """The prompt (right of the map) says it is our decision."""
    return any("You: " in line[40:] for line in terminal.screen.text().splitlines()[1:])


def over(terminal: Terminal) -> bool:
    return bool(terminal.screen.find("Game over"))


def summary(terminal: Terminal) -> bool:
    """A battle summary, or the computer's Movement Phase told (Enter continues)."""
    return bool(terminal.screen.find("Enter continues."))


async def test_a_member_plays_a_whole_game_against_the_computer_over_ssh(club_with_alice):  # noqa: F811
    front, key = club_with_alice
    rng = random.Random(7)
    presses = 0
    async with connect(front, key, username="alice") as conn:
        terminal = await Terminal.open(conn, 80, 24)
        await terminal.wait_text("signed in as alice")
        terminal.press(b"c")  # a game against the computer
        await terminal.wait_text("which side")  # Enter: Ishida; Enter: level 1 (issue 25)
        await choose_side_and_level(terminal)
        while True:
            await terminal.wait_for(lambda t: deciding(t) or over(t) or summary(t), "our decision, a summary or the end")
            if over(terminal):
                break
            if summary(terminal):
                before = len(terminal.raw)
                terminal.press(b"\r")
                presses += 1
                await terminal.wait_for(lambda t: len(t.raw) > before or not summary(t), "the summary to close")
                continue
            found = CHOICES.search(terminal.screen.text())
            downs = rng.randrange(int(found.group(1))) if found and int(found.group(1)) else 0
            before = len(terminal.raw)
            terminal.press(b"\x1b[B" * downs + b"\r")  # a random choice of the list
            presses += downs + 1
            await terminal.wait_for(lambda t: len(t.raw) > before, "the screen to answer")
            assert presses < 5000, "the game does not end\n" + terminal.screen.text()
        shown = terminal.screen.text()  # then the member hangs up
    winner = re.search(r"(Ishida|Tokugawa) wins", shown).group(1).lower()
    club = front.club
    store = Store.open(club.store.path, read_only=True)
    try:
        (game_id,) = store.game_ids()
        state = replay(record_of(*store.load_game(game_id)))
    finally:
        store.close()
    assert state.is_over and state.result.winner.value == winner
