"""Issue 28 with issue 23, item 3: members, their SSH keys and web tokens are
the club's database's, so with two club hosts over one PostgreSQL a member
added through one host's DIR signs in on the other (by key over SSH, by web
token over TCP), a token rotated through one is refused on both, and
`member remove` on the shared database ends the member's connections on
EVERY host (each host's generation check, generations.CHECK_EVERY) and their
key and token fail everywhere.

Everything real: a PostgreSQL server (tests/pg_server.py), two `sekigahara
serve --store postgresql://...` processes with DIRs of their own, the
`sekigahara member` commands in processes of their own, asyncssh's client on
host B's SSH front, protocol clients over TCP. The deadlines mean "never",
not "late"; the time from the removal to the last connection's end is
printed (what the report says), not asserted (the test sees the commit by polling the members table).
"""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time

import asyncssh
import pytest

from club_helpers import fake_key, reap, short_tmp, start_serve, stop_serve, wait_until
from helpers import needs_program
from pg_server import INITDB, WHAT
from rules.sides import Side
from sekigahara_tui.club.client import ClubClient, ClubRefused
from sekigahara_tui.club.serve import club_address
from sekigahara_tui.hosting import members
from sekigahara_tui.hosting.audit import AUDIT_FILE
from sekigahara_tui.hosting.database import connect

pytestmark = needs_program(INITDB, WHAT)
DEADLINE = 60.0


def member(*arguments: str) -> str:
    """The real `sekigahara member ...` (it must succeed): its output."""
    done = subprocess.run([sys.executable, "-m", "sekigahara_tui", "member", *arguments],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def two_hosts(postgres):
    url = postgres.new_database()
    dirs = [members.prepare_data_dir(short_tmp() / name) for name in ("a", "b")]
    ssh_port = free_port()
    servers = []
    try:
        servers.append(start_serve(dirs[0], "--store", url, "--listen", "127.0.0.1:0", "--computer-workers", "1"))
        servers.append(start_serve(dirs[1], "--store", url, "--listen", "127.0.0.1:0", "--computer-workers", "1",
                                   "--ssh", f"127.0.0.1:{ssh_port}"))
        yield url, dirs, [tuple(club_address(d)["tcp"]) for d in dirs], ssh_port
        for server in servers:
            stop_serve(server)
    finally:
        for server in servers:
            reap(server)


def ssh_to(port: int, key: asyncssh.SSHKey, username: str = "alice"):
    return asyncssh.connect("127.0.0.1", port, username=username, client_keys=[key], known_hosts=None, agent_path=None)


async def test_a_member_added_through_one_host_is_everywhere_and_removed_through_it_ends_everywhere(two_hosts, tmp_path):
    url, (dir_a, dir_b), (tcp_a, tcp_b), ssh_port = two_hosts
    key = asyncssh.generate_private_key("ssh-ed25519")
    (tmp_path / "alice.pub").write_bytes(key.export_public_key("openssh"))
    member("add", "alice", "--key", str(tmp_path / "alice.pub"), "--data", str(dir_a))  # through host A's DIR only
    members.add(dir_a, "bob", fake_key())
    token = member("web-token", "alice", "--data", str(dir_a))
    assert not (dir_b / "authorized_keys").exists() and not (dir_b / "web_tokens").exists()  # nothing of hers in B's DIR

    # Signed in on both hosts with the one token; a seat on each; SSH on B with the key added through A.
    lobby_a = ClubClient(None, member="alice", token=token, tcp=tcp_a)
    lobby_b = ClubClient(None, member="alice", token=token, tcp=tcp_b)
    lost: list[ClubClient] = []
    for lobby in (lobby_a, lobby_b):
        lobby.on_lost = lambda _reason, lobby=lobby: lost.append(lobby)
    seats, tasks = [], []
    for lobby in (lobby_a, lobby_b):
        entry = await lobby.new_game(Side.ISHIDA, "computer")
        seat = lobby.seat_client(entry)
        seats.append(seat)
        tasks.append(asyncio.create_task(seat.run()))
    for seat in seats:
        await seat.wait_for(lambda c: c.connected, DEADLINE)
    ssh = await ssh_to(ssh_port, key)

    # A rotation through A: the old token is refused on B, the new one signs in there.
    new_token = member("web-token", "alice", "--rotate", "--data", str(dir_a))
    with pytest.raises(ClubRefused, match="do not match"):
        await ClubClient(None, member="alice", token=token, tcp=tcp_b).connect()
    await wait_until(lambda: len(lost) == 2, "both hosts to sign out the lobbies of the old token", DEADLINE)
    lobby_b2 = ClubClient(None, member="alice", token=new_token, tcp=tcp_b)
    await lobby_b2.lobby()
    assert all(seat.connected for seat in seats)  # seats are the member's, not the token's

    removing = asyncio.create_task(asyncio.to_thread(member, "remove", "alice", "--data", str(dir_a)))
    db = connect(url)
    try:  # the removal's commit, seen from a connection of the test's own
        await wait_until(lambda: db.execute("SELECT 1 FROM members WHERE name = 'alice'").fetchone() is None,
                         "the removal to be committed", DEADLINE)
    finally:
        db.close()
    committed = time.monotonic()
    await asyncio.wait_for(ssh.wait_closed(), DEADLINE)  # host B's SSH front disconnected her
    await asyncio.wait_for(asyncio.gather(*tasks), DEADLINE)  # both seats closed, each by its own host
    await wait_until(lambda: not lobby_b2.connected, "B's lobby to be closed", DEADLINE)
    print(f"member remove through host A: every connection of hers on A and B closed {time.monotonic() - committed:.2f} s"
          " after the removal was committed")
    await removing
    for seat in seats:
        assert (seat.fatal.kind, seat.fatal.reason) == ("not-authorised", "alice is no longer a member of this club")
    for tcp in (tcp_a, tcp_b):
        with pytest.raises(ClubRefused, match="do not match"):
            await ClubClient(None, member="alice", token=new_token, tcp=tcp).connect()
    with pytest.raises(asyncssh.PermissionDenied):
        async with ssh_to(ssh_port, key):
            pass
    assert [m.name for m in members.list_members(dir_b)] == ["bob"]  # B's DIR sees the database's members
    for lobby in (lobby_a, lobby_b, lobby_b2):
        await lobby.close()
    for data_dir in (dir_a, dir_b):  # each host revoked her: one line in its own audit log
        lines = (data_dir / AUDIT_FILE).read_text().splitlines()
        assert sum(" revoked front=club member=alice" in line for line in lines) == 1, lines
