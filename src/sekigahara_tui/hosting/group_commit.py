"""Group commit: the store's one writer, off the event loop.

Every accepted command must be on disk before anyone hears of it (the host
acknowledges nothing it could lose to a kill -9). Writing each one in its own
transaction costs an fsync per command, on the event loop, while every other
game waits. Instead one thread writes, and the actions that arrive while it
is writing go together in its next transaction: one fsync for all of them.
Each action's `committed` callback then runs on the event loop, in order,
whether or not the connection that sent it is still there, so memory always
follows the store.
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable

from sekigahara_tui.hosting.ownership import NOT_OWNER, Ownership
from sekigahara_tui.hosting.store import Action, NotOwner, Store, StoreError

Committed = Callable[[int], None]  # called with the action's version once it is on disk


class GroupCommit:
    def __init__(self, path: Path, fence: Ownership | None = None) -> None:
        self._path = path
        self._fence = fence  # several hosts: each append checks this host's lease (ownership.py)
        self._store: Store | None = None  # opened in, and used only by, the writer thread
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store-writer")
        self._waiting: list[tuple[str, Action, int, Committed, asyncio.Future]] = []
        self._writing: asyncio.Task | None = None
        self.transactions = 0  # how many commits it took (for tests and benchmarks)
        self._closing = False

    async def append(self, game_id: str, action: Action, version: int, committed: Committed) -> int:
        """Store `action` as row `version + 1` of the game; `committed(version + 1)`
        runs once it is on disk. StoreError (and nothing stored, nothing called)
        if it cannot be written, or the club is stopping."""
        if self._closing:  # a writer started now would outlive the store (and the loop)
            raise StoreError("the club is stopping: the command was not stored")
        loop = asyncio.get_running_loop()
        answer = loop.create_future()
        self._waiting.append((game_id, action, version, committed, answer))
        if self._writing is None or self._writing.done():
            self._writing = loop.create_task(self._write_waiting())
        return await answer

    async def _write_waiting(self) -> None:
        loop = asyncio.get_running_loop()
        while self._waiting:
            batch, self._waiting = self._waiting, []
            rows = [(game_id, action, version) for game_id, action, version, _, _ in batch]
            self.transactions += 1
            try:
                errors = await loop.run_in_executor(self._executor, self._write, rows)
            except Exception as error:  # the writer itself failed: none of the batch is stored
                errors = [f"cannot write the game store: {error}"] * len(batch)
            for (_, _, version, committed, answer), error in zip(batch, errors):
                if error is not None:
                    if not answer.done():
                        answer.set_exception((NotOwner if error.startswith(NOT_OWNER) else StoreError)(error))
                    continue
                try:
                    committed(version + 1)
                except Exception as bug:  # noqa: BLE001 - on disk, but a bug applied it: its caller
                    if not answer.done():  # hears of it, and the rest of the batch of theirs
                        answer.set_exception(bug)
                    continue
                if not answer.done():
                    answer.set_result(version + 1)

    def _write(self, rows: list[tuple[str, Action, int]]) -> list[str | None]:
        if self._store is None:
            self._store = Store.open(self._path)
            self._store.fence = self._fence
        return self._store.append_many(rows)

    async def close(self) -> None:
        """Finish what is waiting, then let go of the store; from now on an
        append is refused (it would start a writer nobody waits for)."""
        self._closing = True
        while self._writing is not None and not self._writing.done():
            await asyncio.gather(self._writing, return_exceptions=True)
        await asyncio.get_running_loop().run_in_executor(self._executor, self._close_store)
        self._executor.shutdown(wait=True)

    def _close_store(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None
