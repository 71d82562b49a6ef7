"""Issue 23, item 3, the whole way: a member with a live SSH session, a seat
over TCP and a browser session is removed with the real `sekigahara member
remove`, while the club runs. The club notices (it looks every
generations.CHECK_EVERY seconds) and every one of them is closed, the client
processes of both fronts end, and nothing of it comes back when the name is
added again (with another person's key and a new web token).

Everything real: the club server, asyncssh's client against the SSH front and
its `sekigahara club` child, aiohttp against the web front and its child, a
protocol client over TCP, the CLI in processes of its own. The deadlines mean
"never", not "late" (the machine may be loaded).
"""

from __future__ import annotations

import asyncio
import sys

import aiohttp
import asyncssh
import pytest

from front_helpers import WAIT, Terminal, connect, real_club
from sekigahara_tui.club.client import ClubClient, ClubRefused
from sekigahara_tui.club.ssh_front import start_ssh
from sekigahara_tui.club.web_front import start_web
from sekigahara_tui.hosting.web_tokens import issue_web_token
from sekigahara_tui.net.client import Client
from rules.sides import Side
from test_web_front import WebTerminal, jar, origin, sign_in


async def member_command(*arguments: str) -> str:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "sekigahara_tui", "member", *arguments,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0, out
    return out.decode()


async def until(predicate, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while not predicate():
        assert loop.time() < deadline, f"never saw {what}"
        await asyncio.sleep(0.02)


@pytest.fixture
async def fronts():
    async with real_club("alice") as (server, data_dir, key):
        ssh = await start_ssh(server, data_dir, 0, "127.0.0.1", audit=server.audit)  # the default child: `sekigahara club`
        web = await start_web(server, data_dir, 0, audit=server.audit)
        tcp = await server.listen_tcp("127.0.0.1", 0)
        try:
            yield server, data_dir, key, ssh, web, tcp
        finally:
            ssh.close()
            await ssh.wait_closed()
            await web.wait_closed()


async def test_member_remove_ends_the_ssh_session_the_tcp_seat_and_the_browser_and_a_new_alice_gets_none_back(fronts, tmp_path):
    server, data_dir, key, ssh, web, tcp = fronts
    web_token = issue_web_token(data_dir, "alice")
    # Over SSH: the lobby, in a `sekigahara club` process.
    conn = await connect(ssh, key, username="alice")
    terminal = await Terminal.open(conn, 80, 24)
    await terminal.wait_text("signed in as alice")
    # Over TCP: the lobby with the web token, and a seat of a game against the computer.
    lobby = ClubClient(None, member="alice", token=web_token, tcp=tcp)
    entry = await lobby.new_game(Side.ISHIDA, "computer")
    seat = lobby.seat_client(entry)
    seat_task = asyncio.create_task(seat.run())
    await seat.wait_for(lambda c: c.connected, WAIT)
    # In a browser: signed in, the cookie kept, a session with its own process.
    http = aiohttp.ClientSession(cookie_jar=jar())
    try:
        (await sign_in(http, web, "alice", web_token)).release()
        socket = await http.ws_connect(web.url + "ws?width=80&height=24", headers=origin(web))
        browser = WebTerminal(socket, 80, 24)
        await browser.wait_text("signed in as alice")
        assert len(ssh.children) == 1 and len(web.server.processes) == 1

        await member_command("remove", "alice", "--data", str(data_dir))

        await asyncio.wait_for(conn.wait_closed(), WAIT)  # the SSH front disconnected her
        await until(lambda: not ssh.children, "the SSH session's process end")
        await browser.wait_text("alice is no longer a member of this club.")
        await browser.ended()
        await until(lambda: not web.server.processes, "the browser session's process end")
        await asyncio.wait_for(seat_task, WAIT)
        assert (seat.fatal.kind, seat.fatal.reason) == ("not-authorised", "alice is no longer a member of this club")
        with pytest.raises(aiohttp.WSServerHandshakeError):  # the cookie signs nobody in
            await http.ws_connect(web.url + "ws", headers=origin(web))
        with pytest.raises(asyncssh.PermissionDenied):
            async with connect(ssh, key, username="alice"):
                pass

        # alice again, someone else this time: a new key, a new web token.
        other = asyncssh.generate_private_key("ssh-ed25519")
        (tmp_path / "other.pub").write_bytes(other.export_public_key("openssh"))
        await member_command("add", "alice", "--key", str(tmp_path / "other.pub"), "--data", str(data_dir))
        new_token = (await member_command("web-token", "alice", "--data", str(data_dir))).strip()
        server.generations.revoke_removed()  # what the club's next look does: nothing of the old alice is left to close
        with pytest.raises(aiohttp.WSServerHandshakeError):  # the old cookie still signs nobody in
            await http.ws_connect(web.url + "ws", headers=origin(web))
        with pytest.raises(asyncssh.PermissionDenied):
            async with connect(ssh, key, username="alice"):
                pass
        with pytest.raises(ClubRefused, match="do not match"):
            await ClubClient(None, member="alice", token=web_token, tcp=tcp).connect()
        old_seat = Client(seat.address, entry.game, entry.seat, entry.token)
        await asyncio.wait_for(old_seat.run(), WAIT)
        assert (old_seat.fatal.kind, old_seat.fatal.reason) == ("not-authorised", "wrong token for the ishida seat, or no such game here")
        new_alice = ClubClient(None, member="alice", token=new_token, tcp=tcp)
        assert (await new_alice.enter(entry.game)).token != entry.token
        await new_alice.close()
    finally:
        await http.close()
        await lobby.close()
    lines = server.audit.lines()
    for expected in (" member-removed front=cli member=alice", " revoked front=club member=alice: 4 connections closed, 2 sessions ended",
                     " revoked front=ssh member=alice: 1 sessions ended, 1 connections closed", " revoked front=web member=alice: 1 sessions ended",
                     " member-added front=cli member=alice: 1 keys added", " web-token front=cli member=alice: issued"):
        assert sum(expected in line for line in lines) == 1, (expected, lines)
