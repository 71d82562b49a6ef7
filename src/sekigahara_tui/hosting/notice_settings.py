"""Each member's notice settings (issue 24): a webhook (URL and format), a
mail address, and which kinds of notice they want; and whether their
notices keep failing, which their lobby shows.

Kept in the club store (DATA_DIR/club.sqlite or PostgreSQL: database.py, table `notice_settings`) and
in memory: on SQLite a notice looks its member up without touching the disk;
on PostgreSQL (several hosts) it reads the member's row, which any host may
have changed. A
setting is checked before anything is stored (`check_settings`), each
problem one line.
"""

from __future__ import annotations

import re
from pathlib import Path

import httpx
from attrs import evolve, frozen

from rules.surface import printable
from sekigahara_tui.hosting.database import Error, club_location, connect, is_postgresql
from sekigahara_tui.hosting.notices import DEFAULT_KINDS, FORMATS, KINDS

SCHEMA = """
CREATE TABLE IF NOT EXISTS notice_settings (
    member TEXT PRIMARY KEY,
    webhook TEXT,
    webhook_format TEXT NOT NULL DEFAULT 'json',
    mail TEXT,
    kinds TEXT NOT NULL,          -- the kinds wanted, comma-separated
    failures INTEGER NOT NULL DEFAULT 0,  -- deliveries given up since the last that went through
    failing TEXT                  -- the last failure, once failures reached TELL_AFTER: the lobby shows it
);
"""
MAX_URL = 500
MAX_MAIL = 254
TELL_AFTER = 3  # deliveries given up in a row before the member's lobby says so
_MAIL = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9-]{1,63}(\.[A-Za-z0-9-]{1,63})+")


def mail_address(text: str) -> bool:
    """Whether `text` is a plain mail address (local@domain.tld): all a notice needs."""
    return len(text) <= MAX_MAIL and _MAIL.fullmatch(text) is not None


class SettingsError(ValueError):
    """A notice setting that cannot be taken; one line. Nothing is changed."""


@frozen
class MemberNotices:
    webhook: str | None = None
    webhook_format: str = "json"
    mail: str | None = None
    kinds: frozenset[str] = DEFAULT_KINDS
    failures: int = 0
    failing: str | None = None

    def wants(self, kind: str) -> bool:
        return kind in self.kinds and (self.webhook is not None or self.mail is not None)


def check_settings(
    webhook: str | None, webhook_format: str, mail: str | None, kinds: tuple[str, ...], *, mail_offered: bool, allow_private: bool
) -> MemberNotices:
    """The settings, checked: SettingsError (one line) for the first problem.
    Where a webhook may reach is checked again, address by address, at each
    sending (webhook_guard.py); here only its form."""
    if webhook is not None:
        if len(webhook) > MAX_URL or not webhook.isprintable():
            raise SettingsError(f"a webhook URL is at most {MAX_URL} printable characters")
        try:
            url = httpx.URL(webhook)
        except (httpx.InvalidURL, ValueError) as error:
            raise SettingsError(f"not a URL: {printable(str(error), 80)}") from None
        schemes = ("https", "http") if allow_private else ("https",)
        if url.scheme not in schemes:
            raise SettingsError("a webhook URL must begin https://" + ("" if not allow_private else " or http://"))
        if not url.host:
            raise SettingsError("a webhook URL needs a host")
        if url.userinfo:
            raise SettingsError("a webhook URL may not hold a user name or password")
    if webhook_format not in FORMATS:
        raise SettingsError(f"the webhook format is one of {', '.join(FORMATS)}, not {printable(webhook_format, 20)!r}")
    if mail is not None:
        if not mail_offered:
            raise SettingsError("this club sends no mail (its server was started without --smtp)")
        if not mail_address(mail):
            raise SettingsError(f"not a mail address: {printable(mail, 60)!r}")
    unknown = [kind for kind in kinds if kind not in KINDS]
    if unknown:
        raise SettingsError(f"no notice kind {printable(unknown[0], 20)!r}; the kinds are {', '.join(KINDS)}")
    if len(set(kinds)) != len(kinds):
        raise SettingsError("a notice kind is named twice")
    return MemberNotices(webhook, webhook_format, mail, frozenset(kinds))


SELECT = "SELECT member, webhook, webhook_format, mail, kinds, failures, failing FROM notice_settings"


def _settings(row: tuple) -> tuple[str, MemberNotices]:
    member, webhook, form, mail, kinds, failures, failing = row
    return member, MemberNotices(webhook, form, mail, frozenset(kind for kind in kinds.split(",") if kind in KINDS), failures, failing)


class NoticeSettings:
    """The members' notice settings: read once, kept in memory, written through."""

    def __init__(self, data_dir: Path) -> None:
        location = club_location(Path(data_dir))
        self._db = connect(location, wal=True, timeout=10)
        self._db.script(SCHEMA)
        # Several hosts (PostgreSQL): a member may change them through any host, and a game's
        # notices go from the host that owns it now: each look reads the member's row (one
        # indexed SELECT a notice). One host (SQLite): it alone writes them, memory is enough.
        self._shared = is_postgresql(location)
        self._settings: dict[str, MemberNotices] = dict(map(_settings, self._db.execute(SELECT)))

    def close(self) -> None:
        self._db.close()

    def of(self, member: str) -> MemberNotices:
        if self._shared:
            try:
                row = self._db.execute(SELECT + " WHERE member = ?", (member,)).fetchone()
            except Error:
                pass  # the database away: as last read
            else:
                if row is None:
                    self._settings.pop(member, None)
                else:
                    self._settings[member] = _settings(row)[1]
        return self._settings.get(member) or MemberNotices()

    def warning(self, member: str) -> str | None:
        """What the member's lobby says of their notices: why they keep failing."""
        failing = self.of(member).failing
        return None if failing is None else f"Your notices keep failing ({failing}); check them with s"

    def set(self, member: str, settings: MemberNotices) -> None:
        """New settings (checked by check_settings): the failures start afresh."""
        self._write(member, evolve(settings, failures=0, failing=None))

    def delivered(self, member: str) -> bool:
        """A notice reached the member: True if their lobby's warning went."""
        before = self.of(member)
        if before.failures == 0 and before.failing is None:
            return False
        self._write(member, evolve(before, failures=0, failing=None))
        return before.failing is not None

    def failed(self, member: str, reason: str) -> bool:
        """A notice was given up: True if the member's lobby is to say so now."""
        before = self.of(member)
        failures = before.failures + 1
        failing = printable(reason, 120) if failures >= TELL_AFTER else before.failing
        self._write(member, evolve(before, failures=failures, failing=failing))
        return failing != before.failing

    def _write(self, member: str, settings: MemberNotices) -> None:
        with self._db.write():
            self._db.execute(
                "INSERT OR REPLACE INTO notice_settings (member, webhook, webhook_format, mail, kinds, failures, failing)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (member, settings.webhook, settings.webhook_format, settings.mail, ",".join(sorted(settings.kinds)),
                 settings.failures, settings.failing),
            )
        self._settings[member] = settings
