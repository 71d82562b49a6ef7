"""Issue 23, items 1 and 3: `sekigahara member web-token NAME --rotate` signs
out at once everything signed in with the old web token, and nothing else.

Everything real: `sekigahara serve --listen --ssh --web` in a process of its
own, the member added and the tokens issued with the real CLI, a browser's
session over real HTTP and a websocket (with its own `sekigahara club`
process, a child of the server, counted in /proc), a lobby connection over
TCP signed in with the web token, and an SSH session (asyncssh's client, the
member's key). After the rotation: the open page is told in one line and
closed and its process ends, the TCP lobby connection is closed, the old
cookie and the old token open nothing, the new token signs in, and the SSH
session (signed in by key) stays. The club looks every
generations.CHECK_EVERY seconds; the deadlines (WAIT) mean "never", not
"late" (the machine may be loaded).
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import sys
import tempfile
from pathlib import Path

import aiohttp
import asyncssh
import pytest

import sekigahara_tui
from front_helpers import WAIT, Terminal
from sekigahara_tui.club.client import ClubClient, ClubRefused
from sekigahara_tui.club.web_front import SIGNED_OUT
from sekigahara_tui.hosting.lobby import WEB_TOKEN_REPLACED
from test_revocation_fronts import until
from test_web_front import WebTerminal, children, jar

SRC = str(Path(sekigahara_tui.__file__).resolve().parents[1])  # the code under test, in the CLI's processes too
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [SRC, os.environ.get("PYTHONPATH")]))}


async def sekigahara(*arguments: str) -> str:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "sekigahara_tui", *arguments, env=ENV,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0, out
    return out.decode()


class Served:
    """`sekigahara serve` running, and where it listens."""

    def __init__(self, process: asyncio.subprocess.Process, lines: list[str]) -> None:
        self.process = process
        self.tcp = re.search(r", TCP ([0-9.]+):(\d+)$", lines[0]).groups()
        self.tcp = (self.tcp[0], int(self.tcp[1]))
        ssh = next(line for line in lines if line.startswith("SSH: listening on "))
        self.ssh_port = int(ssh.split()[3].rsplit(":", 1)[1])
        self.url = next(line for line in lines if line.startswith("web page: ")).split()[2]
        self.origin = {"Origin": self.url.rstrip("/")}

    @property
    def children(self) -> set[int]:
        return set(children(self.process.pid))


@pytest.fixture
async def club():
    scratch = Path(tempfile.mkdtemp(prefix="skr", dir="/tmp"))  # short: a socket's path has a limit
    data_dir = scratch / "club"
    key = asyncssh.generate_private_key("ssh-ed25519")
    (scratch / "alice.pub").write_bytes(key.export_public_key("openssh"))
    process = None
    try:
        await sekigahara("member", "add", "alice", "--key", str(scratch / "alice.pub"), "--data", str(data_dir))
        token = (await sekigahara("member", "web-token", "alice", "--data", str(data_dir))).strip()
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "sekigahara_tui", "serve", "--data", str(data_dir),
            "--listen", "127.0.0.1:0", "--ssh", "127.0.0.1:0", "--web", "127.0.0.1:0", env=ENV,
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
        )
        lines: list[str] = []
        while not lines or not lines[-1].startswith("web page: "):
            line = await asyncio.wait_for(process.stdout.readline(), WAIT)
            assert line, f"the server ended: {lines}"
            lines.append(line.decode().rstrip("\n"))
        yield Served(process, lines), data_dir, key, token
    finally:
        if process is not None and process.returncode is None:
            process.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(process.wait(), WAIT)
            finally:
                if process.returncode is None:  # a failing test must not leave a server running
                    process.kill()
                    await process.wait()
        shutil.rmtree(scratch, ignore_errors=True)


async def sign_in(http: aiohttp.ClientSession, served: Served, token: str) -> None:
    async with http.post(served.url + "sign-in", data={"member": "alice", "token": token},
                         headers=served.origin, allow_redirects=False) as response:
        assert response.status == 303, await response.text()


async def open_page(http: aiohttp.ClientSession, served: Served) -> WebTerminal:
    socket = await http.ws_connect(served.url + "ws?width=100&height=30", headers=served.origin)
    page = WebTerminal(socket, 100, 30)
    await page.wait_text("signed in as alice")
    return page


async def test_a_rotated_web_token_closes_its_pages_and_tcp_lobby_at_once_and_leaves_ssh(club):
    served, data_dir, key, old_token = club
    ssh = await asyncssh.connect("127.0.0.1", served.ssh_port, username="alice", client_keys=[key],
                                 known_hosts=None, agent_path=None)
    http = aiohttp.ClientSession(cookie_jar=jar())
    lobby = ClubClient(None, member="alice", token=old_token, tcp=served.tcp)
    try:
        # The server's own children (the computer's worker processes) are not sessions.
        own = served.children
        # An SSH session (by key), then a browser's page (the old token's cookie), then a TCP lobby (the old token).
        terminal = await Terminal.open(ssh, 80, 24)
        await terminal.wait_text("signed in as alice")
        (ssh_child,) = served.children - own
        await sign_in(http, served, old_token)
        page = await open_page(http, served)
        (page_child,) = served.children - own - {ssh_child}
        assert await lobby.connect() == "alice"
        lost: list[str] = []
        lobby.on_lost = lost.append

        new_token = (await sekigahara("member", "web-token", "alice", "--rotate", "--data", str(data_dir))).strip()

        # The page is told in one line, and closed (WebTerminal's own deadline
        # may not come while the page's frames keep coming: wait_for's does).
        await asyncio.wait_for(page.wait_text(SIGNED_OUT), WAIT)
        await asyncio.wait_for(page.ended(), WAIT)
        await until(lambda: page_child not in served.children, "the page's client process end")
        await until(lambda: bool(lost), "the TCP lobby connection closed")
        assert lost == [WEB_TOKEN_REPLACED]
        # The SSH session stays, its process and its lobby with it.
        assert served.children - own == {ssh_child} and not terminal.process.is_closing()
        assert not terminal.screen.find("replaced") and not terminal.screen.find("sign in again")

        # The old cookie opens no page; the old token signs nobody in; the new one does.
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await http.ws_connect(served.url + "ws", headers=served.origin)
        assert refused.value.status == 403
        with pytest.raises(ClubRefused, match="do not match"):
            await lobby.lobby()
        await sign_in(http, served, new_token)
        again = await open_page(http, served)
        assert len(served.children - own - {ssh_child}) == 1
        await again.socket.close()
        new_lobby = ClubClient(None, member="alice", token=new_token, tcp=served.tcp)
        assert await new_lobby.connect() == "alice"
        await new_lobby.close()
        assert served.children >= {ssh_child} and not terminal.process.is_closing()
    finally:
        await lobby.close()
        await http.close()
        ssh.close()
    lines = (data_dir / "audit.log").read_text().splitlines()
    for expected, count in ((" web-token front=cli member=alice: replaced", 1),
                            (" signed-out front=web member=alice address=127.0.0.1: the web token was replaced", 1),
                            (" signed-out front=tcp member=alice address=127.0.0.1", 1),
                            (" revoked ", 0), (" signed-out front=ssh", 0)):
        assert sum(expected in line for line in lines) == count, (expected, lines)
