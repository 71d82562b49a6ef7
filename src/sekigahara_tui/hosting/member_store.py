"""Who may come in, in the club's database (issue 28): the members' SSH keys,
their web tokens and the fronts' credentials, beside the members table, in
SQLite or PostgreSQL alike (database.py), so every host of a club reads the
same ones and a removal or a rotation on the shared database holds on every
host.

- The tables are schema migration 7 (store_schema.py), with the members and
  mutes tables the member commands made before (IF NOT EXISTS: an older club
  keeps its own).
- A club from before kept them in files of its DATA_DIR (`authorized_keys`,
  `web_tokens`, `front_credentials`). Each file still there is imported once,
  when the club is opened for writing (`serve` at its start, every `member`
  and `front-credential` command: members.open_members), in one transaction,
  then renamed NAME.imported (0600, kept as it was): a second start finds no
  file. Each host of a club imports its own DIR's; a key, token or
  credential the database has already (another host's) is kept, not
  replaced. Hashes move as they are: an imported web token keeps its
  generation, so no browser is signed out by the move.
- Reads open the database at each question (`reading`): a running club and
  the commands, on any host, see one another's changes at once.
"""

from __future__ import annotations

import hashlib
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from sekigahara_tui.hosting.database import Database, club_exists, club_location, connect

KEYS_FILE = "authorized_keys"
WEB_TOKENS_FILE = "web_tokens"
CREDENTIALS_FILE = "front_credentials"
IMPORTED = ".imported"  # the suffix a file imported is renamed with
MAX_FILE = 1024 * 1024

# Members the administrator muted (`sekigahara member mute NAME`): their chat
# lines are refused (hosting/chat.py), and they still read the chat.
MUTES_SCHEMA = "CREATE TABLE IF NOT EXISTS chat_mutes (member TEXT PRIMARY KEY, at REAL NOT NULL)"
MEMBER_MIGRATION = (
    """CREATE TABLE IF NOT EXISTS members (
        name TEXT PRIMARY KEY,
        added REAL NOT NULL,
        generation TEXT
    )""",
    MUTES_SCHEMA,
    # One OpenSSH public key a row; a key signs in one member (the key is the primary key).
    """CREATE TABLE member_keys (
        algorithm TEXT NOT NULL,
        data TEXT NOT NULL,            -- the key's base64
        member TEXT NOT NULL,
        added REAL NOT NULL,
        PRIMARY KEY (algorithm, data)
    )""",
    "CREATE INDEX member_keys_member ON member_keys (member)",
    # A member's web token: only its salted scrypt hash (hex); generation, a digest
    # of the hash, is what a sign-in cookie and a session are bound to (web_tokens.py).
    """CREATE TABLE web_tokens (
        member TEXT PRIMARY KEY,
        salt TEXT NOT NULL,
        digest TEXT NOT NULL,
        generation TEXT NOT NULL
    )""",
    # A front's credential (front_credentials.py): a salted SHA-256 of its secret (hex).
    """CREATE TABLE front_credentials (
        name TEXT PRIMARY KEY,
        salt TEXT NOT NULL,
        digest TEXT NOT NULL
    )""",
)
# PostgreSQL has no data_version: the counter member_changes, bumped by a
# trigger in every transaction that changes the members or the web tokens, is
# what a host reads at each look, and the members' rows only when it moved
# (generations.py). The hosts' own, like ownership.py's tables: made when a
# host starts, on PostgreSQL only, neither migrated nor copied by `club migrate`.
CHANGE_TRIGGERS = (
    "CREATE TABLE IF NOT EXISTS member_changes (id INTEGER PRIMARY KEY CHECK (id = 1), version BIGINT NOT NULL)",
    "INSERT INTO member_changes (id, version) VALUES (1, 0) ON CONFLICT DO NOTHING",
    """CREATE OR REPLACE FUNCTION sekigahara_members_changed() RETURNS trigger LANGUAGE plpgsql AS $body$
    BEGIN
      UPDATE member_changes SET version = version + 1 WHERE id = 1;
      RETURN NULL;
    END $body$""",
    *(f"CREATE OR REPLACE TRIGGER sekigahara_{table}_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON {table}"
      " FOR EACH STATEMENT EXECUTE FUNCTION sekigahara_members_changed()" for table in ("members", "web_tokens")),
)


def make_change_triggers(db: Database) -> None:
    """On PostgreSQL, member_changes and the triggers that bump it (made or
    replaced when a host starts, under the write lock: two hosts starting at
    once replace them in turn). database.Error."""
    if db.dialect == "postgresql":
        with db.write():
            for statement in CHANGE_TRIGGERS:
                db.execute(statement)


def changes_version(db: Database) -> int | None:
    """What moves when another connection changed the members or web tokens:
    SQLite's data_version (any commit), PostgreSQL's member_changes."""
    if db.dialect == "sqlite":
        return db.data_version()
    return db.execute("SELECT version FROM member_changes WHERE id = 1").fetchone()[0]


class FileImportError(Exception):
    """A file that could not be imported; one line."""


def web_generation(salt: bytes, digest: bytes) -> str:
    """A fingerprint of a web token's stored hash (never the token): changes with every token."""
    return hashlib.sha256(b"generation" + salt + digest).hexdigest()[:24]


@contextmanager
def reading(data_dir: Path) -> Iterator[Database | None]:
    """A connection to DATA_DIR's club for a question (None: no club there).
    database.Error if it cannot be read."""
    if not club_exists(Path(data_dir)):
        yield None
        return
    db = connect(club_location(Path(data_dir)), timeout=10)
    try:
        yield db
    finally:
        db.close()


# --- the files of a club from before --------------------------------------------------


def _file_lines(path: Path) -> list[list[str]] | None:
    """The fields of each line of a file, or None if there is no file."""
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_FILE + 1)
    except FileNotFoundError:
        return None
    except OSError as error:
        raise FileImportError(f"cannot read {path}: {error.strerror}") from None
    if len(data) > MAX_FILE:
        raise FileImportError(f"{path} is larger than {MAX_FILE} bytes")
    return [line.split() for line in data.decode("utf-8", errors="replace").splitlines()
            if line.strip() and not line.lstrip().startswith("#")]


def _hex_pair(salt: str, digest: str) -> tuple[bytes, bytes] | None:
    try:
        return bytes.fromhex(salt), bytes.fromhex(digest)
    except ValueError:
        return None


def _rows(name: str, lines: list[list[str]], now: float) -> tuple[str, list[tuple]]:
    """The INSERT and the rows of one file's lines (lines not of its format skipped, as they were read before)."""
    if name == KEYS_FILE:  # ALGORITHM BASE64 MEMBER
        return ("INSERT OR IGNORE INTO member_keys (algorithm, data, member, added) VALUES (?, ?, ?, ?)",
                [(f[0], f[1], f[2], now) for f in lines if len(f) >= 3])
    if name == WEB_TOKENS_FILE:  # MEMBER scrypt SALT DIGEST
        rows = []
        for f in lines:
            pair = _hex_pair(f[2], f[3]) if len(f) == 4 and f[1] == "scrypt" else None
            if pair is not None:
                rows.append((f[0], f[2], f[3], web_generation(*pair)))
        return "INSERT OR IGNORE INTO web_tokens (member, salt, digest, generation) VALUES (?, ?, ?, ?)", rows
    # NAME SALT DIGEST
    return ("INSERT OR IGNORE INTO front_credentials (name, salt, digest) VALUES (?, ?, ?)",
            [(f[0], f[1], f[2]) for f in lines if len(f) == 3 and _hex_pair(f[1], f[2]) is not None])


def import_files(db: Database, data_dir: Path, now: float) -> dict[str, int]:
    """Each of DATA_DIR's old files into its table, in one transaction, then
    renamed NAME.imported. {file: rows it had} of those imported (none: {}).
    FileImportError or database.Error (one line): nothing imported, nothing renamed."""
    found = {}
    for name in (KEYS_FILE, WEB_TOKENS_FILE, CREDENTIALS_FILE):
        lines = _file_lines(Path(data_dir) / name)
        if lines is not None:
            found[name] = _rows(name, lines, now)
    if not found:
        return {}
    with db.write():
        for insert, rows in found.values():
            if rows:
                db.executemany(insert, rows)
    for name in found:
        path = Path(data_dir) / name
        try:
            os.replace(path, path.with_name(name + IMPORTED))
        except OSError as error:  # imported already (INSERT OR IGNORE): the next start tries the rename again
            raise FileImportError(f"imported {path}, but cannot rename it: {error.strerror}") from None
    return {name: len(rows) for name, (_, rows) in found.items()}

