"""The club's members: a name each, and the SSH public keys that sign them in.

Both live in the club's database (DATA_DIR/club.sqlite, or the PostgreSQL
database DATA_DIR/store.url names: database.py): names in `members`, keys in
`member_keys` (member_store.py; a club from before kept its keys in
DATA_DIR/authorized_keys, imported once when the club is opened). The SSH
front end asks `member_for_key(data_dir, key)`, which reads the database at
each sign-in: a key added or removed on any host holds at the next
connection, on every host. Each change is one write transaction (the
database's write lock: SQLite's BEGIN IMMEDIATE, PostgreSQL's advisory lock),
so a running club and `sekigahara member add` on any machine may work side
by side.

Every function raises MemberError with a one-line reason, and changes nothing
when it does.
"""

from __future__ import annotations

import base64
import binascii
import builtins
import fcntl
import logging
import os
import re
import secrets
import struct
import time
from pathlib import Path

from attrs import frozen

from rules.surface import printable, printable_path
from sekigahara_tui.hosting import database
from sekigahara_tui.hosting.database import Database, club_exists, club_location, connect
from sekigahara_tui.hosting.member_store import FileImportError, import_files, reading
from sekigahara_tui.hosting.store_schema import bring_up_to_date

STORE_FILE = database.STORE_FILE  # "club.sqlite"
LOCK_FILE = "members.lock"
NAME = re.compile(r"[a-z][a-z0-9_-]{0,31}")
# The player name of a seat the server plays; no member can have it (NAME).
COMPUTER = "computer"
RESERVED = frozenset({COMPUTER})
# Guests of `serve --guest` are named GUEST_PREFIX + their SSH user name: no
# member may hold such a name, or a guest could sign in as that member.
GUEST_PREFIX = "guest-"
KEY_ALGORITHMS = frozenset(
    {
        "ssh-ed25519",
        "ssh-rsa",
        "ecdsa-sha2-nistp256",
        "ecdsa-sha2-nistp384",
        "ecdsa-sha2-nistp521",
        "sk-ssh-ed25519@openssh.com",
        "sk-ecdsa-sha2-nistp256@openssh.com",
    }
)
MAX_KEYS = 16  # per member
# The members table and `chat_mutes` are made by migration 7 (member_store.py).
log = logging.getLogger("sekigahara_tui.members")
# A member's generation: random, made when the name is added; removing the
# member deletes it, so a name added again has another one. Every seat,
# spectator and session token the club mints for a member is bound to it
# (hosting/generations.py): a removed member's tokens are worth nothing, and a
# re-added name gets none of them back. Made here (24 hex digits), or in SQL
# for the members of a SQLite store older than generations.
NEW_GENERATION = "lower(hex(randomblob(12)))"


def new_generation() -> str:
    return secrets.token_hex(12)


class MemberError(Exception):
    """A member or key that cannot be added, removed or read; one line."""


@frozen
class Member:
    name: str
    keys: int  # how many public keys sign this member in
    added: float


# --- names and keys ----------------------------------------------------------------


def name_problem(name: str) -> str | None:
    if not NAME.fullmatch(name):
        return f"a member's name is 1-32 characters of a-z, 0-9, - and _, beginning with a letter, not {printable(name, 40)!r}"
    if name in RESERVED:
        return f"{name!r} is reserved"
    if name.startswith(GUEST_PREFIX):
        return f"names beginning {GUEST_PREFIX!r} are for guests, not members: {name!r}"
    return None


def parse_key(text: str) -> tuple[str, str]:
    """(algorithm, base64) of one OpenSSH public key line (`ALG BASE64
    [COMMENT]`), or of its `ALG BASE64` part. MemberError if it is not one."""
    fields = text.strip().split()
    if len(fields) < 2:
        raise MemberError("a public key is 'ALGORITHM BASE64 [COMMENT]' (an OpenSSH .pub file)")
    algorithm, data = fields[0], fields[1]
    if algorithm not in KEY_ALGORITHMS:
        raise MemberError(f"not an OpenSSH public key algorithm: {printable(algorithm, 40)!r}")
    try:
        blob = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise MemberError("the key's base64 part is not valid base64") from None
    # The blob begins with the algorithm's name as an SSH string.
    if len(blob) < 4 or blob[4 : 4 + struct.unpack(">I", blob[:4])[0]] != algorithm.encode():
        raise MemberError(f"the key's data is not an {algorithm} key")
    return algorithm, data


def parse_key_file(text: str) -> builtins.list[tuple[str, str]]:
    """Every key of a .pub file's text (blank lines and # comments skipped)."""
    keys = [parse_key(line) for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    if not keys:
        raise MemberError("no public key in the key file")
    return keys


def member_for_key(data_dir: Path, key: str) -> str | None:
    """The member a public key signs in (an OpenSSH key line, or its
    `ALGORITHM BASE64` part), or None for a key nobody holds or not a key."""
    try:
        algorithm, data = parse_key(key)
        with reading(Path(data_dir)) as db:
            row = None if db is None else db.execute(
                "SELECT member FROM member_keys WHERE algorithm = ? AND data = ?", (algorithm, data)).fetchone()
    except MemberError:
        return None
    except database.Error as error:  # the database away: nobody signs in by key meanwhile
        log.warning("cannot read the members' keys: %s", error)
        return None
    return None if row is None else row[0]


# --- the members table -------------------------------------------------------------


def open_members(data_dir: Path) -> Database:
    """The club store, brought up to date (the members' tables made if
    missing), and DATA_DIR's files from before imported (member_store.py)."""
    location: database.Location = Path(data_dir) / STORE_FILE
    db = None
    try:
        location = club_location(Path(data_dir))
        db = connect(location, private=True, wal=True, timeout=10)
        make_member_tables(db)
        if Path(data_dir).is_dir():
            with _Locked(Path(data_dir)):  # two openers at once: one imports, the other finds the files gone
                imported = import_files(db, Path(data_dir), time.time())
            for name, rows in imported.items():
                log.warning("imported %d lines of %s into the club's database (the file is now %s.imported)", rows, name, name)
    except (database.Error, FileImportError) as error:
        if db is not None:
            db.close()
        raise MemberError(f"cannot open the club store {database.shown(location)}: {error}") from None
    return db


def make_member_tables(db: Database) -> None:
    """The store's tables, the members' among them, made if missing and
    brought up to date (database.Error)."""
    bring_up_to_date(db)
    if db.dialect == "sqlite":  # a PostgreSQL store was made with generations
        _give_generations(db)


def _give_generations(db: Database) -> None:
    """A club store made before generations: the column added, each member given one."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(members)")}
    if "generation" not in columns:
        try:
            db.execute("ALTER TABLE members ADD COLUMN generation TEXT")
        except database.Error:
            pass  # another process (the server, a `member` command) added it first
    if db.execute("SELECT 1 FROM members WHERE generation IS NULL LIMIT 1").fetchone():
        db.execute(f"UPDATE members SET generation = {NEW_GENERATION} WHERE generation IS NULL")


def generations(db: Database) -> dict[str, str]:
    """Every member's generation, by name (database.Error)."""
    return dict(db.execute("SELECT name, generation FROM members"))


def prepare_data_dir(data_dir: Path) -> Path:
    """DATA_DIR as a directory only its owner may enter (0700), made if missing."""
    data_dir = Path(data_dir)
    if data_dir.exists() and not data_dir.is_dir():
        raise MemberError(f"{printable_path(data_dir)} is not a directory")
    try:
        data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        os.chmod(data_dir, 0o700)  # the store holds every game's seed and hands
    except OSError as error:
        raise MemberError(f"cannot make {printable_path(data_dir)}: {error.strerror}") from None
    return data_dir.resolve()


class _Locked:
    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / LOCK_FILE

    def __enter__(self) -> None:
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        fcntl.flock(self.fd, fcntl.LOCK_EX)

    def __exit__(self, *_: object) -> None:
        os.close(self.fd)


def add(data_dir: Path, name: str, key_text: str) -> int:
    """Add member `name` with the keys of `key_text` (a .pub file's text), or
    add keys to an existing member. Returns how many keys were new."""
    problem = name_problem(name)
    if problem is not None:
        raise MemberError(problem)
    keys = builtins.list(dict.fromkeys(parse_key_file(key_text)))
    data_dir = prepare_data_dir(data_dir)
    db = open_members(data_dir)
    try:
        with db.write():  # the checks and the change in one transaction: no other writer between them
            new = []
            for algorithm, data in keys:
                row = db.execute("SELECT member FROM member_keys WHERE algorithm = ? AND data = ?", (algorithm, data)).fetchone()
                if row is not None and row[0] != name:
                    raise MemberError(f"that key already signs in member {row[0]!r}")
                if row is None:
                    new.append((algorithm, data))
            held = db.execute("SELECT count(*) FROM member_keys WHERE member = ?", (name,)).fetchone()[0]
            if held + len(new) > MAX_KEYS:
                raise MemberError(f"a member has at most {MAX_KEYS} keys")
            now = time.time()
            db.execute("INSERT OR IGNORE INTO members (name, added, generation) VALUES (?, ?, ?)", (name, now, new_generation()))
            db.executemany("INSERT INTO member_keys (algorithm, data, member, added) VALUES (?, ?, ?, ?)",
                           [(algorithm, data, name, now) for algorithm, data in new])
    except database.Error as error:
        raise MemberError(f"cannot write the club store: {error}") from None
    finally:
        db.close()
    return len(new)


def remove(data_dir: Path, name: str) -> None:
    """Remove a member, their keys and their web token, in one transaction
    (their games stay in the store). Every host that follows the database
    revokes them at its next look (generations.py)."""
    data_dir = Path(data_dir)
    if not club_exists(data_dir):
        raise MemberError(f"no club in {printable_path(data_dir)}")
    db = open_members(data_dir)
    try:
        with db.write():
            if db.execute("DELETE FROM members WHERE name = ?", (name,)).rowcount == 0:
                raise MemberError(f"no member {printable(name, 40)!r}")
            db.execute("DELETE FROM member_keys WHERE member = ?", (name,))
            db.execute("DELETE FROM web_tokens WHERE member = ?", (name,))  # a name added again is not signed in by the old token
    except database.Error as error:
        raise MemberError(f"cannot write the club store: {error}") from None
    finally:
        db.close()


def list_members(data_dir: Path) -> builtins.list[Member]:
    """Every member, by name."""
    data_dir = Path(data_dir)
    if not club_exists(data_dir):
        return []
    db = open_members(data_dir)
    try:
        rows = db.execute("SELECT m.name, (SELECT count(*) FROM member_keys k WHERE k.member = m.name), m.added"
                          " FROM members m ORDER BY m.name").fetchall()
    except database.Error as error:
        raise MemberError(f"cannot read the club store: {error}") from None
    finally:
        db.close()
    return [Member(name, keys, added) for name, keys, added in rows]


def set_muted(data_dir: Path, name: str, muted: bool) -> None:
    """Mute a member's chat (or unmute it); MemberError if they are no member,
    or already so (nothing changed)."""
    data_dir = Path(data_dir)
    if not is_member(data_dir, name):
        raise MemberError(f"no member {printable(name, 40)!r}")
    db = open_members(data_dir)
    try:
        if muted:
            changed = db.execute("INSERT OR IGNORE INTO chat_mutes (member, at) VALUES (?, ?)", (name, time.time())).rowcount
        else:
            changed = db.execute("DELETE FROM chat_mutes WHERE member = ?", (name,)).rowcount
    except database.Error as error:
        raise MemberError(f"cannot write the club store: {error}") from None
    finally:
        db.close()
    if not changed:
        raise MemberError(f"{name} is muted already" if muted else f"{name} is not muted")


def is_member(data_dir: Path, name: str) -> bool:
    return any(member.name == name for member in list_members(data_dir))


list = list_members  # members.list(data_dir), as the front ends call it
