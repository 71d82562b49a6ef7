"""The SSH front end over real SSH connections, real PTYs and real processes.

The client is asyncssh's; test_openssh_client.py does the same with Debian's
`ssh`. Children are the real Textual app (hot seat) or winch_child.py, which
reports the window size each time SIGWINCH reaches it.
"""

from __future__ import annotations

import asyncio
import os
import stat

import asyncssh
import pytest

from front_helpers import connect, hot_seat_app, serving, StubClub, take_the_keyboard, Terminal, WINCH_CHILD, write_member
from sekigahara_tui.club.ssh_host_key import HOST_KEY_NAME
from sekigahara_tui.screens.info import HandOverScreen


@pytest.fixture
def data_dir(tmp_path):
    path = tmp_path / "club"
    path.mkdir()
    return path


@pytest.fixture
def club(tmp_path):
    return StubClub(tmp_path / "club.sock")


@pytest.fixture
def alice_key(data_dir):
    key = asyncssh.generate_private_key("ssh-ed25519")
    write_member(data_dir, key, "alice")
    return key


async def test_resizes_reach_the_child_through_its_controlling_terminal(club, data_dir, alice_key):
    async with serving(club, data_dir, WINCH_CHILD) as front, connect(front, alice_key) as conn:
        terminal = await Terminal.open(conn, 80, 24, env={"COLORTERM": "truecolor", "LD_PRELOAD": "/evil.so", "SECRET": "x"})
        await terminal.wait_raw("size 80x24 controlling=True")
        terminal.resize(100, 30)
        await terminal.wait_raw("size 100x30 controlling=True")
        terminal.resize(120, 40)
        await terminal.wait_raw("size 120x40 controlling=True")
        terminal.press(b"x")
        await terminal.wait_raw("key b'x'")
        terminal.press(b"q")
        result = await terminal.finish()
    assert result.exit_status == 3  # the child's own status closes the channel
    text = terminal.raw.decode()
    assert "env TERM=xterm-256color" in text
    assert "env COLORTERM=truecolor" in text
    assert "env LANG=C.UTF-8" in text and "env LC_ALL=C.UTF-8" in text
    assert f"env SEKIGAHARA_CLUB={club.socket_path}" in text
    assert "env SEKIGAHARA_SESSION=token-for-alice" in text
    assert "env LD_PRELOAD=-" in text and "env SECRET=-" in text  # the client sets nothing else
    assert club.opened == ["alice"] and club.closed == ["token-for-alice"]


async def test_the_app_at_80x24_takes_keys_and_redraws_at_a_new_size(club, data_dir, alice_key, tmp_path):
    async with serving(club, data_dir, hot_seat_app(tmp_path / "saves")) as front, connect(front, alice_key) as conn:
        terminal = await Terminal.open(conn, 80, 24)
        await take_the_keyboard(terminal, "Ishida")  # Ishida sits down: the game screen, a bid to make
        await asyncio.sleep(HandOverScreen.SETTLE_S)  # sooner, an Enter is taken for a double tap of the hand-over's
        terminal.press(b"\r")  # bid the first card offered: the decision passes to Tokugawa
        await terminal.wait_text("Pass the keyboard to Tokugawa")
        row, column = terminal.screen.find("Pass the keyboard to Tokugawa")
        terminal.resize(100, 30)
        # Redrawn at 100x30: the hand-over text sits centred in the wider window.
        await terminal.wait_for(lambda t: (t.screen.find("Pass the keyboard to Tokugawa") or (0, 0))[1] > column, "a redraw at 100 columns")
        terminal.press(b"\x11")  # ctrl+q
        result = await terminal.finish()
    assert result.exit_status == 0
    assert list((tmp_path / "saves" / "autosaves").glob("*-hot-seat.json"))  # the bid was really played


async def test_a_session_without_a_pty_gets_one_line_and_status_1(club, data_dir, alice_key):
    async with serving(club, data_dir, WINCH_CHILD) as front, connect(front, alice_key) as conn:
        result = await conn.run(encoding=None)
        command = await conn.run("ls /", encoding=None, term_type="xterm", term_size=(80, 24))
    assert result.exit_status == 1
    assert result.stderr.count(b"\n") == 1 and b"ssh -t" in result.stderr
    assert command.exit_status == 1 and b"with no command" in command.stderr + command.stdout
    assert club.opened == []


@pytest.mark.parametrize("size", [(79, 24), (80, 23)])
async def test_a_terminal_smaller_than_80x24_gets_one_line_and_status_1(club, data_dir, alice_key, size):
    async with serving(club, data_dir, WINCH_CHILD) as front, connect(front, alice_key) as conn:
        result = await conn.run(encoding=None, term_type="xterm", term_size=size)
    assert result.exit_status == 1
    output = result.stdout + result.stderr
    assert output.count(b"\n") == 1 and f"{size[0]}x{size[1]}".encode() in output and b"80x24" in output
    assert club.opened == []


async def test_a_wrong_key_is_refused(club, data_dir, alice_key):
    stranger = asyncssh.generate_private_key("ssh-ed25519")
    async with serving(club, data_dir, WINCH_CHILD) as front:
        with pytest.raises(asyncssh.PermissionDenied):
            async with connect(front, stranger, username="alice"):
                pass
        with pytest.raises(asyncssh.PermissionDenied):  # no key at all
            async with connect(front, None, username="alice", password="alice", client_factory=KeyboardInteractive):
                pass
    assert club.opened == []


class KeyboardInteractive(asyncssh.SSHClient):
    def kbdint_auth_requested(self) -> str:
        return ""

    def kbdint_challenge_received(self, name, instructions, lang, prompts):
        return [""] * len(prompts)


async def test_guest_mode_lets_anyone_in_under_a_guest_name(club, data_dir, alice_key):
    stranger = asyncssh.generate_private_key("ssh-ed25519")
    async with serving(club, data_dir, WINCH_CHILD, guest=True) as front:
        # A stranger choosing a member's name gets the guest version of it.
        async with connect(front, stranger, username="alice") as conn:
            terminal = await Terminal.open(conn)
            await terminal.wait_raw("env SEKIGAHARA_SESSION=token-for-guest-alice")
            terminal.press(b"q")
            await terminal.finish()
        # Without a key: keyboard-interactive with no questions.
        async with connect(front, None, username="bob", client_factory=KeyboardInteractive) as conn:
            terminal = await Terminal.open(conn)
            await terminal.wait_raw("env SEKIGAHARA_SESSION=token-for-guest-bob")
            terminal.press(b"q")
            await terminal.finish()
        # A member's key is still the member.
        async with connect(front, alice_key, username="whoever") as conn:
            terminal = await Terminal.open(conn)
            await terminal.wait_raw("env SEKIGAHARA_SESSION=token-for-alice")
            terminal.press(b"q")
            await terminal.finish()
    assert club.opened == ["guest-alice", "guest-bob", "alice"]


async def test_the_host_key_is_private_and_survives_a_restart(club, data_dir, alice_key):
    fingerprints = []
    for _ in range(2):
        async with serving(club, data_dir, WINCH_CHILD) as front, connect(front, alice_key) as conn:
            fingerprints.append(conn.get_server_host_key().get_fingerprint())
    assert stat.S_IMODE((data_dir / HOST_KEY_NAME).stat().st_mode) == 0o600
    assert fingerprints[0] == fingerprints[1]
    assert asyncssh.read_private_key(str(data_dir / HOST_KEY_NAME)).get_fingerprint() == fingerprints[0]


async def test_a_dropped_connection_hangs_up_the_child(club, data_dir, alice_key):
    async with serving(club, data_dir, WINCH_CHILD) as front:
        conn = await connect(front, alice_key)
        terminal = await Terminal.open(conn)
        await terminal.wait_raw("size 80x24")
        pid = int(terminal.raw.decode().split("pid ")[1].split()[0])
        assert front.children == {pid: "alice"}
        conn.abort()  # no goodbye: the TCP connection just goes
        for _ in range(300):
            if not front.children:
                break
            await asyncio.sleep(0.05)
        assert front.children == {}
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    assert club.closed == ["token-for-alice"]
