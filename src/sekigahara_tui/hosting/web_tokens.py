"""Web tokens: what a member types in the browser's sign-in (with their name).
Only a salted scrypt hash of each is kept, in the club's database (the table
`web_tokens`, member_store.py: SQLite or the club's PostgreSQL, so every
host checks the same tokens); `sekigahara member web-token NAME` issues one
(`--rotate` says it replaces the one before). The web front end checks them
in the server's process, before any client process is started for the
member; its sign-in cookie is bound to the token's `generation`, so a new
token, or the member's removal, signs every browser out. A running club
follows the table (generations.py): a replaced token also ends every session
signed in with the old one at once, on every host."""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import secrets
from pathlib import Path

from sekigahara_tui.hosting import database
from sekigahara_tui.hosting.database import Database
from sekigahara_tui.hosting.member_store import reading, web_generation

FAILED_SIGN_IN_DELAY = 1.0  # seconds a wrong name or token waits before its answer
MEMBER_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,31}")
_SCRYPT = {"n": 2**14, "r": 8, "p": 1}
log = logging.getLogger("sekigahara_tui.web_tokens")


def _hash(token: str, salt: bytes) -> bytes:
    return hashlib.scrypt(token.encode("utf-8"), salt=salt, dklen=32, **_SCRYPT)


def _entry(data_dir: Path, member: str) -> tuple[bytes, bytes] | None:
    """(salt, hash) of the member's token, or None (none, or the database unreadable: nobody signs in)."""
    try:
        with reading(data_dir) as db:
            row = None if db is None else db.execute("SELECT salt, digest FROM web_tokens WHERE member = ?", (member,)).fetchone()
    except database.Error as error:
        log.warning("cannot read the web tokens: %s", error)
        return None
    return None if row is None else (bytes.fromhex(row[0]), bytes.fromhex(row[1]))


def issue_web_token(data_dir: Path, member: str) -> str:
    """A new web token for member (replacing any earlier one); only its hash is
    kept. MemberError (one line) if the database cannot take it."""
    from sekigahara_tui.hosting.members import MemberError, open_members

    if not MEMBER_NAME.fullmatch(member):
        raise ValueError(f"not a member name: {member!r}")
    token = secrets.token_urlsafe(15)
    salt = secrets.token_bytes(16)
    digest = _hash(token, salt)
    db = open_members(Path(data_dir))
    try:
        with db.write():
            db.execute("INSERT OR REPLACE INTO web_tokens (member, salt, digest, generation) VALUES (?, ?, ?, ?)",
                       (member, salt.hex(), digest.hex(), web_generation(salt, digest)))
    except database.Error as error:
        raise MemberError(f"cannot write the club store: {error}") from None
    finally:
        db.close()
    return token


def check_web_token(data_dir: Path, member: str, token: str) -> bool:
    return signed_in_generation(data_dir, member, token) is not None


def signed_in_generation(data_dir: Path, member: str, token: str) -> str | None:
    """The generation of the member's token if `token` is it, else None: read
    once, so a sign-in is bound to the very token it matched."""
    entry = _entry(data_dir, member)
    if entry is None or not token or len(token) > 200:
        _hash("x" * 20, b"\0" * 16)  # the same work whether or not the name is known
        return None
    salt, digest = entry
    return web_generation(salt, digest) if hmac.compare_digest(_hash(token, salt), digest) else None


def token_generation(data_dir: Path, member: str) -> str | None:
    """A fingerprint of the member's current token (not the token: a digest of
    its stored hash), or None if they have none. It changes with every token."""
    entry = _entry(data_dir, member)
    return None if entry is None else web_generation(*entry)


def token_generations(db: Database) -> dict[str, str]:
    """Every member's token generation (token_generation), in one read (database.Error)."""
    return dict(db.execute("SELECT member, generation FROM web_tokens"))


def forget_web_token(data_dir: Path, member: str) -> bool:
    """Delete the member's token; True if there was one (`member remove` deletes it in its own transaction)."""
    from sekigahara_tui.hosting.members import MemberError, open_members

    db = open_members(Path(data_dir))
    try:
        with db.write():
            return db.execute("DELETE FROM web_tokens WHERE member = ?", (member,)).rowcount > 0
    except database.Error as error:
        raise MemberError(f"cannot write the club store: {error}") from None
    finally:
        db.close()
