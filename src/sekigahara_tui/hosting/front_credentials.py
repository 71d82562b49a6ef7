"""Fronts' credentials (issue 28): what an SSH or web front on another
machine proves itself with when it connects to the club over TLS.

A credential is a secret, not a TLS client certificate: the administrator
makes one with `sekigahara club front-credential NAME --data DIR` (printed
once, `NAME:SECRET`, for the front's `--credential FILE`) and revokes it
with `--revoke`, on the club's data dir, with nothing else to run (no CA to
keep, no revocation list); the club's TLS certificate keeps it from being
read on the way. The club keeps only a salted hash of each, in
DATA_DIR/front_credentials (0600), read anew at every front's hello and
every request, so a revoked front is refused at once.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from pathlib import Path

from sekigahara_tui.net.locations import write_private

CREDENTIALS_FILE = "front_credentials"
FRONT_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}")


class CredentialError(Exception):
    """A front name or credential file that cannot be used; one line."""


def _hash(secret: str, salt: bytes) -> bytes:
    return hashlib.sha256(salt + secret.encode()).digest()


def _read(data_dir: Path) -> dict[str, tuple[bytes, bytes]]:
    try:
        text = (Path(data_dir) / CREDENTIALS_FILE).read_text(encoding="ascii")
    except FileNotFoundError:
        return {}
    found = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 3:
            found[parts[0]] = (bytes.fromhex(parts[1]), bytes.fromhex(parts[2]))
    return found


def _write(data_dir: Path, credentials: dict[str, tuple[bytes, bytes]]) -> None:
    text = "".join(f"{name} {salt.hex()} {digest.hex()}\n" for name, (salt, digest) in sorted(credentials.items()))
    write_private(Path(data_dir) / CREDENTIALS_FILE, text)


def issue(data_dir: Path, name: str) -> str:
    """A new credential for the front `name` (replacing its old one): `NAME:SECRET`."""
    if not FRONT_NAME.fullmatch(name):
        raise CredentialError(f"a front's name is letters, digits, - and _ (at most 32), not {name[:40]!r}")
    secret = secrets.token_urlsafe(32)
    salt = secrets.token_bytes(16)
    credentials = _read(data_dir)
    credentials[name] = (salt, _hash(secret, salt))
    _write(data_dir, credentials)
    return f"{name}:{secret}"


def revoke(data_dir: Path, name: str) -> bool:
    """Forget the front's credential; True if it had one."""
    credentials = _read(data_dir)
    if credentials.pop(name, None) is None:
        return False
    _write(data_dir, credentials)
    return True


def fingerprint(data_dir: Path, name: str) -> bytes | None:
    """What changes when the front's credential is replaced or revoked (None: it has none)."""
    entry = _read(data_dir).get(name)
    return None if entry is None else entry[1]


def front_of(data_dir: Path, credential: str) -> str | None:
    """The front a credential (`NAME:SECRET`) is good for now, or None."""
    name, _, secret = credential.partition(":")
    entry = _read(data_dir).get(name)
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
