"""The autosave written by a thread of its own, off the key's path.

Writing the record after every command (save_record: a temporary file, fsync,
rename) took the fsync's time, 5-10 ms on a quiet disk and far more on a busy
one, inside the Enter that gave the command (issue 27, item 11). A command now
hands the record to a writer thread and goes on; the thread writes the newest
record it was handed (older ones still waiting are skipped: each record holds
the whole game). The write stays atomic (save_record), so a process killed
mid-write leaves the previous autosave or the new one, never half of one.

What was handed is on disk once `flush` returns; the host flushes when the
game ends and when it is closed, and every autosaver still open is flushed
when the interpreter exits (the app quit), so the last command accepted is in
the autosave. A failed write (read-only directory, disk full) does not stop
the game: `error` says why, from the latest write.
"""

from __future__ import annotations

import atexit
import threading
import weakref
from pathlib import Path

from rules.infra.record import GameRecord, save_record
from rules.infra.untrusted import printable_path

_open: weakref.WeakSet[Autosaver] = weakref.WeakSet()


class Autosaver:
    def __init__(self) -> None:
        self.error: str | None = None  # why the latest write failed, if it did
        self._lock = threading.Condition()
        self._waiting: tuple[Path, GameRecord] | None = None  # the newest record handed, not yet being written
        self._busy = False  # the thread is writing one
        self._closed = False
        self._thread: threading.Thread | None = None
        _open.add(self)

    def write_now(self, path: Path, record: GameRecord) -> None:
        """Write in this thread (a game's first autosave: its error is known at once)."""
        self.flush()
        self._write(path, record)

    def write_soon(self, path: Path, record: GameRecord) -> None:
        """Hand the record to the writer thread and return at once."""
        with self._lock:
            if self._closed:
                raise RuntimeError("the autosaver is closed")
            self._waiting = (path, record)
            if self._thread is None:
                # A daemon: an exit does not wait for it, the atexit flush does.
                self._thread = threading.Thread(target=self._run, name="autosave", daemon=True)
                self._thread.start()
            self._lock.notify_all()

    def flush(self) -> None:
        """Return once every record handed is written (or has failed)."""
        with self._lock:
            while self._waiting is not None or self._busy:
                self._lock.wait()

    def close(self) -> None:
        """Flush, then stop the thread."""
        self.flush()
        with self._lock:
            self._closed = True
            self._lock.notify_all()
        if self._thread is not None:
            self._thread.join()
        _open.discard(self)

    def _run(self) -> None:
        while True:
            with self._lock:
                while self._waiting is None and not self._closed:
                    self._lock.wait()
                if self._waiting is None:  # closed, nothing left
                    return
                (path, record), self._waiting = self._waiting, None
                self._busy = True
            try:
                self._write(path, record)
            finally:
                with self._lock:
                    self._busy = False
                    self._lock.notify_all()

    def _write(self, path: Path, record: GameRecord) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            save_record(record, path)
        except Exception as error:  # OSError mostly; any, so that the thread goes on
            reason = getattr(error, "strerror", None) or type(error).__name__
            self.error = f"Autosave to {printable_path(path, 120)} failed: {reason}"
        else:
            self.error = None


@atexit.register
def _flush_all() -> None:
    """The app quit (or the process is ending): what was handed is written first."""
    for autosaver in list(_open):
        autosaver.flush()
