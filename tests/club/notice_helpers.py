"""Real receivers for the notice tests, on loopback only: an HTTP server
(aiohttp) that takes webhooks, an SMTP server (aiosmtpd) that takes mail,
and a plain TCP listener that counts who connects (a request the guard
refused must not even connect)."""

from __future__ import annotations

import asyncio
import socket
from email import message_from_bytes
from email.message import Message

import pytest
from aiohttp import web
from aiosmtpd.controller import Controller
from attrs import define, field

from rules.surface import BOTH_SIDES, default_components


@define
class Received:
    path: str
    host: str
    body: object


@define(eq=False)
class WebhookReceiver:
    """Answers each POST with the next status of `statuses` (the last one
    repeats); a 302 redirects to `redirect_to`."""

    statuses: list[int] = field(factory=lambda: [204])
    redirect_to: str | None = None
    received: list[Received] = field(factory=list)
    arrived: asyncio.Event = field(factory=asyncio.Event)
    runner: web.AppRunner | None = None
    port: int = 0

    def url(self, path: str = "/hook", host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}{path}"

    async def start(self) -> WebhookReceiver:
        app = web.Application()
        app.router.add_post("/{tail:.*}", self._post)
        self.runner = web.AppRunner(app)
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # noqa: SLF001 - aiohttp names no public port for port 0
        return self

    async def _post(self, request: web.Request) -> web.Response:
        self.received.append(Received(request.path, request.headers.get("Host", ""), await request.json()))
        self.arrived.set()
        status = self.statuses[min(len(self.received), len(self.statuses)) - 1]
        if status == 302:
            return web.Response(status=302, headers={"Location": self.redirect_to or "/"})
        return web.Response(status=status)

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()


@define(eq=False)
class MailReceiver:
    """An SMTP server (aiosmtpd, in its own thread) keeping every mail."""

    mails: list[tuple[str, list[str], Message]] = field(factory=list)
    controller: Controller | None = None
    port: int = 0

    async def handle_DATA(self, server, session, envelope) -> str:  # noqa: N802 - aiosmtpd's name
        self.mails.append((envelope.mail_from, list(envelope.rcpt_tos), message_from_bytes(envelope.content)))
        return "250 OK"

    def start(self) -> MailReceiver:
        self.port = free_port()
        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)
        self.controller.start()
        return self

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()


@define(eq=False)
class Knocks:
    """A TCP listener that counts connections and closes each."""

    count: int = 0
    server: asyncio.AbstractServer | None = None
    port: int = 0

    async def start(self, host: str = "127.0.0.1") -> Knocks:
        self.server = await asyncio.start_server(self._knock, host, 0)
        self.port = self.server.sockets[0].getsockname()[1]
        return self

    async def _knock(self, reader, writer) -> None:
        self.count += 1
        writer.close()

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()


@pytest.fixture
async def receiver():
    """A webhook receiver on loopback (imported by the tests that use it)."""
    receiver = await WebhookReceiver().start()
    yield receiver
    await receiver.stop()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def secret_names(side) -> set[str]:
    """Every block id and card id of `side` (the components in data/): what a
    notice to the other side must never name."""
    components = default_components()
    return {block.id for block in components.blocks_of(side)} | {card.id for card in components.cards_of(side)}


def names_in(text: str, side) -> set[str]:
    lowered = text.lower()
    return {name for name in secret_names(side) if name.lower() in lowered}


__all__ = ["BOTH_SIDES", "Knocks", "MailReceiver", "Received", "WebhookReceiver", "names_in", "secret_names"]
