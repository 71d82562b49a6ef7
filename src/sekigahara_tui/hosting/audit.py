"""The club's audit log: one line per sign-in, refusal, member change and
revocation (issue 23), in DATA_DIR/audit.log, rotated by size.

A line is `TIME EVENT key=value ... [: reason]`, for example

    2026-11-25T15:40:01Z refused front=ssh member=alice address=203.0.113.7: 4 sessions open, at most 4 a member

Values come from strangers (an SSH user name, a web Origin), so each is
quoted when it holds anything but plain characters: a line can never be split
or forged by what a client sends. The server's own warnings and errors (the
`asyncio` logger's "socket.send() raised exception" under a flood, say) go to
the same file instead of stderr (`take_server_logs`).
"""

from __future__ import annotations

import logging
import re
import time
from logging.handlers import RotatingFileHandler
from pathlib import Path

AUDIT_FILE = "audit.log"
MAX_BYTES = 5_000_000  # a file; the oldest of BACKUPS + 1 files is dropped
BACKUPS = 5
_PLAIN = re.compile(r"[A-Za-z0-9._:/@+-]{1,200}")
_SERVER_LOGGERS = ("asyncio", "asyncssh", "aiohttp", "sekigahara_tui")


def quoted(value: object) -> str:
    """A value as one token of a line: plain as it is, else in quotes with
    every control character and quote escaped (repr's rules), cut at 200."""
    text = str(value)
    if _PLAIN.fullmatch(text):
        return text
    return _escape(text[:200])


def _escape(text: str) -> str:
    escaped = text.encode("unicode_escape").decode("ascii").replace('"', '\\"')
    return f'"{escaped}"'


class _UTCFormatter(logging.Formatter):
    converter = time.gmtime

    def __init__(self) -> None:
        super().__init__("%(asctime)sZ %(message)s", datefmt="%Y-%m-%dT%H:%M:%S")


class AuditLog:
    """Writes audit lines to DATA_DIR/audit.log (made 0600: it names members
    and their addresses). `close()` releases the file."""

    def __init__(self, data_dir: Path, max_bytes: int = MAX_BYTES, backups: int = BACKUPS) -> None:
        self.path = Path(data_dir) / AUDIT_FILE
        self.path.touch(mode=0o600, exist_ok=True)
        self.handler = RotatingFileHandler(self.path, maxBytes=max_bytes, backupCount=backups, encoding="utf-8")
        self.handler.setFormatter(_UTCFormatter())
        # One logger per file: two clubs in one process (the tests) keep apart.
        self.logger = logging.getLogger(f"sekigahara.audit.{self.path.resolve()}")
        for old in list(self.logger.handlers):
            self.logger.removeHandler(old)
        self.logger.addHandler(self.handler)
        self.logger.setLevel(logging.INFO)
        self.logger.propagate = False
        self._taken: list[logging.Logger] = []

    def record(self, event: str, reason: str = "", **fields: object) -> None:
        """One line: `event`, the fields given (None ones left out), and the reason."""
        parts = [quoted(event)]
        parts += [f"{name}={quoted(value)}" for name, value in fields.items() if value is not None]
        line = " ".join(parts)
        if reason:
            line += ": " + _one_line(reason)
        self.logger.info(line)

    def take_server_logs(self) -> None:
        """Send the server's own warnings and errors here, not to stderr."""
        for name in _SERVER_LOGGERS:
            logger = logging.getLogger(name)
            logger.addHandler(self.handler)
            logger.propagate = False
            if logger.level == logging.NOTSET or logger.level < logging.WARNING:
                logger.setLevel(logging.WARNING)
            self._taken.append(logger)

    def lines(self) -> list[str]:
        """The current file's lines (for tests and `sekigahara` tools)."""
        self.handler.flush()
        return self.path.read_text(encoding="utf-8").splitlines()

    def close(self) -> None:
        for logger in self._taken:
            logger.removeHandler(self.handler)
        self._taken.clear()
        self.logger.removeHandler(self.handler)
        self.handler.close()


class NoAuditLog:
    """The audit log of a club served without one (a test's): lines go nowhere."""

    def record(self, event: str, reason: str = "", **fields: object) -> None:
        pass


def _one_line(text: str) -> str:
    """A reason on one line: control characters escaped, cut at 300."""
    text = text[:300]
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)
