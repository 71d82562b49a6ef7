"""The game store: one row per game, an append-only log of actions, in
SQLite (the embedded default) or PostgreSQL (database.py).

A game is its seed (and a position's text, for a game begun from one) plus
its actions in order: commands as notation, and undos, each of which takes
back the last command still standing. `version` is the number of action
rows, so it only grows. A row is committed before the host acknowledges or
broadcasts it (server.py): an acknowledged command is on disk.

Durability: WAL mode with synchronous=FULL. In WAL mode, NORMAL already
survives the host being killed (a committed transaction is in the WAL file,
in the operating system's hands) but may lose the last transactions on a
power cut or an OS crash; FULL syncs the WAL on every commit, so an
acknowledged command survives those too. A command costs one fsync (well
under a millisecond to a few ms), nothing next to a player's thinking time.

On PostgreSQL a commit returns once the server has the transaction in its
WAL, flushed (its synchronous_commit=on, the default): the same promise.

The interface (Store, GameInfo, Action, record_of) is all the server uses,
so the club server's many games, or a shared database server, fit behind it.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Collection

from rules.infra.record import GameRecord, record_to_json
from rules.sides import Side
from rules.infra.untrusted import printable_path
from sekigahara_tui.hosting.clock_store import start_clock, write_clock
from sekigahara_tui.hosting.database import CommitUnknown, Database, Error, IntegrityError, Location, connect, is_postgresql, shown
from sekigahara_tui.hosting.rating_store import rate_result, read_history, read_table, recompute
from sekigahara_tui.hosting.ratings import Rating, RatingStep
from sekigahara_tui.hosting.store_schema import SCHEMA, SCHEMA_VERSION, migrate
from sekigahara_tui.hosting.ownership import NOT_OWNER, OWNED
# The rows as values, and a game's record from its rows: here since the store began, where its users import them.
from sekigahara_tui.hosting.store_rows import (  # noqa: F401
    BEHIND,
    END_KINDS,
    Action,
    ActionKind,
    CancelOffer,
    EndKind,
    GameEnd,
    GameInfo,
    GameSummary,
    GameTerms,
    NotOwner,
    StoreError,
)
from sekigahara_tui.hosting.store_records import commands_standing, exported_record, record_of, starting_record  # noqa: F401

if TYPE_CHECKING:
    from sekigahara_tui.hosting.ownership import Ownership

INSERT_ACTION = "INSERT INTO actions (game, seq, kind, side, text, client_id, at) VALUES (?, ?, ?, ?, ?, ?, ?)"
FENCED_INSERT = ("INSERT INTO actions (game, seq, kind, side, text, client_id, at) SELECT ?, ?, ?, ?, ?, ?, ? WHERE " + OWNED)


class Store:
    """One database of games. Not shared between threads."""

    def __init__(self, connection: Database, location: Location) -> None:
        self._db = connection
        self.path = location  # a SQLite file, or a postgresql:// URL
        self.schema = SCHEMA_VERSION
        # Several hosts (ownership.py): the owner's leases, checked by every append
        # in its own statement; None: one host (SQLite), appends unfenced.
        self.fence: Ownership | None = None

    @classmethod
    def open(cls, location: Location, read_only: bool = False) -> Store:
        """Open (and for writing, create) the store at `location` (a SQLite
        file, or a postgresql:// URL). Read-only opening works while a host
        writes (WAL readers never block the writer)."""
        if read_only and not is_postgresql(location) and not Path(location).is_file():
            raise StoreError(f"no game store at {printable_path(Path(location))}")
        db = None
        try:
            # the seed is in it, so every hidden draw: private; no action of a game the store does not hold
            db = connect(location, read_only=read_only, private=not read_only, wal=not read_only, foreign_keys=True)
            if not read_only:
                db.script(SCHEMA)
                migrate(db)
            db.execute("SELECT count(*) FROM games").fetchone()
            version = db.schema_version()
        except Error as error:
            if db is not None:
                db.close()
            raise StoreError(f"cannot open the game store {shown(location)}: {error}") from None
        if version > SCHEMA_VERSION:
            db.close()
            raise StoreError(f"the game store {shown(location)} is of a newer sekigahara (schema {version}, this one knows {SCHEMA_VERSION})")
        store = cls(db, location)
        store.schema = version  # a store opened read-only may be older: it has no results then
        return store

    def close(self) -> None:
        self._db.close()

    # --- games -------------------------------------------------------------------

    def create_game(
        self, game_id: str, seed: int, data_version: str, position: str | None = None, players: dict[Side, str] | None = None,
        computer_level: str | None = None,
        clock: str | None = None, on_time_out: str | None = None,
        terms: GameTerms | None = None,
    ) -> GameInfo:
        """A new game; with `computer_level`, its computer seat's level, in the same
        transaction; `clock` a preset's name (None or "none": no clock), which
        starts at once when both seats are filled, else when the second is taken."""
        info = GameInfo(game_id, seed, data_version, position, time.time(), "playing", None)
        players = players or {}
        try:
            with self._db.write():  # the game, its level, clock and terms: one transaction
                self._db.execute(
                    "INSERT INTO games (id, seed, data_version, position, created, status, ishida_player, tokugawa_player,"
                    " clock, on_time_out) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (info.id, info.seed, info.data_version, info.position, info.created, info.status,
                     players.get(Side.ISHIDA), players.get(Side.TOKUGAWA), clock, on_time_out),
                )
                if computer_level is not None:
                    self._db.execute("INSERT INTO computer_levels (game, level) VALUES (?, ?)", (game_id, computer_level))
                if terms is not None and terms != GameTerms():
                    self._db.execute("INSERT INTO game_terms (game, invited, private, rematch_of, rated) VALUES (?, ?, ?, ?, ?)",
                                     (info.id, terms.invited, int(terms.private), terms.rematch_of, int(terms.rated)))
                start_clock(self._db, game_id, info.created)
        except Error as error:
            raise StoreError(f"cannot write the game store: {error}") from None
        return info

    def computer_level(self, game_id: str) -> str | None:
        """The level the game's computer seat plays at; None if the store names
        none (a game made before levels: level 1), or cannot say (an older
        store opened read-only has no such table)."""
        try:
            row = self._db.execute("SELECT level FROM computer_levels WHERE game = ?", (game_id,)).fetchone()
        except Error:
            return None
        return row[0] if row else None

    def clock_terms(self, game_id: str) -> tuple[str, str]:
        """The game's clock preset ("none": no clock) and what happens on time out
        ("lose" when it says nothing: a game made before clocks, or an older store)."""
        try:
            row = self._db.execute("SELECT clock, on_time_out FROM games WHERE id = ?", (game_id,)).fetchone()
        except Error:
            return "none", "lose"
        return (row[0] or "none", row[1] or "lose") if row else ("none", "lose")

    def take_seat(self, game_id: str, side: Side, player: str) -> bool:
        """Give an open seat to `player`; False (nothing changed) if the seat
        is not open. The check and the change are one statement."""
        column = f"{side.value}_player"  # a Side's value: ishida or tokugawa
        try:
            with self._db.write():
                # an invitation's seat is the invited member's only
                cursor = self._db.execute(
                    f"UPDATE games SET {column} = ? WHERE id = ? AND {column} IS NULL AND NOT EXISTS"
                    " (SELECT 1 FROM game_terms WHERE game = ? AND invited IS NOT NULL AND invited != ?)",
                    (player, game_id, game_id, player),
                )
                if cursor.rowcount == 1:
                    start_clock(self._db, game_id, time.time())  # both seats filled: the clock starts
                return cursor.rowcount == 1
        except Error as error:
            raise StoreError(f"cannot write the game store: {error}") from None

    def withdraw_open_game(self, game_id: str, member: str, invited: bool = False) -> bool:
        """Delete a game nobody has joined (its actions first: they reference it):
        one seat `member`'s, the other open, still playing; or (`invited`) one
        whose open seat awaits `member`, who declines it. False (nothing
        changed) otherwise. The check and the deletion are one transaction."""
        try:
            with self._db.write():
                mine = ("(ishida_player IS NULL OR tokugawa_player IS NULL) AND EXISTS"
                        " (SELECT 1 FROM game_terms WHERE game = games.id AND invited = ?)") if invited else \
                    "(ishida_player = ? AND tokugawa_player IS NULL) OR (tokugawa_player = ? AND ishida_player IS NULL)"
                row = self._db.execute(
                    f"SELECT 1 FROM games WHERE id = ? AND status = 'playing' AND ({mine})",
                    (game_id, member) + (() if invited else (member,)),
                ).fetchone()
                if row is None:
                    return False
                for table in ("actions", "results", "cancel_offers", "game_clocks", "game_terms", "chat_messages"):  # they reference it
                    self._db.execute(f"DELETE FROM {table} WHERE game = ?", (game_id,))
                self._db.execute("DELETE FROM games WHERE id = ?", (game_id,))
                return True
        except Error as error:
            raise StoreError(f"cannot write the game store: {error}") from None

    def summaries(self, game_id: str | None = None, ids: Collection[str] | None = None) -> list[GameSummary]:
        """Every game as a lobby lists it, oldest first (`updated`: its last action's time,
        `version`: its number of actions); or `game_id`'s alone, or those of `ids` it holds."""
        ids = [game_id] if game_id is not None else ids
        if ids is not None and not ids:
            return []
        where, parameters = ("", ()) if ids is None else (f" WHERE g.id IN ({', '.join('?' * len(ids))})", tuple(ids))
        rows = self._read(
            "SELECT g.id, g.ishida_player, g.tokugawa_player, g.status, g.result, g.created,"
            " (SELECT at FROM actions WHERE game = g.id ORDER BY seq DESC LIMIT 1),"
            " (SELECT max(seq) FROM actions WHERE game = g.id)"
            f" FROM games g{where} ORDER BY g.created", parameters
        )
        terms = self.terms(ids=ids) if rows else {}
        return [
            GameSummary(id, (ishida, tokugawa), status, result, created, last or created, version or 0, terms.get(id))
            for id, ishida, tokugawa, status, result, created, last, version in rows
        ]

    def terms(self, game_id: str | None = None, ids: Collection[str] | None = None) -> dict[str, GameTerms]:
        """Each game's terms, for the games made with any (an older store has none); or one game's, or those of `ids`."""
        ids = [game_id] if game_id is not None else ids
        rated = ", rated" if self.schema >= 4 else ", 0"
        where, parameters = ("", ()) if ids is None else (f" WHERE game IN ({', '.join('?' * len(ids))})", tuple(ids))
        rows = self._read(f"SELECT game, invited, private, rematch_of{rated} FROM game_terms{where}", parameters) if self.schema >= 3 else []
        return {game: GameTerms(invited, bool(private), rematch_of, bool(r)) for game, invited, private, rematch_of, r in rows}

    def record_json(self, game_id: str) -> str:
        """The game's record as a file holds it (its replay, its export)."""
        return record_to_json(exported_record(*self.load_game(game_id)))

    def create_game_from_record(self, game_id: str, record: GameRecord) -> GameInfo:
        """A new game starting where `record` starts (its commands are not stored)."""
        return self.create_game(game_id, record.seed, record.data_version, record.position)

    def game_ids(self) -> list[str]:
        return [row[0] for row in self._read("SELECT id FROM games ORDER BY created")]

    def load_game(self, game_id: str) -> tuple[GameInfo, list[Action]]:
        """The game's row and its actions in order; StoreError if there is none."""
        rows = self._read(
            "SELECT id, seed, data_version, position, created, status, result FROM games WHERE id = ?", (game_id,)
        )
        if not rows:
            raise StoreError(f"no game {game_id!r} in {shown(self.path)}")
        actions = [
            Action(kind, Side(side), text, client_id, at)
            for kind, side, text, client_id, at in self._read(
                "SELECT kind, side, text, client_id, at FROM actions WHERE game = ? ORDER BY seq", (game_id,)
            )
        ]
        return GameInfo(*rows[0], *self._end_and_offer(game_id)), actions

    def _end_and_offer(self, game_id: str) -> tuple[GameEnd | None, CancelOffer | None]:
        if self.schema < 1:  # an older store opened read-only: every end was the rules'
            return None, None
        ends = self._read("SELECT kind, winner, seat, at, by_member FROM results WHERE game = ?", (game_id,))
        offers = self._read("SELECT side, by_member, at FROM cancel_offers WHERE game = ?", (game_id,))
        end = None
        if ends:
            kind, winner, seat, at, by = ends[0]
            end = GameEnd(kind, _side(winner), _side(seat), at, by)
        offer = CancelOffer(Side(offers[0][0]), offers[0][1], offers[0][2]) if offers else None
        return end, offer

    # --- changing ------------------------------------------------------------------

    def append(self, game_id: str, action: Action, version: int) -> int:
        """Commit `action` as row `version + 1` and return the new version. The
        row is on disk when this returns; if another writer took that row, or the
        write fails, StoreError and nothing is stored."""
        error = self.append_many([(game_id, action, version)])[0]
        if error is not None:
            raise (NotOwner if error.startswith(NOT_OWNER) else StoreError)(error)
        return version + 1

    def append_many(self, rows: list[tuple[str, Action, int]]) -> list[str | None]:
        """Commit many actions in one transaction (one fsync: group commit), each
        as row `version + 1` of its game. A row that cannot be stored (another
        writer took its place) is left out alone; the answer says, for each row,
        None (stored) or why not. If the transaction fails, nothing is stored."""
        errors: list[str | None] = []
        try:
            with self._db.write(appends=True):
                if self.fence is None and self._append_all(rows):
                    return [None] * len(rows)
                for game_id, action, version in rows:
                    self._db.execute("SAVEPOINT one_row")
                    try:
                        row = _action_row(game_id, action, version)
                        if self.fence is None:
                            self._db.execute(INSERT_ACTION, row)
                            stored = True
                        else:
                            stored = self._db.execute(FENCED_INSERT, row + self._lease(game_id)).rowcount == 1
                        if stored and action.clock is not None:
                            write_clock(self._db, game_id, action.clock)
                    except IntegrityError as error:
                        self._db.execute("ROLLBACK TO one_row")
                        errors.append(f"cannot write the game store: {BEHIND}: {error}")
                    else:
                        errors.append(None if stored else f"{NOT_OWNER}: nothing was stored")
                    self._db.execute("RELEASE one_row")
        except CommitUnknown as error:
            return [f"{BEHIND}: it may have been stored: {error}"] * len(rows)
        except Error as error:
            return [f"cannot write the game store: {error}"] * len(rows)
        return errors

    def _append_all(self, rows: list[tuple[str, Action, int]]) -> bool:
        """Every row in one statement, within the caller's transaction (the
        usual case: three statements a row fewer than one savepoint each);
        False, and nothing of them stored, if one of them cannot be."""
        self._db.execute("SAVEPOINT all_rows")
        try:
            self._db.executemany(INSERT_ACTION, [_action_row(game_id, action, version) for game_id, action, version in rows])
            for game_id, action, _ in rows:
                if action.clock is not None:
                    write_clock(self._db, game_id, action.clock)
        except IntegrityError:
            self._db.execute("ROLLBACK TO all_rows")
            self._db.execute("RELEASE all_rows")
            return False
        self._db.execute("RELEASE all_rows")
        return True

    def finish(self, game_id: str, result: str, end: GameEnd | None = None) -> None:
        """The rules ended the game (its last action is stored): its status,
        its result's words, and its result (kind "rules", or
        "finished-by-stand-in"). Idempotent: a result already stored stays."""
        try:
            with self._db.write():
                if self._db.execute("UPDATE games SET status = 'over', result = ? WHERE id = ?" + self._owned(),
                                    (result, game_id) + self._lease(game_id)).rowcount != 1:
                    self._check_owner(game_id)
                if end is not None:
                    self._insert_end(game_id, end, "INSERT OR IGNORE")
                    rate_result(self._db, game_id)  # with its result, or not at all
                self._db.execute("DELETE FROM cancel_offers WHERE game = ?", (game_id,))
        except Error as error:
            raise StoreError(f"cannot write the game store: {error}") from None

    def end_outside_rules(self, game_id: str, result: str, end: GameEnd) -> bool:
        """End a game still in play outside the rules (resigned, cancelled,
        timed out): status, words and result in one transaction, on disk when
        this returns. False (nothing changed) if the game is not in play."""
        try:
            with self._db.write():
                cursor = self._db.execute(
                    "UPDATE games SET status = 'over', result = ? WHERE id = ? AND status = 'playing'" + self._owned(),
                    (result, game_id) + self._lease(game_id),
                )
                if cursor.rowcount != 1:
                    self._check_owner(game_id)
                    return False
                self._insert_end(game_id, end, "INSERT OR REPLACE")
                rate_result(self._db, game_id)  # with its result, or not at all
                self._db.execute("DELETE FROM cancel_offers WHERE game = ?", (game_id,))
                return True
        except Error as error:
            raise StoreError(f"cannot write the game store: {error}") from None

    def _insert_end(self, game_id: str, end: GameEnd, verb: str) -> None:
        self._db.execute(
            f"{verb} INTO results (game, kind, winner, seat, at, by_member) VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, end.kind, _value(end.winner), _value(end.seat), end.at, end.by),
        )

    def set_cancel_offer(self, game_id: str, offer: CancelOffer | None) -> None:
        """Stand a proposal to cancel the game (None: take it away: declined).
        Fenced like an append (several hosts): NotOwner, nothing stored, if
        another host took the game."""
        lease = self._lease(game_id)
        try:
            with self._db.write():
                if offer is None:
                    changed = self._db.execute("DELETE FROM cancel_offers WHERE game = ?" + self._owned(), (game_id,) + lease).rowcount
                else:
                    row = (game_id, offer.side.value, offer.by, offer.at)
                    insert = "INSERT OR REPLACE INTO cancel_offers (game, side, by_member, at) "
                    changed = self._db.execute(insert + ("VALUES (?, ?, ?, ?)" if self.fence is None else "SELECT ?, ?, ?, ? WHERE " + OWNED),
                                               row + lease).rowcount
                if changed == 0:  # no offer to take away, or fenced off: which one, in the same transaction
                    self._check_owner(game_id)
        except Error as error:
            raise StoreError(f"cannot write the game store: {error}") from None

    # --- ratings (rating_store.py: derived from the results) ---------------------------

    def ratings(self) -> list[Rating]:
        """Every rated player's rating now (none in a store older than ratings)."""
        return self._reading(read_table) if self.schema >= 4 else []

    def rating_history(self, player: str | None = None) -> list[RatingStep]:
        """A player's rating game by game, oldest first (everyone's, if None)."""
        return self._reading(lambda db: read_history(db, player)) if self.schema >= 4 else []

    def recompute_ratings(self) -> int:
        """Rebuild the ratings from the stored results, in one transaction; how many games are rated."""
        try:
            with self._db.write():
                return recompute(self._db)
        except Error as error:
            raise StoreError(f"cannot write the game store: {error}") from None

    def only_record(self) -> GameRecord:
        """The record of the one game this store holds (a game DIR's)."""
        ids = self.game_ids()
        if len(ids) != 1:
            raise StoreError(f"{shown(self.path)} holds {len(ids)} games, not one")
        return record_of(*self.load_game(ids[0]))

    # --- fencing (ownership.py) ---------------------------------------------------------

    def _owned(self) -> str:
        """The condition a fenced statement adds: this host holds the game's lease at its epoch."""
        return "" if self.fence is None else " AND " + OWNED

    def _lease(self, game_id: str) -> tuple:
        return () if self.fence is None else (game_id, self.fence.host, self.fence.epochs.get(game_id, 0))

    def _check_owner(self, game_id: str) -> None:
        """A fenced statement changed nothing: NotOwner if that was the lease's doing."""
        if self.fence is not None and not self.fence.holds(self._db, game_id):
            raise NotOwner(f"{NOT_OWNER}: nothing was stored")

    # --- helpers -------------------------------------------------------------------

    def _read(self, sql: str, parameters: tuple = ()) -> list[tuple]:
        try:
            return self._db.execute(sql, parameters).fetchall()
        except Error as error:
            raise StoreError(f"cannot read the game store: {error}") from None

    def _reading(self, read):
        try:
            return read(self._db)
        except Error as error:
            raise StoreError(f"cannot read the game store: {error}") from None


def _side(value: str | None) -> Side | None:
    return Side(value) if value is not None else None


def _value(side: Side | None) -> str | None:
    return side.value if side is not None else None


def _action_row(game_id: str, action: Action, version: int) -> tuple:
    """An action's row in `actions`, as row `version + 1` of its game."""
    return (game_id, version + 1, action.kind, action.side.value, action.text, action.client_id, action.at)
