"""Unexpected errors: the traceback goes to a log file, the terminal gets one line.

A traceback on the terminal is of no use to a player and may echo hostile
input; the log in the data directory keeps it for a bug report.
"""

from __future__ import annotations

import datetime
import io
import tempfile
import traceback
from pathlib import Path

import platformdirs

from rules.infra.untrusted import printable, printable_path  # not rules.surface: the menu needs no engine

CRASH_LOG = "crash.log"


def data_dir() -> Path:
    """The user's data directory: saves, the autosave and the crash log."""
    return platformdirs.user_data_path("sekigahara", appauthor=False)


def write_crash_log(error: BaseException, directory: Path | None = None) -> Path | None:
    """Append `error`'s traceback to the crash log in `directory` (else the data
    directory; failing that the temporary directory). None if nowhere was writable."""
    entry = f"--- {datetime.datetime.now().isoformat(timespec='seconds')}\n" + "".join(traceback.format_exception(error))
    for folder in (directory or data_dir(), Path(tempfile.gettempdir())):
        path = folder / CRASH_LOG
        try:
            folder.mkdir(parents=True, exist_ok=True)
            with open(path, "a", encoding="utf-8", errors="backslashreplace") as log:
                log.write(entry)
        except OSError:
            continue
        return path
    return None


def crash_message(error: BaseException, log: Path | None) -> str:
    """One line for the terminal: what went wrong and where the details are."""
    what = printable(f"{type(error).__name__}: {error}", 120)
    where = f"the details are in {printable_path(log, 120)}" if log else "no log could be written"
    return f"unexpected error ({what}); {where}"


class CrashLog(io.TextIOBase):
    """A text stream that appends to the crash log in `directory`, opened on its
    first write (a game that never fails leaves no log). The app hands it to
    Textual as its public `error_console` file, so Textual's own report of an
    unexpected error lands here instead of on the terminal."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.path: Path | None = None  # where the log went, once written
        self.last_line = ""  # the error's own summary comes last in a traceback
        self._started = False

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not self._started:
            self._started = True
            text = f"--- {datetime.datetime.now().isoformat(timespec='seconds')}\n" + text
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        if lines:
            self.last_line = lines[-1]
        for folder in (self.directory, Path(tempfile.gettempdir())) if self.path is None else (self.path.parent,):
            try:
                folder.mkdir(parents=True, exist_ok=True)
                with open(folder / CRASH_LOG, "a", encoding="utf-8", errors="backslashreplace") as log:
                    log.write(text)
            except OSError:
                continue
            self.path = folder / CRASH_LOG
            break
        return len(text)


def app_crash_message(log: CrashLog) -> str:
    """One line for the terminal after the app stopped on an unexpected error."""
    what = printable(log.last_line or "no details", 120)
    where = f"the details are in {printable_path(log.path, 120)}" if log.path else "no log could be written"
    return f"unexpected error ({what}); {where}"
