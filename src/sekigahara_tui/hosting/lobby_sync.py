"""One lobby across club hosts (issue 28): with the store in PostgreSQL,
every host's catalog follows the games the other hosts change.

- **What is told.** Triggers on `games` (a game made, a seat taken, finished,
  withdrawn) and `actions` (a move: whose turn it is) NOTIFY the channel
  `sekigahara_lobby` with the game's id. A trigger runs in the writing
  transaction, so the notification is sent when it commits and never for a
  change rolled back; PostgreSQL folds a transaction's same ids into one.
  Every writer fires them (another host, the member commands), with no code
  of its own: the triggers are made (or replaced) when a host starts.
- **Who listens.** Each host, on a connection of its own (not the pool's),
  in a thread: `notifies()` blocks there, never on the event loop. A burst of
  ids is read from the store at once (their summaries, on a second connection
  of the thread's) and handed to the loop (call_soon_threadsafe), where the
  catalog takes them (Catalog.store_says) and tells its followers: the
  lobby's pushes (lobby_push.py) reach this host's members.
- **A lost connection** (the server restarted): the thread connects again,
  LISTENs again and reads every game's summary, since notifications sent
  while it was away are lost; the same at start, after the catalog was read.
- **SQLite:** nothing of this; one host, its catalog follows its own games.

Whose move it is in a game loaded elsewhere is not in the store (it needs
the rules): such an entry says it is unknown and the lobby loads the game
to know it, as for any game not loaded yet (catalog.py).
"""

from __future__ import annotations

import asyncio
import threading
from typing import Callable, Iterable, Mapping

from sekigahara_tui.hosting.catalog import Catalog
from sekigahara_tui.hosting.database import Error, Location, connect, is_postgresql
from sekigahara_tui.hosting.games import HostedGame
from sekigahara_tui.hosting.store import GameSummary, Store, StoreError

CHANNEL = "sekigahara_lobby"
RECONNECT_EVERY = 0.5  # seconds between tries while the server is away (doubling, at most 8)
WAKE_EVERY = 0.5  # how often the listening thread looks whether the host stops

TRIGGERS = (
    f"""CREATE OR REPLACE FUNCTION sekigahara_lobby_notify() RETURNS trigger LANGUAGE plpgsql AS $body$
    BEGIN
      IF TG_TABLE_NAME = 'games' THEN
        PERFORM pg_notify('{CHANNEL}', CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END);
      ELSE
        PERFORM pg_notify('{CHANNEL}', NEW.game);
      END IF;
      RETURN NULL;
    END $body$""",
    "CREATE OR REPLACE TRIGGER sekigahara_lobby_games AFTER INSERT OR UPDATE OR DELETE ON games"
    " FOR EACH ROW EXECUTE FUNCTION sekigahara_lobby_notify()",
    "CREATE OR REPLACE TRIGGER sekigahara_lobby_actions AFTER INSERT ON actions"
    " FOR EACH ROW EXECUTE FUNCTION sekigahara_lobby_notify()",
)


def make_triggers(location: Location) -> None:
    """The triggers that tell every host of a game's change (PostgreSQL only)."""
    db = connect(location)
    try:
        with db.write():  # the write lock: two hosts starting at once replace them in turn
            for statement in TRIGGERS:
                db.execute(statement)
    finally:
        db.close()


class LobbySync:
    """A host's listener: the catalog follows what every host writes."""

    def __init__(self, location: Location, catalog: Catalog, loaded: Mapping[str, HostedGame],
                 gone: Callable[[str], None]) -> None:
        self.location = str(location)
        self.catalog = catalog
        self.loaded = loaded
        self.gone = gone  # a game deleted elsewhere (withdrawn): its connections here are told
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._again: set[str] = set()  # ids to read once more (the loop asks; the thread reads)
        self._again_lock = threading.Lock()
        self.listening = threading.Event()  # set while LISTENing (tests wait for it)
        self.listens = 0  # how many times it began to LISTEN (1, and one more after each lost connection)
        self.applied = 0  # batches the catalog took (tests)

    @classmethod
    def for_store(cls, location: Location, catalog: Catalog, loaded: Mapping[str, HostedGame],
                  gone: Callable[[str], None]) -> LobbySync | None:
        """None on SQLite: one host, nothing to follow."""
        return cls(location, catalog, loaded, gone) if is_postgresql(location) else None

    def start(self) -> None:
        """On the host's loop: the triggers made, the listening thread started."""
        make_triggers(self.location)
        self._loop = asyncio.get_running_loop()
        self._thread = threading.Thread(target=self._listen, name="lobby-sync", daemon=True)
        self._thread.start()

    async def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            await asyncio.to_thread(self._thread.join)

    # --- the thread ----------------------------------------------------------------------

    def _listen(self) -> None:
        import psycopg

        wait = RECONNECT_EVERY
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.location, autocommit=True, connect_timeout=5) as connection:
                    store = Store.open(self.location, read_only=True)
                    try:
                        connection.execute(f"LISTEN {CHANNEL}")
                        self.listens += 1
                        self.listening.set()
                        wait = RECONNECT_EVERY
                        self._hand_over(store, None)  # all of it: what was sent before LISTEN is lost
                        self._follow(connection, store)
                    finally:
                        self.listening.clear()
                        store.close()
            except (psycopg.Error, StoreError, Error):
                self._stop.wait(wait)  # the server away: try again, less often
                wait = min(wait * 2, 8.0)

    def _follow(self, connection, store: Store) -> None:
        while not self._stop.is_set():
            ids = {n.payload for n in connection.notifies(timeout=WAKE_EVERY, stop_after=1)}
            if ids:
                ids |= {n.payload for n in connection.notifies(timeout=0.01)}  # the rest of a burst, in one read
            with self._again_lock:
                ids |= self._again
                self._again.clear()
            if ids:
                self._hand_over(store, ids)

    def _hand_over(self, store: Store, ids: set[str] | None) -> None:
        """The summaries of `ids` (None: every game) to the loop."""
        summaries = store.summaries(ids=ids)
        assert self._loop is not None
        try:
            self._loop.call_soon_threadsafe(self._apply, summaries, ids)
        except RuntimeError:  # the loop closed: the host stops
            self._stop.set()

    # --- the loop ------------------------------------------------------------------------

    def _apply(self, summaries: list[GameSummary], ids: Iterable[str] | None) -> None:
        found = {summary.id for summary in summaries}
        for summary in summaries:
            self.catalog.store_says(summary, self.loaded.get(summary.id))
        if ids is None:
            # Every game read: one missing from it may have been made here since
            # the read began. Read once more, by id, to be sure it was deleted.
            with self._again_lock:
                self._again |= set(self.catalog.entries) - found
        else:
            for game_id in set(ids) - found:
                if game_id in self.catalog:
                    self.gone(game_id)  # deleted in the store (withdrawn, declined)
        self.applied += 1
