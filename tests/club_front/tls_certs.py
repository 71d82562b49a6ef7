"""A throwaway certificate authority and server certificates for the TLS tests
(the `cryptography` package, which asyncssh depends on already)."""

from __future__ import annotations

import datetime
import ipaddress
from pathlib import Path

from attrs import frozen
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


@frozen
class Certificates:
    ca: Path  # the CA's certificate: what a client trusts (--tls-ca)
    cert: Path  # the server's certificate, for 127.0.0.1 and localhost
    key: Path
    other_ca: Path  # a CA that signed nothing here: a client trusting it refuses the server


def _name(text: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, text)])


def _ca(name: str):
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(_name(name)).issuer_name(_name(name)).public_key(key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=30))
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    return key, cert


def _pem(cert) -> bytes:
    return cert.public_bytes(serialization.Encoding.PEM)


def make_certificates(directory: Path, names: tuple[str, ...] = ("127.0.0.1", "localhost")) -> Certificates:
    """A CA, a server certificate it signed for `names`, and an unrelated CA, as PEM files in directory."""
    directory.mkdir(parents=True, exist_ok=True)
    ca_key, ca_cert = _ca("sekigahara test CA")
    _, other_cert = _ca("some other CA")
    key = ec.generate_private_key(ec.SECP256R1())
    now = datetime.datetime.now(datetime.timezone.utc)
    alternatives = [x509.IPAddress(ipaddress.ip_address(n)) if n[0].isdigit() else x509.DNSName(n) for n in names]
    cert = (x509.CertificateBuilder().subject_name(_name(names[0])).issuer_name(ca_cert.subject)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1)).not_valid_after(now + datetime.timedelta(days=30))
            .add_extension(x509.SubjectAlternativeName(alternatives), critical=False)
            .sign(ca_key, hashes.SHA256()))
    found = Certificates(directory / "ca.pem", directory / "club.pem", directory / "club.key", directory / "other-ca.pem")
    found.ca.write_bytes(_pem(ca_cert))
    found.other_ca.write_bytes(_pem(other_cert))
    found.cert.write_bytes(_pem(cert))
    found.key.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                            serialization.NoEncryption()))
    found.key.chmod(0o600)
    return found
