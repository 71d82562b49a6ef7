"""Issue 28, fronts on other machines, the whole way: a real `sekigahara serve
--listen ... --tls-cert ... --tls-key ...`, a real `sekigahara front --ssh
... --web ...` with its credential, asyncssh's client signing in through the
front (the lobby, a game against the computer, a move played), a browser's
sign-in through the front, a member removed, a front's credential wrong or
revoked, a plain connection to the TLS door, bad certificates. The CA and the
club's certificate are made in the test (tls_certs.py). Each refusal is one
line for whoever was refused and one line in the club's audit log.
"""

from __future__ import annotations

import asyncio
import shutil
import tempfile
import time
from pathlib import Path

import aiohttp
import asyncssh
import pytest

from front_helpers import Terminal, choose_side_and_level, prompt_says
from tls_certs import make_certificates
from tls_processes import Running, audit_lines, audit_says, command
from sekigahara_tui.club.client import ClubClient
from sekigahara_tui.hosting import members


class Club:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.certs = make_certificates(root / "certs")
        self.data = members.prepare_data_dir(root / "club")
        self.key = asyncssh.generate_private_key("ssh-ed25519")
        members.add(self.data, "alice", self.key.export_public_key("openssh").decode())
        self.credential = root / "eu1.credential"
        self.port = 0
        self.serve: Running | None = None

    def front_arguments(self, credential: Path | None = None, ca: Path | None = None) -> list[str]:
        return ["front", "--club", f"127.0.0.1:{self.port}", "--tls-ca", str(ca or self.certs.ca),
                "--credential", str(credential or self.credential), "--data", str(self.root / "front")]


@pytest.fixture
async def club():
    root = Path(tempfile.mkdtemp(prefix="skt", dir="/tmp"))  # short: the club's socket path has a limit
    club = Club(root)
    status, out, err = await command("club", "front-credential", "eu1", "--data", str(club.data))
    assert status == 0, err
    club.credential.write_text(out)
    club.serve = await Running.start("serve", "--data", str(club.data), "--listen", "127.0.0.1:0",
                                     "--tls-cert", str(club.certs.cert), "--tls-key", str(club.certs.key))
    try:
        club.port = int((await club.serve.said(r"TCP 127\.0\.0\.1:(\d+) with TLS")).group(1))
        yield club
    finally:
        await club.serve.stop()
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
async def front(club):
    running = await Running.start(*club.front_arguments(), "--ssh", "127.0.0.1:0", "--web", "127.0.0.1:0")
    try:
        ssh_port = int((await running.said(r"SSH: listening on 127\.0\.0\.1:(\d+)")).group(1))
        web_url = (await running.said(r"web page: (\S+)")).group(1)
        yield running, ssh_port, web_url
    finally:
        await running.stop()


def connect(port: int, key, username: str):
    return asyncssh.connect("127.0.0.1", port, username=username, client_keys=[key], known_hosts=None, agent_path=None)


async def test_a_member_signs_in_through_the_front_sees_the_lobby_and_plays_a_move(club, front):
    _, ssh_port, _ = front
    async with connect(ssh_port, club.key, "alice") as conn:
        terminal = await Terminal.open(conn, 80, 24)
        await terminal.wait_text("signed in as alice")  # the lobby, from the club over TLS
        terminal.press(b"c")  # a game against the computer
        await terminal.wait_text("which side")
        await choose_side_and_level(terminal)
        await terminal.wait_text("You: bid a card for first player")
        await terminal.wait_text(" choices ")
        terminal.press(b"\r")  # bid the first card offered: a move, committed by the club
        await terminal.wait_for(lambda t: not prompt_says(t, "You: bid a card"), "the bid played")
        # Then our next decision, or the computer's Movement Phase told first (a summary: Enter continues it).
        await terminal.wait_for(lambda t: t.screen.find("Enter continues.") or prompt_says(t, "You: "), "the next step")
        if terminal.screen.find("Enter continues."):
            terminal.press(b"\r")
            await terminal.wait_for(lambda t: not t.screen.find("Enter continues."), "the summary closed")
        terminal.press(b"\x0c")  # back to the lobby: the game is there
        await terminal.wait_text("1 game(s) in play")
        terminal.press(b"q")
        assert (await terminal.finish()).exit_status == 0
        # A command instead of the lobby: the front asks the lobby over TLS with a session of alice's.
        result = await conn.run("records")
        assert (result.exit_status, result.stdout, result.stderr) == (0, "", "")  # the game is not over
        result = await conn.run("export nope")
        assert (result.exit_status, result.stderr) == (1, "no game 'nope' in this club\n")
    # The club decided the sign-in, and says which front asked.
    assert audit_lines(club.data, "sign-in front=ssh member=alice address=127.0.0.1 via=eu1")
    # No member's key or token is kept by the front: its DIR holds its own host key and cookie secret only.
    assert sorted(path.name for path in (club.root / "front").iterdir()) == ["club.secret", "ssh_host_ed25519_key", "ssh_host_ed25519_key.pub"]


async def test_a_browser_signs_in_through_the_front_with_the_clubs_web_token(club, front):
    _, _, url = front
    status, token, err = await command("member", "web-token", "alice", "--data", str(club.data))
    assert status == 0, err
    origin = {"Origin": url.rstrip("/")}
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        wrong = await http.post(url + "sign-in", data={"member": "alice", "token": "nope"}, headers=origin, allow_redirects=False)
        assert wrong.status == 403
        good = await http.post(url + "sign-in", data={"member": "alice", "token": token.strip()}, headers=origin, allow_redirects=False)
        assert good.status == 303
        page = await (await http.get(url)).text()
        assert "data-session-websocket-url" in page  # the terminal page: the cookie signs alice in
    assert audit_lines(club.data, "refused front=web member=alice address=127.0.0.1 via=eu1: wrong name or web token")
    assert audit_lines(club.data, "sign-in front=web member=alice address=127.0.0.1 via=eu1")


async def test_a_removed_member_is_refused_through_the_front_at_once(club, front):
    _, ssh_port, _ = front
    async with connect(ssh_port, club.key, "alice") as conn:
        terminal = await Terminal.open(conn, 80, 24)
        await terminal.wait_text("signed in as alice")
        asked = time.monotonic()
        status, _, err = await command("member", "remove", "alice", "--data", str(club.data))
        returned = time.monotonic()
        assert status == 0, err
        await terminal.finish()  # the club revoked her: the front's child is hung up
        ended = time.monotonic()
    # Said, not asserted (no timing test): the club looks every generations.CHECK_EVERY seconds.
    print(f"session ended {ended - asked:.2f} s after `member remove` started, {ended - returned:.2f} s after it returned")
    with pytest.raises(asyncssh.PermissionDenied):
        async with connect(ssh_port, club.key, "alice"):
            pass
    await audit_says(club.data, "revoked front=ssh member=alice via=eu1")


async def test_a_front_with_a_wrong_credential_is_refused_in_one_line(club):
    wrong = club.root / "wrong.credential"
    wrong.write_text("eu1:not-the-secret\n")
    running = await Running.start(*club.front_arguments(credential=wrong), "--ssh", "127.0.0.1:0")
    status, error = await running.ended()
    assert status == 1
    assert error == "sekigahara front: the club refused this front: wrong or revoked front credential\n"
    assert audit_lines(club.data, "refused front=front name=eu1 address=127.0.0.1: wrong or revoked front credential")


async def test_a_revoked_front_is_refused_at_its_next_question_and_stops_in_one_line(club, front):
    running, ssh_port, _ = front
    status, out, err = await command("club", "front-credential", "eu1", "--revoke", "--data", str(club.data))
    assert (status, out) == (0, "eu1: revoked\n"), err
    with pytest.raises(asyncssh.DisconnectError):  # its next question: refused (or the front already gone)
        async with connect(ssh_port, club.key, "alice"):
            pass
    status, error = await running.ended()
    assert status == 1
    assert error == "sekigahara front: the club refused this front: this front's credential was revoked\n"
    assert audit_lines(club.data, "refused front=front name=eu1 address=127.0.0.1: this front's credential was revoked")


async def test_a_plain_connection_to_the_tls_door_is_refused_cleanly(club):
    status, token, _ = await command("member", "web-token", "alice", "--data", str(club.data))
    status, _, error = await command("club", "--connect", f"127.0.0.1:{club.port}", "--member", "alice",
                                     env={"SEKIGAHARA_TOKEN": token.strip()})
    assert status == 1
    assert error.count("\n") == 1 and "takes TLS only" in error, error
    # A raw plain connection gets the refusal as a line, then the end.
    reader, writer = await asyncio.open_connection("127.0.0.1", club.port)
    writer.write(b'{"type":"club_hello","version":2}\n')
    assert b"takes TLS only" in await reader.readline()
    assert await reader.read() == b""
    writer.close()
    await audit_says(club.data, "refused front=tcp address=127.0.0.1: a plain connection to the TLS door")
    # The door still takes TLS clients.
    client = ClubClient(None, member="alice", token=token.strip(), tcp=("127.0.0.1", club.port), tls_ca=str(club.certs.ca))
    try:
        assert await client.connect() == "alice"
    finally:
        await client.close()


async def test_a_front_that_does_not_trust_the_clubs_certificate_says_so_in_one_line(club):
    running = await Running.start(*club.front_arguments(ca=club.certs.other_ca), "--ssh", "127.0.0.1:0")
    status, error = await running.ended()
    assert status == 1
    assert error.count("\n") == 1 and error.startswith("sekigahara front: cannot reach the club at 127.0.0.1:")
    assert "certificate verify failed" in error
    await audit_says(club.data, "refused front=tcp address=127.0.0.1: TLS handshake failed")


@pytest.mark.parametrize("which, said", [
    ("key", "cannot use the certificate"),  # a key that is not the certificate's
    ("missing", "No such file or directory"),
])
async def test_a_bad_certificate_for_serve_is_one_line_and_exit_status_2(tmp_path, which, said):
    certs = make_certificates(tmp_path / "certs")
    other = make_certificates(tmp_path / "other")
    key = other.key if which == "key" else tmp_path / "none.key"
    status, _, error = await command("serve", "--data", str(tmp_path / "club"), "--listen", "127.0.0.1:0",
                                     "--tls-cert", str(certs.cert), "--tls-key", str(key))
    assert status == 2
    assert error.count("\n") == 1 and error.startswith("sekigahara serve: cannot use the certificate") and said in error, error
    assert not (tmp_path / "club" / "club.json").exists()
