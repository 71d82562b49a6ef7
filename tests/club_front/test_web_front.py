"""The browser front end over real HTTP and websockets, with a real app process per session.

The page is checked for what it loads (only from this server: it must work
with no internet access); then the websocket textual-serve's page opens is
driven as the page drives it: the handshake, the app's first frame (the
sign-in screen), keys, and the club session a good token gets.
test_browser.py does the same in headless Chromium.
"""

from __future__ import annotations

import asyncio
import json
import re
import stat
import sys

import aiohttp
import pytest

from front_helpers import HERE, StubClub, WAIT
from front_vt import Screen
from sekigahara_tui.hosting import web_tokens
from sekigahara_tui.club.web_front import start_web
from sekigahara_tui.hosting.web_tokens import WEB_TOKENS_NAME, check_web_token, issue_web_token

SIGN_IN_CHILD = [sys.executable, str(HERE / "sign_in_child.py")]


@pytest.fixture
def club_setup(tmp_path, monkeypatch):
    monkeypatch.setattr(web_tokens, "FAILED_SIGN_IN_DELAY", 0.0)
    data_dir = tmp_path / "club"
    data_dir.mkdir()
    token = issue_web_token(data_dir, "alice")
    return StubClub(tmp_path / "club.sock"), data_dir, token


def test_web_tokens_are_kept_hashed_and_private(tmp_path):
    first = issue_web_token(tmp_path, "alice")
    issue_web_token(tmp_path, "bob")
    path = tmp_path / WEB_TOKENS_NAME
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert first not in path.read_text()
    assert check_web_token(tmp_path, "alice", first)
    assert not check_web_token(tmp_path, "bob", first)
    assert not check_web_token(tmp_path, "carol", first)
    second = issue_web_token(tmp_path, "alice")  # a new token replaces the old
    assert check_web_token(tmp_path, "alice", second) and not check_web_token(tmp_path, "alice", first)


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

    async def type(self, *keys: str) -> None:
        """Each key in a message of its own, as the page sends them."""
        for key in keys:
            await self.socket.send_str(json.dumps(["stdin", key]))


async def test_the_page_loads_nothing_from_the_internet(club_setup):
    club, data_dir, _ = club_setup
    front = await start_web(club, data_dir, 0, child_command=SIGN_IN_CHILD)
    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(front.url) as response:
                assert response.status == 200
                page = await response.text()
            loaded = re.findall(r"""(?:src|href)\s*=\s*["']([^"']+)["']""", page)
            assert any(url.endswith("js/textual.js") for url in loaded)
            assert any(url.endswith("css/xterm.css") for url in loaded)
            assert "googleapis" not in page
            assert not re.search(r"url\(\s*['\"]?https?://", page)
            for url in loaded:
                assert url.startswith(front.url), url
                async with http.get(url) as response:
                    assert response.status == 200, url
            websocket_url = re.search(r'data-session-websocket-url="([^"]+)"', page).group(1)
            assert websocket_url == f"ws://127.0.0.1:{front.port}/ws"
    finally:
        await front.wait_closed()


async def test_the_websocket_signs_a_member_in(club_setup):
    club, data_dir, token = club_setup
    front = await start_web(club, data_dir, 0, child_command=SIGN_IN_CHILD)
    try:
        async with aiohttp.ClientSession() as http:
            async with http.ws_connect(f"ws://127.0.0.1:{front.port}/ws?width=100&height=30") as socket:
                terminal = WebTerminal(socket, 100, 30)
                await terminal.wait_text("Sign in to the Sekigahara club")  # the app's first frame
                # Each step waits to be seen before the next, as a person looks before typing on.
                await terminal.type("alice")
                await terminal.wait_text("alice")
                await terminal.type("\r")
                await terminal.wait_text("Now your web token")
                await terminal.type("not-the-token")
                await terminal.wait_text("•" * len("not-the-token"))  # hidden, in the token field
                await terminal.type("\r")
                await terminal.wait_text("That name and token do not match.")
                assert club.opened == []
                await terminal.type(token)
                await terminal.wait_text("•" * len(token))
                await terminal.type("\r")
                await terminal.wait_text("signed in as alice (token-for-alice)")
                assert club.opened == ["alice"]
                await socket.send_str(json.dumps(["ping", "x"]))
    finally:
        await front.wait_closed()
    assert not front.sign_in.directory.exists()
