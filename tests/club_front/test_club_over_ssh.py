"""The whole way: a member's SSH key, the real club server, the real lobby.

The SSH front end runs its default child, `python -m sekigahara_tui club`,
which reaches the club through SEKIGAHARA_CLUB and SEKIGAHARA_SESSION: the
lobby at 80x24, a game against the computer made and played by key presses,
then back to the lobby and away.
"""

from __future__ import annotations

import pytest

from front_helpers import choose_side_and_level, prompt_says, Terminal, connect, real_club
from sekigahara_tui.club.ssh_front import start_ssh


@pytest.fixture
async def club_with_alice():
    async with real_club("alice") as (server, data_dir, key):
        front = await start_ssh(server, data_dir, 0, "127.0.0.1")  # the default child: `sekigahara club`
        try:
            yield front, key
        finally:
            front.close()
            await front.wait_closed()


async def test_a_member_plays_the_computer_over_ssh(club_with_alice):
    front, key = club_with_alice
    async with connect(front, key, username="alice") as conn:
        terminal = await Terminal.open(conn, 80, 24)
        await terminal.wait_text("signed in as alice")
        terminal.press(b"c")  # a new game against the computer: the game screen, our bid to make
        await terminal.wait_text("which side")  # Enter: Ishida; Enter: level 1 (issue 25)
        await choose_side_and_level(terminal)
        await terminal.wait_text("You: bid a card for first player")
        await terminal.wait_text(" choices ")
        terminal.press(b"\r")  # bid the first card offered
        await terminal.wait_for(lambda t: not t.screen.find("You: bid a card"), "the bid played")
        # Then our next decision, or the computer's Movement Phase told first (a summary: Enter continues it).
        await terminal.wait_for(lambda t: t.screen.find("Enter continues.") or prompt_says(t, "You: ") and not prompt_says(t, "You: bid a card"), "the next step")
        if terminal.screen.find("Enter continues."):
            terminal.press(b"\r")
            await terminal.wait_for(lambda t: not t.screen.find("Enter continues."), "the summary closed")
        terminal.press(b"\x0c")  # ctrl+l: back to the lobby
        await terminal.wait_text("1 game(s) in play")
        await terminal.wait_text("alice")
        terminal.press(b"q")
        result = await terminal.finish()
        # the screen was read only between whole frames (front_vt.py): Textual bracketed them
        assert b"\x1b[?2026h" in terminal.raw and terminal.raw.count(b"\x1b[?2026h") == terminal.raw.count(b"\x1b[?2026l")
    assert result.exit_status == 0
    assert front.children == {}
