"""Fronts' credentials (issue 28): what an SSH or web front on another
machine proves itself with when it connects to the club over TLS.

A credential is a secret, not a TLS client certificate: the administrator
makes one with `sekigahara club front-credential NAME --data DIR` (printed
once, `NAME:SECRET`, for the front's `--credential FILE`) and revokes it
with `--revoke`, on the club's data dir, with nothing else to run (no CA to
keep, no revocation list); the club's TLS certificate keeps it from being
read on the way. The club keeps only a salted hash of each, in its database
(the table `front_credentials`, member_store.py: every host of a club knows
every front), read anew at every front's hello and every request, so a
revoked front is refused at once, by every host.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
import secrets
from pathlib import Path

from sekigahara_tui.hosting import database
from sekigahara_tui.hosting.member_store import reading

log = logging.getLogger("sekigahara_tui.front_credentials")
FRONT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}")


class CredentialError(Exception):
    """A front name or credential file that cannot be used; one line."""


def _hash(secret: str, salt: bytes) -> bytes:
    return hashlib.sha256(salt + secret.encode()).digest()


def _entry(data_dir: Path, name: str) -> tuple[bytes, bytes] | None:
    """(salt, hash) of the front's credential, or None (none, or the database unreadable: refused)."""
    try:
        with reading(Path(data_dir)) as db:
            row = None if db is None else db.execute(
                "SELECT salt, digest FROM front_credentials WHERE name = ?", (name,)).fetchone()
    except database.Error as error:
        log.warning("cannot read the fronts' credentials: %s", error)
        return None
    return None if row is None else (bytes.fromhex(row[0]), bytes.fromhex(row[1]))


def _write(data_dir: Path, change: str, parameters: tuple) -> int:
    """One change in the club's database; the rows it changed (CredentialError in one line)."""
    from sekigahara_tui.hosting.members import MemberError, open_members

    try:
        db = open_members(Path(data_dir))
    except MemberError as error:
        raise CredentialError(str(error)) from None
    try:
        with db.write():
            return db.execute(change, parameters).rowcount
    except database.Error as error:
        raise CredentialError(f"cannot write the club store: {error}") from None
    finally:
        db.close()


def issue(data_dir: Path, name: str) -> str:
    """A new credential for the front `name` (replacing its old one): `NAME:SECRET`."""
    if not FRONT_NAME.fullmatch(name):
        raise CredentialError(f"a front's name is letters, digits, - and _ (at most 32), not {name[:40]!r}")
    secret = secrets.token_urlsafe(32)
    salt = secrets.token_bytes(16)
    _write(data_dir, "INSERT OR REPLACE INTO front_credentials (name, salt, digest) VALUES (?, ?, ?)",
           (name, salt.hex(), _hash(secret, salt).hex()))
    return f"{name}:{secret}"


def revoke(data_dir: Path, name: str) -> bool:
    """Forget the front's credential; True if it had one."""
    return _write(data_dir, "DELETE FROM front_credentials WHERE name = ?", (name,)) > 0


def fingerprint(data_dir: Path, name: str) -> bytes | None:
    """What changes when the front's credential is replaced or revoked (None: it has none)."""
    entry = _entry(data_dir, name)
    return None if entry is None else entry[1]


def front_of(data_dir: Path, credential: str) -> str | None:
    """The front a credential (`NAME:SECRET`) is good for now, or None."""
    name, _, secret = credential.partition(":")
    entry = _entry(data_dir, name) if FRONT_NAME.fullmatch(name) else None
    if entry is None or not secret:
        _hash(secret or "x", b"\0" * 16)  # the same work whether or not the name is known
        return None
    salt, digest = entry
    return name if hmac.compare_digest(_hash(secret, salt), digest) else None


def read_credential(path: Path) -> str:
    """A front's credential file's one line (CredentialError in one line)."""
    try:
        text = Path(path).read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError) as error:
        raise CredentialError(f"cannot read the credential {path}: {getattr(error, 'strerror', None) or 'not text'}") from None
    name, _, secret = text.partition(":")
    if not FRONT_NAME.fullmatch(name) or not secret or len(text) > 200 or not text.isprintable():
        raise CredentialError(f"{path} is not a front's credential (NAME:SECRET, from `sekigahara club front-credential`)")
    return text
