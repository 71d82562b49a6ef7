"""Issue 23, item 2: one member cannot take every SSH slot, and strangers cost
no more than a few connections (docs/ssh.md, "Limits").

Real SSH connections on loopback (asyncssh's client here; Debian's `ssh` in
the last test), real PTYs, real child processes (`cat`, which lives until its
session ends). Every refusal is one line to the client and one line in the
audit log.
"""

from __future__ import annotations

import asyncio
import shutil

import asyncssh
import pytest

from front_helpers import LocalTerminal, StubClub, connect, serving, write_member
from helpers import needs_program
from sekigahara_tui.club.session_caps import SessionCaps, SessionLimits
from sekigahara_tui.club.ssh_front import SSHLimits
from sekigahara_tui.hosting.audit import AuditLog

CHILD = ["cat"]  # a session's process: lives until the session is hung up


@pytest.fixture
def data_dir(tmp_path):
    path = tmp_path / "club"
    path.mkdir()
    return path


@pytest.fixture
def keys(data_dir):
    alice, bob = asyncssh.generate_private_key("ssh-ed25519"), asyncssh.generate_private_key("ssh-ed25519")
    write_member(data_dir, alice, "alice")
    write_member(data_dir, bob, "bob")
    return alice, bob


@pytest.fixture
def audit(data_dir):
    log = AuditLog(data_dir)
    yield log
    log.close()


async def open_session(conn) -> asyncssh.SSHClientProcess:
    return await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)


async def refused_line(process: asyncssh.SSHClientProcess) -> tuple[int, bytes]:
    """A refused session's exit status and everything it wrote."""
    result = await asyncio.wait_for(process.wait(), 30)
    return result.exit_status, (result.stdout or b"") + (result.stderr or b"")


async def running(front, count: int) -> None:
    """Wait until `count` sessions have their child process (a failure after 30 s)."""
    for _ in range(3000):
        if len(front.children) == count:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{len(front.children)} children, not {count}")


async def test_a_member_over_the_cap_is_told_in_one_line_and_another_member_still_gets_in(tmp_path, data_dir, keys, audit):
    alice, bob = keys
    club = StubClub(tmp_path / "club.sock")
    caps = SessionCaps(SessionLimits(per_member=3))
    async with serving(club, data_dir, CHILD, limits=SSHLimits(sessions_per_connection=2), caps=caps, audit=audit) as front:
        # Three sessions over two connections: the member's cap, not a connection's.
        async with connect(front, alice) as first, connect(front, alice) as second:
            held = [await open_session(first), await open_session(first), await open_session(second)]
            await running(front, 3)
            status, output = await refused_line(await open_session(second))
            assert status == 1
            assert output == b"You have 3 sessions open, at most 3 a member: close one, then connect.\r\n"
            assert len(front.children) == 3  # no process for the refused session
            async with connect(front, bob) as other:  # another member is not held up
                held.append(await open_session(other))
                await running(front, 4)
            for process in held:
                process.close()
    assert club.opened == ["alice", "alice", "alice", "bob"]
    refusals = [line for line in audit.lines() if " refused " in line]
    assert len(refusals) == 1
    assert "refused front=ssh member=alice address=127.0.0.1: You have 3 sessions open, at most 3 a member" in refusals[0]


async def test_a_connection_over_its_cap_is_told_in_one_line(tmp_path, data_dir, keys, audit):
    alice, _ = keys
    club = StubClub(tmp_path / "club.sock")
    async with serving(club, data_dir, CHILD, limits=SSHLimits(sessions_per_connection=2), audit=audit) as front:
        async with connect(front, alice) as conn:
            held = [await open_session(conn), await open_session(conn)]
            await running(front, 2)
            status, output = await refused_line(await open_session(conn))
            assert (status, output) == (1, b"This connection has 2 sessions open, at most 2: close one first.\r\n")
            async with connect(front, alice) as another:  # the member may still open another connection
                held.append(await open_session(another))
                await running(front, 3)
            for process in held:
                process.close()
    assert len(club.opened) == 3


async def test_a_session_that_ends_gives_its_slot_back(tmp_path, data_dir, keys):
    alice, _ = keys
    club = StubClub(tmp_path / "club.sock")
    async with serving(club, data_dir, CHILD, caps=SessionCaps(SessionLimits(per_member=1))) as front:
        async with connect(front, alice) as conn:
            process = await open_session(conn)
            await running(front, 1)
            process.stdin.write_eof()  # cat ends: the session ends
            await asyncio.wait_for(process.wait(), 30)
            await running(front, 0)
            again = await open_session(conn)
            await running(front, 1)
            again.close()
    assert club.opened == ["alice", "alice"]


async def test_strangers_hold_at_most_the_unauthenticated_cap(tmp_path, data_dir, keys, audit):
    alice, _ = keys
    club = StubClub(tmp_path / "club.sock")
    async with serving(club, data_dir, CHILD, limits=SSHLimits(unauthenticated=2), audit=audit) as front:
        idle = [await asyncio.open_connection("127.0.0.1", front.port) for _ in range(2)]
        for reader, _ in idle:  # the server has taken them: its banner arrived
            assert (await asyncio.wait_for(reader.readline(), 30)).startswith(b"SSH-2.0-")
        # A third connection not yet signed in is closed at once, whoever it is.
        reader, writer = await asyncio.open_connection("127.0.0.1", front.port)
        await asyncio.wait_for(reader.read(), 30)  # the server closes it: its greeting and a disconnect, then EOF
        assert reader.at_eof() and not any(idle_reader.at_eof() for idle_reader, _ in idle)
        writer.close()
        with pytest.raises((asyncssh.Error, OSError)):
            async with connect(front, alice):
                pass
        for _, idle_writer in idle:
            idle_writer.close()
        for _ in range(3000):  # the server sees them go
            if front.unauthenticated == 0:
                break
            await asyncio.sleep(0.01)
        assert front.unauthenticated == 0
        async with connect(front, alice) as conn:  # a signed-in member holds no stranger's slot
            assert front.unauthenticated == 0
            process = await open_session(conn)
            await running(front, 1)
            process.close()
    lines = audit.lines()
    assert sum("too many connections not yet signed in" in line for line in lines) == 2
    assert sum(" sign-in front=ssh member=alice address=127.0.0.1" in line for line in lines) == 1


async def test_a_stranger_who_never_signs_in_is_dropped_after_the_grace_time(tmp_path, data_dir, keys, audit):
    club = StubClub(tmp_path / "club.sock")
    async with serving(club, data_dir, CHILD, limits=SSHLimits(login_grace=1.0), audit=audit) as front:
        reader, writer = await asyncio.open_connection("127.0.0.1", front.port)
        await asyncio.wait_for(reader.readline(), 30)
        await asyncio.wait_for(reader.read(), 30)  # closed by the server after 1 s, long before 30 s
        assert reader.at_eof()
        writer.close()
        for _ in range(3000):
            if front.unauthenticated == 0:
                break
            await asyncio.sleep(0.01)
        assert front.unauthenticated == 0
    assert any("refused front=ssh address=127.0.0.1: left without signing in" in line for line in audit.lines())


async def test_a_wrong_key_is_one_refusal_line_in_the_audit_log(tmp_path, data_dir, keys, audit):
    club = StubClub(tmp_path / "club.sock")
    stranger = asyncssh.generate_private_key("ssh-ed25519")
    async with serving(club, data_dir, CHILD, audit=audit) as front:
        with pytest.raises(asyncssh.PermissionDenied):
            async with connect(front, stranger, username="alice"):
                pass
        for _ in range(3000):
            if front.unauthenticated == 0:
                break
            await asyncio.sleep(0.01)
    lines = audit.lines()
    assert len(lines) == 1 and "refused front=ssh address=127.0.0.1: left without signing in (1 keys offered, none a member's)" in lines[0]


SSH = shutil.which("ssh") or "/usr/bin/ssh"


def ssh_command(port: int, key_file, *extra: str) -> list[str]:
    return [
        SSH, "-F", "/dev/null", "-p", str(port), "-i", str(key_file),
        "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
        "-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none", "-o", "LogLevel=ERROR",
        *extra, "player@127.0.0.1",
    ]


@needs_program(SSH, "the OpenSSH client (apt-get install openssh-client)")
async def test_openssh_over_the_member_cap_gets_one_line(tmp_path, data_dir, keys, audit):
    alice, _ = keys
    key_file = tmp_path / "id_ed25519"
    key_file.write_bytes(alice.export_private_key("openssh"))
    key_file.chmod(0o600)
    club = StubClub(tmp_path / "club.sock")
    async with serving(club, data_dir, CHILD, caps=SessionCaps(SessionLimits(per_member=1)), audit=audit) as front:
        async with connect(front, alice) as conn:
            held = await open_session(conn)
            await running(front, 1)
            terminal = await LocalTerminal.open(ssh_command(front.port, key_file, "-tt"), 80, 24)
            try:
                await terminal.wait_text("at most 1 a member")
                assert await terminal.finish() == 1
            finally:
                await terminal.kill()
            held.close()
    lines = [line.rstrip() for line in terminal.screen.text().splitlines() if line.strip()]
    assert lines == ["You have 1 sessions open, at most 1 a member: close one, then connect."]
