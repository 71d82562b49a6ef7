"""Sending notices (issue 24) without ever holding up a game.

`NoticeQueue.send(member, notice)` returns at once: each of the member's
channels (their webhook, their mail) is delivered by a task of its own, at
most SENDING_AT_ONCE at a time and at most MAX_PENDING waiting (more are
dropped, with an audit line). A delivery that fails for a while (a network
error, an HTTP 5xx or 429, an SMTP error) is tried again after a back-off
that doubles from `first_delay` up to `longest_delay`, `attempts` times in
all; one that cannot succeed (a webhook the guard refuses, a redirect, an
HTTP 4xx, a refused recipient) is not tried again. Each failure is one line
in the audit log; a delivery given up counts against the member, and after
TELL_AFTER in a row (notice_settings.py) their lobby says so (`on_warning`).

Webhooks go through httpx to the address the guard checked
(webhook_guard.py); mail through the SMTP relay the server was given
(`serve --smtp HOST:PORT --mail-from ADDR`) with the standard library's
smtplib, in a thread. Notices still waiting when the server stops are lost
(they are reminders, not records).
"""

from __future__ import annotations

import asyncio
import smtplib
import ssl
from typing import Awaitable, Callable

import httpx
from attrs import frozen

from rules.surface import printable
from sekigahara_tui.hosting.audit import AuditLog, NoAuditLog
from sekigahara_tui.hosting.notice_settings import NoticeSettings
from sekigahara_tui.hosting.notices import Notice
from sekigahara_tui.hosting.webhook_guard import WebhookRefused, check_webhook, post_webhook, webhook_client

SENDING_AT_ONCE = 8
MAX_PENDING = 1000
ATTEMPTS = 5
FIRST_DELAY = 30.0  # seconds before the second attempt
LONGEST_DELAY = 1800.0


class Permanent(Exception):
    """A delivery that trying again will not mend."""


@frozen
class NoticeOptions:
    """How the server sends notices (`serve --smtp --mail-from
    --notify-allow-private --notify-resume`)."""

    allow_private: bool = False
    smtp: tuple[str, int] | None = None
    mail_from: str | None = None
    resume: str | None = None  # how a notice says to resume: `ssh -p PORT HOST` or a web link

    @property
    def mail_offered(self) -> bool:
        return self.smtp is not None and self.mail_from is not None


class NoticeQueue:
    def __init__(
        self,
        settings: NoticeSettings,
        options: NoticeOptions = NoticeOptions(),
        audit: AuditLog | NoAuditLog | None = None,
        *,
        on_warning: Callable[[str], None] = lambda member: None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        attempts: int = ATTEMPTS,
        first_delay: float = FIRST_DELAY,
        longest_delay: float = LONGEST_DELAY,
    ) -> None:
        self.settings = settings
        self.options = options
        self.audit = audit if audit is not None else NoAuditLog()
        self.on_warning = on_warning  # the member's lobby warning came or went
        self.sleep = sleep
        self.attempts = attempts
        self.first_delay = first_delay
        self.longest_delay = longest_delay
        self.sent = 0  # deliveries that went through
        self._sending = asyncio.Semaphore(SENDING_AT_ONCE)
        self._tasks: set[asyncio.Task] = set()
        self._client: httpx.AsyncClient | None = None

    def wants(self, member: str, kind: str) -> bool:
        return self.settings.of(member).wants(kind)

    def send(self, member: str, notice: Notice) -> None:
        """Deliver `notice` to `member` by each channel they chose; returns at once."""
        chosen = self.settings.of(member)
        if not chosen.wants(notice.kind):
            return
        channels = [channel for channel, given in (("webhook", chosen.webhook), ("mail", chosen.mail)) if given]
        for channel in channels:
            if channel == "mail" and not self.options.mail_offered:
                continue
            if len(self._tasks) >= MAX_PENDING:
                self.audit.record("notice-dropped", f"{MAX_PENDING} notices waiting already", member=member, game=notice.game, channel=channel)
                continue
            try:
                task = asyncio.get_running_loop().create_task(self._deliver(member, channel, notice))
            except RuntimeError:  # no loop: a game changed outside the server (nobody to tell then)
                return
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def idle(self) -> None:
        """Wait until every delivery under way has succeeded or been given up (tests)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._client is not None:
            await self._client.aclose()

    # --- one delivery ----------------------------------------------------------------

    async def _deliver(self, member: str, channel: str, notice: Notice) -> None:
        delay = self.first_delay
        reason = ""
        for attempt in range(1, self.attempts + 1):
            settings = self.settings.of(member)  # changed meanwhile: the new address
            try:
                async with self._sending:
                    if channel == "webhook":
                        await self._post(settings.webhook, settings.webhook_format, notice)
                    else:
                        await self._mail(settings.mail, notice)
            except (Permanent, WebhookRefused) as error:
                reason = str(error)
                self.audit.record("notice-refused", reason, member=member, game=notice.game, channel=channel)
                break
            except Exception as error:  # noqa: BLE001 - any failure of the far end is tried again
                reason = _reason(error)
                self.audit.record("notice-failed", reason, member=member, game=notice.game, channel=channel, attempt=f"{attempt}/{self.attempts}")
                if attempt < self.attempts:
                    await self.sleep(delay)
                    delay = min(delay * 2, self.longest_delay)
            else:
                self.sent += 1
                if self.settings.delivered(member):
                    self.on_warning(member)
                return
        else:
            self.audit.record("notice-gave-up", reason, member=member, game=notice.game, channel=channel, attempts=self.attempts)
        if self.settings.failed(member, f"{channel}: {reason}"):
            self.on_warning(member)

    async def _post(self, url: str | None, form: str, notice: Notice) -> None:
        if url is None:
            raise Permanent("no webhook set any more")
        target = await check_webhook(url, self.options.allow_private)
        if self._client is None:
            self._client = webhook_client()
        response = await post_webhook(self._client, target, notice.webhook_body(form))
        if response.status_code == 429 or response.status_code >= 500:
            raise RuntimeError(f"HTTP {response.status_code}")
        if response.status_code >= 400:
            raise Permanent(f"the webhook answered HTTP {response.status_code}")

    async def _mail(self, to: str | None, notice: Notice) -> None:
        if to is None:
            raise Permanent("no mail address set any more")
        assert self.options.smtp is not None and self.options.mail_from is not None
        message = notice.mail(self.options.mail_from, to)
        await asyncio.to_thread(_send_mail, self.options.smtp, message)


def _send_mail(relay: tuple[str, int], message) -> None:
    """One mail through the relay (STARTTLS when it offers it); in a thread."""
    with smtplib.SMTP(relay[0], relay[1], timeout=30) as smtp:
        smtp.ehlo()
        if smtp.has_extn("starttls"):
            smtp.starttls(context=ssl.create_default_context())
            smtp.ehlo()
        try:
            smtp.send_message(message)
        except smtplib.SMTPRecipientsRefused as error:
            raise Permanent(f"the mail relay refused the recipient: {printable(str(error.recipients), 80)}") from None


def _reason(error: Exception) -> str:
    text = str(error) or type(error).__name__
    if isinstance(error, OSError) and error.strerror:
        text = error.strerror
    return printable(text, 120)
