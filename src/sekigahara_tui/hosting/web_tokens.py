"""Web tokens: what a member types in the browser's sign-in (with their name).
Only a salted scrypt hash of each is kept, in the club's data directory
(`web_tokens`, 0600, replaced atomically); `sekigahara member web-token NAME`
issues one (`--rotate` says it replaces the one before). The web front end
checks them in the server's process, before any client process is started
for the member; its sign-in cookie is bound to the token's `generation`, so
a new token, or the member's removal, signs every browser out. A running club
follows the file (generations.py, WebTokenFile): a replaced token also ends
every session signed in with the old one at once."""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import secrets
from pathlib import Path

WEB_TOKENS_NAME = "web_tokens"
FAILED_SIGN_IN_DELAY = 1.0  # seconds a wrong name or token waits before its answer
MEMBER_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,31}")
_SCRYPT = {"n": 2**14, "r": 8, "p": 1}


def _hash(token: str, salt: bytes) -> bytes:
    return hashlib.scrypt(token.encode("utf-8"), salt=salt, dklen=32, **_SCRYPT)


def _read_tokens(data_dir: Path) -> dict[str, tuple[bytes, bytes]]:
    try:
        text = (Path(data_dir) / WEB_TOKENS_NAME).read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    tokens = {}
    for line in text.splitlines():
        fields = line.split()
        if len(fields) == 4 and fields[1] == "scrypt":
            try:
                tokens[fields[0]] = (bytes.fromhex(fields[2]), bytes.fromhex(fields[3]))
            except ValueError:
                continue
    return tokens


def issue_web_token(data_dir: Path, member: str) -> str:
    """A new web token for member (replacing any earlier one); only its hash is kept."""
    if not MEMBER_NAME.fullmatch(member):
        raise ValueError(f"not a member name: {member!r}")
    token = secrets.token_urlsafe(15)
    salt = secrets.token_bytes(16)
    tokens = _read_tokens(data_dir)
    tokens[member] = (salt, _hash(token, salt))
    _write_tokens(data_dir, tokens)
    return token


def _write_tokens(data_dir: Path, tokens: dict[str, tuple[bytes, bytes]]) -> None:
    path = Path(data_dir) / WEB_TOKENS_NAME
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        for name, (salt_bytes, digest) in sorted(tokens.items()):
            out.write(f"{name} scrypt {salt_bytes.hex()} {digest.hex()}\n")
    os.replace(temporary, path)


def check_web_token(data_dir: Path, member: str, token: str) -> bool:
    return signed_in_generation(data_dir, member, token) is not None


def signed_in_generation(data_dir: Path, member: str, token: str) -> str | None:
    """The generation of the member's token if `token` is it, else None: read
    once, so a sign-in is bound to the very token it matched."""
    entry = _read_tokens(data_dir).get(member)
    if entry is None or not token or len(token) > 200:
        _hash("x" * 20, b"\0" * 16)  # the same work whether or not the name is known
        return None
    salt, digest = entry
    return _generation(salt, digest) if hmac.compare_digest(_hash(token, salt), digest) else None


def _generation(salt: bytes, digest: bytes) -> str:
    return hashlib.sha256(b"generation" + salt + digest).hexdigest()[:24]


def token_generation(data_dir: Path, member: str) -> str | None:
    """A fingerprint of the member's current token (not the token: a digest of
    its stored hash), or None if they have none. It changes with every token."""
    entry = _read_tokens(data_dir).get(member)
    return None if entry is None else _generation(*entry)


def token_generations(data_dir: Path) -> dict[str, str]:
    """Every member's token generation (token_generation), in one read."""
    return {member: _generation(*entry) for member, entry in _read_tokens(data_dir).items()}


def forget_web_token(data_dir: Path, member: str) -> bool:
    """Delete the member's token (at removal); True if there was one."""
    tokens = _read_tokens(data_dir)
    if tokens.pop(member, None) is None:
        return False
    _write_tokens(data_dir, tokens)
    return True


class WebTokenFile:
    """The running club's view of the tokens' generations, read again only
    when the file was replaced (os.replace: a new inode) or changed."""

    def __init__(self, data_dir: Path) -> None:
        self.path = Path(data_dir) / WEB_TOKENS_NAME
        self._seen: tuple | None = None
        self._now: dict[str, str] = {}
        self._told = self.generations()  # as the club started: nothing replaced yet

    def generations(self) -> dict[str, str]:
        try:
            found = self.path.stat()
            seen: tuple | None = (found.st_ino, found.st_mtime_ns, found.st_ctime_ns, found.st_size)
        except FileNotFoundError:
            seen = None
        if seen != self._seen or seen is None:
            self._now = token_generations(self.path.parent) if seen is not None else {}
            self._seen = seen
        return self._now

    def of(self, member: str) -> str | None:
        return self.generations().get(member)

    def replaced(self) -> dict[str, str]:
        """{member: their new token's generation} for each token replaced by
        another since the last call. A token gone is not here: only a removal
        deletes one, and the removal revokes the member (generations.py)."""
        now = self.generations()
        replaced = {member: generation for member, generation in now.items()
                    if member in self._told and self._told[member] != generation}
        self._told = dict(now)
        return replaced
