"""The SSH front end with Debian's OpenSSH client, itself on a PTY of its own.

ssh runs on a local pseudo-terminal (its controlling terminal), so a resize of
that terminal reaches ssh as SIGWINCH, travels as an SSH window-change, and
reaches the app on the server's PTY: the whole chain a player's resize takes.
"""

from __future__ import annotations

import asyncio
import shutil

import asyncssh
import pytest

from front_helpers import hot_seat_app, LocalTerminal, serving, StubClub, take_the_keyboard, write_member
from helpers import needs_program
from sekigahara_tui.screens.info import HandOverScreen

SSH = shutil.which("ssh") or "/usr/bin/ssh"
pytestmark = needs_program(SSH, "the OpenSSH client (apt-get install openssh-client)")


@pytest.fixture
def setup(tmp_path):
    data_dir = tmp_path / "club"
    data_dir.mkdir()
    key = asyncssh.generate_private_key("ssh-ed25519")
    write_member(data_dir, key, "alice")
    key_file = tmp_path / "id_ed25519"
    key_file.write_bytes(key.export_private_key("openssh"))
    key_file.chmod(0o600)
    stranger = tmp_path / "stranger"
    stranger.write_bytes(asyncssh.generate_private_key("ssh-ed25519").export_private_key("openssh"))
    stranger.chmod(0o600)
    return StubClub(tmp_path / "club.sock"), data_dir, key_file, stranger


def ssh_command(port: int, key_file, *extra: str) -> list[str]:
    return [
        SSH, "-F", "/dev/null", "-p", str(port), "-i", str(key_file),
        "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
        "-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none", "-o", "LogLevel=ERROR",
        *extra, "player@127.0.0.1",
    ]


async def test_openssh_plays_the_app_and_resizes_it(setup, tmp_path):
    club, data_dir, key_file, _ = setup
    async with serving(club, data_dir, hot_seat_app(tmp_path / "saves")) as front:
        terminal = await LocalTerminal.open(ssh_command(front.port, key_file, "-tt"), 80, 24)
        try:
            await take_the_keyboard(terminal, "Ishida")  # Ishida sits down: the game screen, a bid to make
            await asyncio.sleep(HandOverScreen.SETTLE_S)  # sooner, an Enter is taken for a double tap of the hand-over's
            terminal.press(b"\r")  # bid
            await terminal.wait_text("Pass the keyboard to Tokugawa")
            _, column = terminal.screen.find("Pass the keyboard to Tokugawa")
            terminal.resize(100, 30)  # the local window: ssh gets SIGWINCH and tells the server
            await terminal.wait_for(lambda t: (t.screen.find("Pass the keyboard to Tokugawa") or (0, 0))[1] > column, "a redraw at 100 columns")
            terminal.press(b"\x11")  # ctrl+q
            assert await terminal.finish() == 0
        finally:
            await terminal.kill()
    assert club.opened == ["alice"]


async def test_openssh_without_a_pty_gets_the_message(setup):
    club, data_dir, key_file, _ = setup
    async with serving(club, data_dir, ["true"]) as front:
        process = await asyncio.create_subprocess_exec(
            *ssh_command(front.port, key_file, "-T"), stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        out, err = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 1
    assert (out + err).count(b"\n") == 1 and b"ssh -t" in out + err


async def test_openssh_with_a_wrong_key_is_refused(setup):
    club, data_dir, _, stranger = setup
    async with serving(club, data_dir, ["true"]) as front:
        process = await asyncio.create_subprocess_exec(
            *ssh_command(front.port, stranger, "-T"), stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        out, err = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 255
    assert b"Permission denied" in err
    assert club.opened == []
