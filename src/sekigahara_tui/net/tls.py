"""TLS for the club's TCP door (issue 28): the standard library's `ssl`, with
certificates from files the administrator gives, TLS 1.2 or later.

The server's context holds its certificate chain and key (`serve --listen
HOST:PORT --tls-cert FILE --tls-key FILE`); a client's context trusts the CA
file it is given (`--tls-ca FILE`, SEKIGAHARA_TLS_CA) and checks that the
certificate names the host it connects to. A file that cannot be used is a
TLSError in one line, before anything listens or connects.
"""

from __future__ import annotations

import ssl
from pathlib import Path

from rules.surface import printable_path

# The first byte of a TLS record carrying a handshake: what a TLS client sends first.
TLS_HANDSHAKE = 0x16


class TLSError(OSError):
    """A certificate, key or CA file that cannot be used; one line (an OSError:
    a client says it as it says a club it cannot reach)."""


def _reason(error: Exception) -> str:
    if isinstance(error, ssl.SSLError):
        return error.reason or error.__class__.__name__
    return getattr(error, "strerror", None) or str(error)


def server_context(cert_file: str | Path, key_file: str | Path) -> ssl.SSLContext:
    """The club's side: its certificate (chain) and private key, TLS 1.2+."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_cert_chain(str(cert_file), str(key_file))
    except (OSError, ssl.SSLError) as error:
        raise TLSError(f"cannot use the certificate {printable_path(Path(cert_file))} with the key "
                       f"{printable_path(Path(key_file))}: {_reason(error)}") from None
    return context


def client_context(ca_file: str | Path) -> ssl.SSLContext:
    """A client's side: the club's certificate must be signed by the CA in
    ca_file and name the host connected to; TLS 1.2+."""
    context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=None)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_verify_locations(cafile=str(ca_file))
    except (OSError, ssl.SSLError) as error:
        raise TLSError(f"cannot use the CA file {printable_path(Path(ca_file))}: {_reason(error)}") from None
    return context


def connect_options(host: str, ca_file: str | None) -> dict:
    """asyncio.open_connection's TLS options for a club at `host` (none without a CA file)."""
    if ca_file is None:
        return {}
    return {"ssl": client_context(ca_file), "server_hostname": host}
