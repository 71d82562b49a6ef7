"""Issue 23, item 4, end to end: with guest mode on, a stranger's key (or no
key at all) really gets into the real club over SSH as guest-NAME, is told in
one line that guests make no games, and joins a member's open game.

Before, the SSH front let the guest in and the club refused it ('guest-y' is
not a member of this club)."""

from __future__ import annotations

import asyncssh

from front_helpers import Terminal, connect, real_club
from rules.sides import Side
from sekigahara_tui.club.client import ClubClient
from sekigahara_tui.club.ssh_front import start_ssh
from sekigahara_tui.hosting.lobby import GUESTS_MAKE_NO_GAMES
from test_ssh_front import KeyboardInteractive


async def test_a_guest_gets_in_over_ssh_joins_an_open_game_and_makes_none():
    async with real_club("alice", guests=True) as (server, data_dir, _):
        front = await start_ssh(server, data_dir, 0, "127.0.0.1", guest=True, audit=server.audit)
        try:
            stranger = asyncssh.generate_private_key("ssh-ed25519")
            async with connect(front, stranger, username="y") as conn:
                terminal = await Terminal.open(conn, 100, 30)
                await terminal.wait_text("signed in as guest-y")
                terminal.press(b"n")  # a new game (the form; Enter takes it as it stands): not for guests
                await terminal.wait_text("New club game")
                terminal.press(b"\r")
                await terminal.wait_text("only members make games")
                alice = ClubClient(server.socket_path, session=server.open_session("alice"))
                made = await alice.new_game(Side.ISHIDA, "open")
                await alice.close()
                await terminal.wait_text(made.game)  # pushed to the guest's lobby
                terminal.press(b"\r")  # join it
                await terminal.wait_text("You: bid a card for first player")
                terminal.press(b"\x0c")  # back to the lobby: the game is the guest's now
                await terminal.wait_text("1 game(s) in play")
                terminal.press(b"q")
                result = await terminal.finish()
            assert result.exit_status == 0
            async with connect(front, None, username="z", client_factory=KeyboardInteractive) as conn:  # no key at all
                terminal = await Terminal.open(conn, 100, 30)
                await terminal.wait_text("signed in as guest-z")
                terminal.press(b"q")
                await terminal.finish()
        finally:
            front.close()
            await front.wait_closed()
        lines = server.audit.lines()
        assert any(" refused front=club member=guest-y " in line and line.endswith(GUESTS_MAKE_NO_GAMES) for line in lines)
        assert sum(" sign-in front=ssh member=guest-" in line for line in lines) == 2
