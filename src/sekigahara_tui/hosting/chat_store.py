"""The chat in the store (issue 26; hosting/chat.py says who may say what):
each line of a game's chat, stored with its game, and of the club's channel
(game NULL); the administrator's deletions (a line deleted is kept, marked,
and shown to nobody); the muted members (members.py's table).

A connection of its own to the game store (database.py), like the clocks'.
A line is committed (SQLite: synchronous=FULL) before anyone is told of it:
what a player saw survives kill -9.
"""

from __future__ import annotations


from attrs import frozen

from rules.surface import Side
from sekigahara_tui.club.protocol_chat import MAX_CHAT_HISTORY
from sekigahara_tui.hosting.database import Error, Location, connect
from sekigahara_tui.hosting.member_store import MUTES_SCHEMA

CHAT_MIGRATION: tuple[str, ...] = (
    """CREATE TABLE chat_messages (
        id INTEGER PRIMARY KEY AUTOINCREMENT,  -- the line's number: the administrator deletes by it
        game TEXT REFERENCES games(id),        -- NULL: the club's channel
        member TEXT NOT NULL,
        side TEXT CHECK (side IN ('ishida', 'tokugawa')),  -- the sayer's seat in a game's chat
        text TEXT NOT NULL,                    -- exactly as said (hosting/chat.py checked it)
        at REAL NOT NULL,
        deleted REAL                           -- when the administrator deleted it; NULL: shown
    )""",
    "CREATE INDEX chat_by_game ON chat_messages (game, id)",
)


class ChatStoreError(Exception):
    """The chat could not be read or written; one line."""


@frozen
class StoredLine:
    number: int
    game: str | None
    member: str
    side: Side | None
    text: str
    at: float


_COLUMNS = "id, game, member, side, text, at"


def _line(row: tuple) -> StoredLine:
    return StoredLine(row[0], row[1], row[2], Side(row[3]) if row[3] is not None else None, row[4], row[5])


class ChatStore:
    def __init__(self, location: Location) -> None:
        try:
            self._db = connect(location, foreign_keys=True)
            self._db.script(MUTES_SCHEMA)
        except Error as error:
            raise ChatStoreError(f"cannot open the chat: {error}") from None

    def close(self) -> None:
        self._db.close()

    def add(self, game: str | None, member: str, side: Side | None, text: str, at: float) -> StoredLine:
        try:
            number = self._db.insert_id(
                "INSERT INTO chat_messages (game, member, side, text, at) VALUES (?, ?, ?, ?, ?)",
                (game, member, side.value if side is not None else None, text, at),
            )
        except Error as error:
            raise ChatStoreError(f"cannot store the line: {error}") from None
        return StoredLine(number, game, member, side, text, at)

    def lines(self, game: str | None, limit: int = MAX_CHAT_HISTORY) -> list[StoredLine]:
        """The newest `limit` lines shown of a game's chat (None: the channel's), oldest first."""
        where = "game = ?" if game is not None else "game IS NULL"
        rows = self._read(
            f"SELECT {_COLUMNS} FROM chat_messages WHERE {where} AND deleted IS NULL ORDER BY id DESC LIMIT ?",
            ((game,) if game is not None else ()) + (limit,),
        )
        return [_line(row) for row in reversed(rows)]

    def line(self, number: int) -> StoredLine | None:
        """Line `number`, deleted or not (None: no such line)."""
        rows = self._read(f"SELECT {_COLUMNS} FROM chat_messages WHERE id = ?", (number,))
        return _line(rows[0]) if rows else None

    def delete(self, number: int, now: float) -> StoredLine | None:
        """Delete line `number` (kept, marked); the line, or None if there is no
        such line shown (none, or deleted already): nothing changed then."""
        try:
            with self._db.write():
                done = self._db.execute("UPDATE chat_messages SET deleted = ? WHERE id = ? AND deleted IS NULL", (now, number))
        except Error as error:
            raise ChatStoreError(f"cannot delete the line: {error}") from None
        return self.line(number) if done.rowcount == 1 else None

    def deleted_since(self, since: float) -> list[tuple[int, str | None, float]]:
        """(number, game, when) of each line deleted at `since` or later."""
        return self._read("SELECT id, game, deleted FROM chat_messages WHERE deleted >= ? ORDER BY deleted", (since,))

    def is_muted(self, member: str) -> bool:
        return bool(self._read("SELECT 1 FROM chat_mutes WHERE member = ?", (member,)))

    def _read(self, sql: str, parameters: tuple = ()) -> list[tuple]:
        try:
            return self._db.execute(sql, parameters).fetchall()
        except Error as error:
            raise ChatStoreError(f"cannot read the chat: {error}") from None
