"""The SSH front's host key, DATA_DIR/ssh_host_ed25519_key: made on first
start, and its fingerprint said as `ssh-keygen -lf` says it, so that the
administrator can give it to members to check their first connection
(docs/ssh.md)."""

from __future__ import annotations

import os
from pathlib import Path

import asyncssh
from cryptography.hazmat.primitives.serialization import load_ssh_public_key

HOST_KEY_NAME = "ssh_host_ed25519_key"
# ssh-keygen's name of each key type, and the bits of those of fixed size.
_KEY_TYPES = {"ssh-ed25519": ("ED25519", 256), "ssh-ed448": ("ED448", 456), "ssh-rsa": ("RSA", None), "ssh-dss": ("DSA", None)}


def load_or_make_host_key(data_dir: Path) -> asyncssh.SSHKey:
    """DATA_DIR/ssh_host_ed25519_key, made (mode 0600, atomically) if absent.

    The public half goes beside it (.pub) for administrators to publish the
    fingerprint. An existing key readable by others is made 0600 again.
    """
    path = Path(data_dir) / HOST_KEY_NAME
    if path.exists():
        if path.stat().st_mode & 0o077:
            os.chmod(path, 0o600)
        return asyncssh.read_private_key(str(path))
    key = asyncssh.generate_private_key("ssh-ed25519", comment="sekigahara club host key")
    _write_private(path, key.export_private_key("openssh"))
    public = path.with_name(HOST_KEY_NAME + ".pub")
    public.write_bytes(key.export_public_key("openssh"))
    return key


def fingerprint_line(key: asyncssh.SSHKey) -> str:
    """The key as `ssh-keygen -lf` prints it: bits, SHA256 fingerprint,
    comment, (TYPE): `256 SHA256:... sekigahara club host key (ED25519)`."""
    algorithm = key.get_algorithm()
    name, bits = _KEY_TYPES.get(algorithm, ("ECDSA" if algorithm.startswith("ecdsa-") else algorithm.upper(), None))
    if bits is None:
        public = load_ssh_public_key(key.export_public_key("openssh"))
        bits = getattr(getattr(public, "curve", public), "key_size", 0)
    return f"{bits} {key.get_fingerprint('sha256')} {key.get_comment() or 'no comment'} ({name})"


def _write_private(path: Path, data: bytes) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
