"""The browser front end over real HTTP and websockets, with a real app process per session.

A stranger costs no process (issue 23, item 1): the sign-in is a form answered
in the server's process; the terminal page and its websocket are for members
with a sign-in cookie, from this club's own page, within the caps. The page is
checked for what it loads (only from this server: it must work with no
internet access). test_browser.py does the same in headless Chromium.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import stat
import sys
from pathlib import Path

import aiohttp
import pytest

from front_helpers import HERE, StubClub, WAIT
from front_vt import Screen
from sekigahara_tui.club.session_caps import SessionCaps, SessionLimits
from sekigahara_tui.club.web_front import start_web
from sekigahara_tui.club.web_sign_in import COOKIE_NAME
from sekigahara_tui.hosting.limits import FAILURES_ALLOWED
from sekigahara_tui.hosting import web_tokens
from sekigahara_tui.hosting.audit import AuditLog
from sekigahara_tui.hosting.database import STORE_FILE
from sekigahara_tui.hosting.web_tokens import check_web_token, issue_web_token

SESSION_CHILD = [sys.executable, str(HERE / "session_child.py")]
SECRET = b"s" * 32


@pytest.fixture
def club_setup(tmp_path, monkeypatch):
    monkeypatch.setattr(web_tokens, "FAILED_SIGN_IN_DELAY", 0.0)
    data_dir = tmp_path / "club"
    data_dir.mkdir()
    token = issue_web_token(data_dir, "alice")
    return StubClub(tmp_path / "club.sock"), data_dir, token


@pytest.fixture
async def served(club_setup):
    club, data_dir, token = club_setup
    audit = AuditLog(data_dir)
    front = await start_web(club, data_dir, 0, child_command=SESSION_CHILD, secret=SECRET, audit=audit)
    try:
        yield front, club, token, audit
    finally:
        await front.wait_closed()
        audit.close()


def children(parent: int | None = None) -> list[int]:
    """The children of a process (this one unless told), from /proc."""
    parent = os.getpid() if parent is None else parent
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == parent:
                found.append(int(entry.name))
    return found


def origin(front) -> dict[str, str]:
    return {"Origin": front.url.rstrip("/")}


def jar() -> aiohttp.CookieJar:
    return aiohttp.CookieJar(unsafe=True)  # the club is on 127.0.0.1: keep its cookie all the same


async def sign_in(http: aiohttp.ClientSession, front, member: str, token: str) -> aiohttp.ClientResponse:
    return await http.post(front.url + "sign-in", data={"member": member, "token": token},
                           headers=origin(front), allow_redirects=False)


class WebTerminal:
    def __init__(self, socket: aiohttp.ClientWebSocketResponse, width: int, height: int) -> None:
        self.socket = socket
        self.screen = Screen(width, height)

    async def wait_text(self, text: str) -> None:
        # Frames keep coming (the cursor blinks): give up at a deadline, not on silence.
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT
        while not self.screen.find(text):
            try:
                message = await self.socket.receive(timeout=max(0.01, deadline - loop.time()))
            except asyncio.TimeoutError:
                raise AssertionError(f"never saw {text!r}:\n{self.screen.text()}") from None
            if message.type == aiohttp.WSMsgType.BINARY:
                self.screen.feed(message.data)
            elif message.type != aiohttp.WSMsgType.TEXT:
                raise AssertionError(f"the session ended before {text!r}:\n{self.screen.text()}")

    async def ended(self) -> None:
        while (await self.socket.receive(timeout=WAIT)).type in (aiohttp.WSMsgType.BINARY, aiohttp.WSMsgType.TEXT):
            pass


def test_web_tokens_are_kept_hashed_and_private(tmp_path):
    first = issue_web_token(tmp_path, "alice")
    issue_web_token(tmp_path, "bob")
    path = tmp_path / STORE_FILE  # the club's database (member_store.py)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert all(first.encode() not in p.read_bytes() for p in tmp_path.glob(STORE_FILE + "*"))
    assert check_web_token(tmp_path, "alice", first)
    assert not check_web_token(tmp_path, "bob", first)
    assert not check_web_token(tmp_path, "carol", first)
    second = issue_web_token(tmp_path, "alice")  # a new token replaces the old
    assert check_web_token(tmp_path, "alice", second) and not check_web_token(tmp_path, "alice", first)


async def test_the_pages_load_nothing_from_the_internet(served):
    front, _, token, _ = served
    async with aiohttp.ClientSession(cookie_jar=jar()) as http:
        for signed_in in (False, True):
            if signed_in:
                (await sign_in(http, front, "alice", token)).release()
            async with http.get(front.url) as response:
                assert response.status == 200
                page = await response.text()
            assert ("data-session-websocket-url" in page) is signed_in
            loaded = re.findall(r"""(?:src|href|action)\s*=\s*["']([^"']+)["']""", page)
            assert "googleapis" not in page and not re.search(r"url\(\s*['\"]?https?://", page)
            for url in loaded:
                assert url.startswith(front.url), url
            # /records is asked of the club, which this stub is not (tests/club/test_web_records.py)
            for url in (u for u in loaded if not u.endswith(("/sign-in", "/records"))):
                async with http.get(url) as response:
                    assert response.status == 200, url
        websocket_url = re.search(r'data-session-websocket-url="([^"]+)"', page).group(1)
        assert websocket_url == f"ws://127.0.0.1:{front.port}/ws"


async def test_a_stranger_costs_no_process(served):
    front, club, token, audit = served
    before = children()
    async with aiohttp.ClientSession(cookie_jar=jar()) as http:
        # Twelve websockets from another site, and twelve without a sign-in: all refused before any process.
        for headers in [{"Origin": "http://evil.example"}] * 12 + [origin(front)] * 12:
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(front.url + "ws", headers=headers)
            assert refused.value.status == 403
        # A member's cookie does not help a page of another site.
        (await sign_in(http, front, "alice", token)).release()
        with pytest.raises(aiohttp.WSServerHandshakeError):
            await http.ws_connect(front.url + "ws", headers={"Origin": "http://evil.example"})
        async with http.get(front.url + "ws", headers=origin(front)) as response:  # not even a websocket
            assert response.status in (400, 403)
    assert children() == before and not front.server.processes
    assert club.opened == []
    lines = audit.lines()
    assert sum("refused front=web origin=http://evil.example address=127.0.0.1: a websocket from another page" in line for line in lines) == 13
    assert sum("a websocket without a sign-in" in line for line in lines) == 12


async def test_a_member_signs_in_with_a_private_cookie_and_gets_a_session(served, monkeypatch):
    front, club, token, audit = served
    monkeypatch.setenv("SERVER_SECRET_CANARY", "x")  # the server's environment stays out of the session
    async with aiohttp.ClientSession(cookie_jar=jar()) as http:
        response = await sign_in(http, front, "alice", "not-the-token")
        assert response.status == 403 and "That name and token do not match." in await response.text()
        assert COOKIE_NAME not in response.cookies
        response = await sign_in(http, front, "alice", token)
        assert response.status == 303 and response.headers["Location"] == front.url
        cookie = response.cookies[COOKIE_NAME]
        assert cookie["httponly"] and cookie["samesite"] == "Strict" and not cookie["secure"]
        assert int(cookie["max-age"]) == 14 * 86400
        assert "alice" not in cookie.value or token not in cookie.value
        assert club.opened == []  # signing in costs no session yet
        async with http.ws_connect(front.url + "ws?width=100&height=30", headers=origin(front)) as socket:
            terminal = WebTerminal(socket, 100, 30)
            await terminal.wait_text("session token-for-alice")
            assert len(front.server.processes) == 1
            await terminal.wait_text("env ")
            shown = terminal.screen.text()
            assert "SERVER_SECRET_CANARY" not in shown and "SEKIGAHARA_CLUB" in shown
            await socket.send_str(json.dumps(["stdin", "q"]))
            await terminal.ended()
    for _ in range(3000):
        if club.closed:
            break
        await asyncio.sleep(0.01)
    assert club.opened == ["alice"] and club.closed == ["token-for-alice"]
    lines = audit.lines()
    assert any("refused front=web member=alice address=127.0.0.1: wrong name or web token" in line for line in lines)
    assert any(" sign-in front=web member=alice address=127.0.0.1" in line for line in lines)


async def test_a_new_token_signs_every_browser_out(served):
    front, club, token, _ = served
    async with aiohttp.ClientSession(cookie_jar=jar()) as http:
        (await sign_in(http, front, "alice", token)).release()
        issue_web_token(front.data_dir, "alice")  # `member web-token alice --rotate`
        async with http.get(front.url) as response:
            assert "Sign in" in await response.text() and "data-session-websocket-url" not in await response.text()
        with pytest.raises(aiohttp.WSServerHandshakeError):
            await http.ws_connect(front.url + "ws", headers=origin(front))
    assert club.opened == []


async def test_a_forged_cookie_signs_nobody_in(served):
    front, club, token, _ = served
    async with aiohttp.ClientSession(cookie_jar=jar()) as http:
        response = await sign_in(http, front, "alice", token)
        value = response.cookies[COOKIE_NAME].value
        response.release()
        forged = value.replace("alice", "bobby") if "alice" in value else value[:-2] + ("AA" if value[-2:] != "AA" else "BB")
        for cookie in (forged, "", "x" * 5000):
            http.cookie_jar.clear()
            http.cookie_jar.update_cookies({COOKIE_NAME: cookie})
            with pytest.raises(aiohttp.WSServerHandshakeError):
                await http.ws_connect(front.url + "ws", headers=origin(front))
    assert club.opened == []


async def test_a_sign_in_from_another_site_is_refused(served):
    front, _, token, _ = served
    async with aiohttp.ClientSession(cookie_jar=jar()) as http:
        response = await http.post(front.url + "sign-in", data={"member": "alice", "token": token},
                                   headers={"Origin": "http://evil.example"}, allow_redirects=False)
        assert response.status == 403 and COOKIE_NAME not in response.cookies


async def test_failed_sign_ins_from_one_address_are_limited(served):
    front, _, token, audit = served
    async with aiohttp.ClientSession(cookie_jar=jar()) as http:
        for _ in range(FAILURES_ALLOWED):
            assert (await sign_in(http, front, "alice", "wrong")).status == 403
        response = await sign_in(http, front, "alice", token)  # even the right token waits now
        assert response.status == 429 and "Too many failed sign-ins" in await response.text()
        assert COOKIE_NAME not in response.cookies
    assert sum("too many failed sign-ins" in line for line in audit.lines()) == 1


async def test_a_member_over_the_cap_is_told_on_the_page_and_gets_no_process(club_setup):
    club, data_dir, token = club_setup
    audit = AuditLog(data_dir)
    front = await start_web(club, data_dir, 0, child_command=SESSION_CHILD, secret=SECRET, audit=audit,
                            caps=SessionCaps(SessionLimits(per_member=1)))
    try:
        async with aiohttp.ClientSession(cookie_jar=jar()) as http:
            (await sign_in(http, front, "alice", token)).release()
            async with http.ws_connect(front.url + "ws", headers=origin(front)) as first:
                await WebTerminal(first, 80, 24).wait_text("session token-for-alice")
                async with http.ws_connect(front.url + "ws", headers=origin(front)) as second:
                    terminal = WebTerminal(second, 80, 24)
                    await terminal.wait_text("You have 1 sessions open, at most 1 a member: close one, then connect.")
                    await terminal.ended()
                assert len(front.server.processes) == 1
    finally:
        await front.wait_closed()
        audit.close()
    assert club.opened == ["alice"]


async def test_behind_tls_the_cookie_is_secure(club_setup):
    club, data_dir, token = club_setup
    front = await start_web(club, data_dir, 0, child_command=SESSION_CHILD, secret=SECRET,
                            public_url="https://club.example.org")
    try:
        async with aiohttp.ClientSession(cookie_jar=jar()) as http:
            response = await http.post(f"http://127.0.0.1:{front.port}/sign-in", data={"member": "alice", "token": token},
                                       headers={"Origin": "https://club.example.org"}, allow_redirects=False)
            assert response.status == 303
            assert response.cookies[COOKIE_NAME]["secure"]
    finally:
        await front.wait_closed()
