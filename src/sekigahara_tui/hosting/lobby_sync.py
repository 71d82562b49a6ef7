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

- **Whose move it is** is not in the store (it needs the rules, and a
  command is stored before it is applied: game_server.py's commit), so the
  host that owns a game tells it: after each change of a game loaded here
  (Catalog.note_game) a NOTIFY on `sekigahara_to_move` with a small JSON
  payload (game, version, updated, to_move, where), sent by a thread of its
  own on a connection of its own, after the move's commit. Every host's
  catalog takes it unless it holds a newer version (Catalog.owner_says). A
  payload, not a column: no schema change, no trial apply before the append,
  and nothing more in the move's transaction. A message is lost when a
  listener is away, so a listener that (re)connects asks (`?`) and every
  host tells again whose move it is in the games it has loaded.
"""

from __future__ import annotations

import asyncio
import json
import queue
import threading
from typing import Callable, Iterable, Mapping, Sequence

from rules.surface import Side
from sekigahara_tui.hosting.catalog import Catalog, CatalogEntry
from sekigahara_tui.hosting.database import Error, Location, connect, is_postgresql
from sekigahara_tui.hosting.games import HostedGame
from sekigahara_tui.hosting.store import GameSummary, Store, StoreError

CHANNEL = "sekigahara_lobby"
TO_MOVE_CHANNEL = "sekigahara_to_move"  # the owner's word on whose move it is (JSON), or ASK
ASK = "?"  # a listener that (re)connected: every host tells again its loaded games' to_move
ASKING = f"NOTIFY {TO_MOVE_CHANNEL}, '{ASK}'"
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


def whose_move_payload(entry: CatalogEntry) -> str:
    """What the owner tells of a game after a change (public facts only, R55:
    whose move it is and where the calendar stands, as every lobby shows)."""
    return json.dumps({"game": entry.id, "version": entry.version, "updated": entry.updated,
                       "to_move": [side.value for side in entry.to_move or ()], "where": entry.where})


def whose_move_of(payload: str) -> tuple | None:
    """(game, version, updated, to_move, where) of a payload; None if it is not one."""
    try:
        told = json.loads(payload)
        game, version, updated, where = told["game"], told["version"], told["updated"], told["where"]
        to_move = tuple(Side(side) for side in told["to_move"])
    except (ValueError, TypeError, KeyError):
        return None
    if not (isinstance(game, str) and isinstance(version, int) and isinstance(updated, (int, float))
            and (where is None or isinstance(where, str))):
        return None
    return game, version, float(updated), to_move, where


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
        self.told = 0  # owners' words on whose move the catalog took (tests)
        self._outbox: queue.SimpleQueue[str | None] = queue.SimpleQueue()  # payloads to tell (None: stop)
        self._teller: threading.Thread | None = None
        catalog.on_noted = self.tell

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
        self._teller = threading.Thread(target=self._tell, name="lobby-tell", daemon=True)
        self._teller.start()

    async def close(self) -> None:
        self._stop.set()
        self._outbox.put(None)
        for thread in (self._thread, self._teller):
            if thread is not None:
                await asyncio.to_thread(thread.join)

    def tell(self, entry: CatalogEntry) -> None:
        """On the loop: whose move it is in a game loaded here, to every host (by the teller thread)."""
        self._outbox.put(whose_move_payload(entry))

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
                        connection.execute(f"LISTEN {TO_MOVE_CHANNEL}")
                        self.listens += 1
                        self.listening.set()
                        wait = RECONNECT_EVERY
                        self._hand_over(store, None)  # all of it: what was sent before LISTEN is lost
                        connection.execute(ASKING)  # and whose move it is (the listener's last statement)
                        self._follow(connection, store)
                    finally:
                        self.listening.clear()
                        store.close()
            except (psycopg.Error, StoreError, Error):
                self._stop.wait(wait)  # the server away: try again, less often
                wait = min(wait * 2, 8.0)

    def _follow(self, connection, store: Store) -> None:
        while not self._stop.is_set():
            notes = list(connection.notifies(timeout=WAKE_EVERY, stop_after=1))
            if notes:
                notes += connection.notifies(timeout=0.01)  # the rest of a burst, in one read
            ids = {n.payload for n in notes if n.channel == CHANNEL}
            words = [n.payload for n in notes if n.channel == TO_MOVE_CHANNEL]
            told = [m for m in map(whose_move_of, words) if m is not None]  # in the order sent
            with self._again_lock:
                ids |= self._again
                self._again.clear()
            if ids or told or ASK in words:
                self._hand_over(store, ids, told, ASK in words)

    def _hand_over(self, store: Store, ids: set[str] | None, told: Sequence[tuple] = (), asked: bool = False) -> None:
        """The summaries of `ids` (None: every game) to the loop, then the owners' words."""
        summaries = store.summaries(ids=ids)
        assert self._loop is not None
        try:
            self._loop.call_soon_threadsafe(self._apply, summaries, ids, told, asked)
        except RuntimeError:  # the loop closed: the host stops
            self._stop.set()

    def _tell(self) -> None:
        """The teller thread: each payload NOTIFYed on a connection of its own,
        after the move's commit (a burst in one transaction). Lost if the
        server is away: the listeners ask again when they come back."""
        import psycopg

        connection = None
        while not self._stop.is_set():
            payloads = [self._outbox.get()]
            while not self._outbox.empty():
                payloads.append(self._outbox.get())
            payloads = [p for p in payloads if p is not None]
            if not payloads or self._stop.is_set():
                continue
            try:
                if connection is None or connection.closed:
                    connection = psycopg.connect(self.location, autocommit=True, connect_timeout=5)
                with connection.transaction():
                    for payload in payloads:
                        connection.execute("SELECT pg_notify(%s, %s)", (TO_MOVE_CHANNEL, payload))
            except psycopg.Error:
                if connection is not None:
                    connection.close()
                connection = None
        if connection is not None:
            connection.close()

    # --- the loop ------------------------------------------------------------------------

    def _apply(self, summaries: list[GameSummary], ids: Iterable[str] | None, told: Sequence[tuple] = (),
               asked: bool = False) -> None:
        found = {summary.id for summary in summaries}
        for summary in summaries:
            self.catalog.store_says(summary, self.loaded.get(summary.id))
        for game_id, version, updated, to_move, where in told:
            self.told += self.catalog.owner_says(game_id, version, updated, to_move, where, self.loaded.get(game_id))
        if asked:  # a host (re)connected: whose move in the games this host owns
            for game_id in list(self.loaded):
                entry = self.catalog.get(game_id)
                if entry is not None and entry.to_move is not None:
                    self.tell(entry)
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
