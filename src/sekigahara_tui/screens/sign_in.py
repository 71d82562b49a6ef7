"""Signing in to the club from a browser: a member's name and web token.

textual-serve, which puts the app in a browser, has no authentication of its
own, so the app asks. The name and token go to the server's sign-in service
(club/web_front.py, a Unix socket named by SEKIGAHARA_SIGN_IN); a good pair
comes back as a club session token, the same kind an SSH session is given in
SEKIGAHARA_SESSION. The screen is dismissed with a SignedIn; the lobby pushes
it first when started with --web-sign-in. A member gets a web token with
`sekigahara member web-token NAME --data DIR`.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

MAX_REPLY = 4096


class SignInError(Exception):
    """The sign-in service could not be asked, or said no (the message says which)."""


@dataclass(frozen=True)
class SignedIn:
    member: str
    session: str


async def request_session(socket_path: str, member: str, token: str, timeout: float = 30.0) -> str:
    """Ask the sign-in service for a club session: the session token, or SignInError."""
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_unix_connection(socket_path, limit=MAX_REPLY), timeout)
    except (OSError, asyncio.TimeoutError) as error:
        raise SignInError("The club's sign-in service is not answering; try again later.") from error
    try:
        writer.write(json.dumps({"member": member, "token": token}).encode() + b"\n")
        await writer.drain()
        line = await asyncio.wait_for(reader.readline(), timeout)
        reply = json.loads(line)
    except (OSError, ValueError, asyncio.TimeoutError) as error:
        raise SignInError("The club's sign-in service gave no answer; try again later.") from error
    finally:
        writer.close()
    if isinstance(reply, dict) and isinstance(reply.get("session"), str):
        return reply["session"]
    problem = reply.get("error") if isinstance(reply, dict) else None
    raise SignInError(str(problem or "The club refused the sign-in."))


class SignInScreen(Screen[SignedIn]):
    """Name, then token (hidden), Enter: dismissed with a SignedIn once the club agrees."""

    DEFAULT_CSS = """
    SignInScreen { align: center middle; }
    SignInScreen #sign-in { width: 60; height: auto; border: round $accent; padding: 1 2; }
    SignInScreen #sign-in-title { text-style: bold; margin-bottom: 1; }
    SignInScreen Input { margin-bottom: 1; }
    SignInScreen #sign-in-problem { color: $error; height: auto; }
    """
    BINDINGS = [Binding("ctrl+q", "app.quit", "Quit", priority=True)]

    def __init__(self, socket_path: str) -> None:
        super().__init__()
        self.socket_path = socket_path

    def compose(self) -> ComposeResult:
        with Vertical(id="sign-in"):
            yield Static("Sign in to the Sekigahara club", id="sign-in-title")
            yield Static("Your member name and the web token your club's administrator gave you.")
            yield Input(placeholder="member name", id="member", max_length=32)
            yield Input(placeholder="web token", id="token", password=True, max_length=200)
            yield Static("", id="sign-in-problem")
        yield Footer()

    @on(Input.Submitted, "#member")
    def _name_given(self) -> None:
        self.query_one("#token", Input).focus()
        self.query_one("#sign-in-problem", Static).update("Now your web token, then Enter.")

    @on(Input.Submitted, "#token")
    def _token_given(self) -> None:
        member = self.query_one("#member", Input).value.strip()
        token = self.query_one("#token", Input).value.strip()
        if not member:
            self.query_one("#member", Input).focus()
            return
        self.query_one("#sign-in-problem", Static).update("Signing in…")
        self._sign_in(member, token)

    @work(exclusive=True)
    async def _sign_in(self, member: str, token: str) -> None:
        try:
            session = await request_session(self.socket_path, member, token)
        except SignInError as problem:
            self.query_one("#sign-in-problem", Static).update(str(problem))
            token_input = self.query_one("#token", Input)
            token_input.value = ""
            token_input.focus()
            return
        self.dismiss(SignedIn(member, session))
