"""The browser front end in headless Chromium: the sign-in form, the page, the terminal.

Chromium is driven over its DevTools protocol (a websocket): it loads the
club's page, which starts the terminal emulator shipped in textual-serve and
opens the session's websocket; keys go in as a person types them; what the
page receives on its websocket is read into a screen. The test also records
every request the browser makes: none leaves this machine.
Without Chromium it is skipped on a developer's machine and fails under CI
(.ci/run installs Debian's chromium).
"""

from __future__ import annotations

import asyncio
import base64
import itertools
import json
import shutil
import signal
from urllib.parse import parse_qs, urlparse

import aiohttp

from front_helpers import WAIT, real_club
from front_vt import Screen
from helpers import needs_program
from sekigahara_tui.hosting import web_tokens
from sekigahara_tui.club.web_front import start_web
from sekigahara_tui.hosting.web_tokens import issue_web_token

CHROMIUM = next((path for name in ("chromium", "chromium-browser", "google-chrome") if (path := shutil.which(name))), None)
pytestmark = needs_program(CHROMIUM, "Chromium (apt-get install chromium)")


class DevTools:
    """A page of a headless Chromium, over the DevTools protocol."""

    def __init__(self, process: asyncio.subprocess.Process, http: aiohttp.ClientSession, socket) -> None:
        self.process, self.http, self.socket = process, http, socket
        self.ids = itertools.count(1)
        self.answers: dict[int, asyncio.Future] = {}
        self.events: list[dict] = []
        self.changed = asyncio.Event()
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def launch(cls, profile) -> DevTools:
        process = await asyncio.create_subprocess_exec(
            CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--remote-debugging-port=0", f"--user-data-dir={profile}", "--window-size=1280,900", "about:blank",
            stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE, start_new_session=True,
        )
        endpoint = None
        while endpoint is None:
            line = await asyncio.wait_for(process.stderr.readline(), WAIT)
            if not line:
                raise AssertionError("Chromium ended without opening its DevTools port")
            if b"DevTools listening on " in line:
                endpoint = line.split(b"DevTools listening on ", 1)[1].strip().decode()
        asyncio.create_task(_drain(process.stderr))
        port = urlparse(endpoint).port
        http = aiohttp.ClientSession()
        async with http.get(f"http://127.0.0.1:{port}/json/list") as response:
            targets = await response.json(content_type=None)
        page = next(target for target in targets if target["type"] == "page")
        socket = await http.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0)
        return cls(process, http, socket)

    async def _read(self) -> None:
        async for message in self.socket:
            data = json.loads(message.data)
            if "id" in data:
                future = self.answers.pop(data["id"], None)
                if future is not None and not future.done():
                    future.set_result(data)
            else:
                self.events.append(data)
                self.changed.set()

    async def call(self, method: str, **params):
        number = next(self.ids)
        answer = asyncio.get_running_loop().create_future()
        self.answers[number] = answer
        await self.socket.send_str(json.dumps({"id": number, "method": method, "params": params}))
        result = await asyncio.wait_for(answer, WAIT)
        if "error" in result:
            raise AssertionError(f"{method}: {result['error']}")
        return result.get("result", {})

    async def close(self) -> None:
        try:
            await self.socket.close()
            await self.http.close()
        finally:
            if self.process.returncode is None:
                self.process.send_signal(signal.SIGTERM)
                try:
                    await asyncio.wait_for(self.process.wait(), 10)
                except asyncio.TimeoutError:
                    self.process.kill()
                    await self.process.wait()


async def _drain(stream: asyncio.StreamReader) -> None:
    while await stream.read(65536):
        pass


class PageTerminal:
    """What the page's terminal shows: the app's frames the page received, in order."""

    def __init__(self, browser: DevTools) -> None:
        self.browser = browser
        self.screen: Screen | None = None
        self.seen = 0

    def _catch_up(self) -> None:
        for event in self.browser.events[self.seen :]:
            method, params = event.get("method"), event.get("params", {})
            if method == "Network.webSocketCreated" and urlparse(params["url"]).path == "/ws":
                query = parse_qs(urlparse(params["url"]).query)
                self.screen = Screen(int(query["width"][0]), int(query["height"][0]))
            elif method == "Network.webSocketFrameSent" and self.screen is not None:
                message = params["response"]["payloadData"]
                if message.startswith('["resize"'):
                    size = json.loads(message)[1]
                    self.screen.resize(size["width"], size["height"])
            elif method == "Network.webSocketFrameReceived" and self.screen is not None:
                frame = params["response"]
                if frame["opcode"] == 2:
                    self.screen.feed(base64.b64decode(frame["payloadData"]))
        self.seen = len(self.browser.events)

    async def wait_text(self, text: str, *alternatives: str) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT
        while True:
            self._catch_up()
            if self.screen is not None and any(self.screen.find(each) for each in (text, *alternatives)):
                return
            self.browser.changed.clear()
            try:
                await asyncio.wait_for(self.browser.changed.wait(), max(0.01, deadline - loop.time()))
            except asyncio.TimeoutError:
                shown = self.screen.text() if self.screen else "(no terminal websocket)"
                raise AssertionError(f"the page never showed {text!r}:\n{shown}") from None


async def test_chromium_signs_in_and_reaches_the_lobby(monkeypatch):
    monkeypatch.setattr(web_tokens, "FAILED_SIGN_IN_DELAY", 0.0)
    async with real_club("alice") as (club, data_dir, _):
        token = issue_web_token(data_dir, "alice")
        front = await start_web(club, data_dir, 0)  # the real session: `sekigahara club`
        try:
            await drive_chromium(front, token, data_dir / "chromium")
        finally:
            await front.wait_closed()


async def wait_for_page(browser: DevTools, expression: str, what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while loop.time() < deadline:
        result = await browser.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if result.get("result", {}).get("value") is True:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"the page never showed {what}")


async def drive_chromium(front, token: str, profile) -> None:
    browser = await DevTools.launch(profile)
    try:
        await browser.call("Network.enable")
        await browser.call("Page.enable")
        await browser.call("Page.navigate", url=front.url)
        await wait_for_page(browser, "document.querySelector('form #token') !== null", "the sign-in form")
        assert not any(event.get("method") == "Network.webSocketCreated" for event in browser.events)
        await browser.call("Runtime.evaluate", expression="document.querySelector('#member').focus()")
        await browser.call("Input.insertText", text="alice")
        await browser.call("Runtime.evaluate", expression="document.querySelector('#token').focus()")
        await browser.call("Input.insertText", text=token)
        await browser.call("Runtime.evaluate", expression="document.querySelector('form').requestSubmit()")
        terminal = PageTerminal(browser)  # the form's answer is the terminal page, whose websocket carries the cookie
        await terminal.wait_text("Sekigahara club")
        await browser.call("Runtime.evaluate", expression="document.querySelector('.xterm-helper-textarea').focus()")

        async def enter() -> None:
            for kind in ("keyDown", "keyUp"):
                await browser.call("Input.dispatchKeyEvent", type=kind, key="Enter", code="Enter",
                                   windowsVirtualKeyCode=13, nativeVirtualKeyCode=13, **({"text": "\r"} if kind == "keyDown" else {}))

        await terminal.wait_text("Sekigahara club: signed in as alice.")  # the real lobby, from the real club
        # ... and a game in the browser: against the computer, a bid by keys, answered by the club.
        await browser.call("Input.insertText", text="c")
        await terminal.wait_text("which side")  # the side, then the computer's level (issue 25)
        await enter()
        await terminal.wait_text("You play Ishida")  # the levels have the keys now
        await enter()
        await terminal.wait_text("You: bid a card")
        await enter()
        # The bid answered: its outcome on the message line, or, when the computer
        # has played on by then (first player, its Movement Phase), the summary
        # of its moves (issue 27, item 9) over that line.
        await terminal.wait_text("Done: Bid: ", "Tokugawa's movement")
        requested = [event["params"]["request"]["url"] for event in browser.events if event.get("method") == "Network.requestWillBeSent"]
        requested += [event["params"]["url"] for event in browser.events if event.get("method") == "Network.webSocketCreated"]
        assert requested and all(urlparse(url).hostname == "127.0.0.1" for url in requested), requested
    finally:
        await browser.close()
