"""Where the club's fronts listen: `serve --ssh [HOST:]PORT` and `--web
[HOST:]PORT` (docs/ssh.md), and the lines `sekigahara serve` prints at start
saying where each listens (issue 23, item 6).

The defaults: SSH on every interface, since letting in members from other
machines is what it is for, and SSH encrypts and authenticates; the web
front on 127.0.0.1, since it speaks plain HTTP (the web token and the
sign-in cookie would cross the network in clear): it is offered to others
through a TLS reverse proxy on the same machine.
"""

from __future__ import annotations

import ipaddress
import socket

SSH_DEFAULT_HOST = ""  # every interface, IPv4 and IPv6
WEB_DEFAULT_HOST = "127.0.0.1"
EVERY_INTERFACE = ("", "0.0.0.0", "::")


class AddressError(ValueError):
    """An address that cannot be used; one line."""


def parse_front_address(flag: str, text: str, default_host: str) -> tuple[str, int]:
    """`PORT` (on the default host), `HOST:PORT`, `[IPV6]:PORT`, or `*:PORT`
    (every interface); a port 0 asks for any free port."""
    host, colon, port = text.rpartition(":")
    if not colon:
        host = default_host
    elif host == "*":
        host = ""
    elif host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if (colon and not host and text[0] != "*") or not port.isdigit() or not 0 <= int(port) < 65536 or any(c.isspace() for c in host):
        raise AddressError(f"{flag} wants [HOST:]PORT (such as 2222, 127.0.0.1:8080, [::1]:8080 or *:2222), not {text!r}")
    return host, int(port)


def shown(address: tuple[str, int]) -> str:
    host, port = address
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


def reach(host: str) -> str:
    """Who can connect, in words."""
    if host in EVERY_INTERFACE:
        return "every interface"
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    return "this machine only" if loopback else f"the interface of {host} only"


def listening_line(name: str, host: str, addresses: list[tuple[str, int]], note: str = "") -> str:
    """`SSH: listening on 0.0.0.0:2222, [::]:2222 (every interface)`."""
    where = ", ".join(shown(address) for address in addresses)
    return f"{name}: listening on {where} ({reach(host)}{note})"


def web_note(host: str) -> str:
    """What the web front's line adds: it speaks plain HTTP."""
    if reach(host) == "this machine only":
        return "; offer it to others through a TLS reverse proxy"
    return "; plain HTTP: put a TLS reverse proxy in front of it"


def ssh_command(address: tuple[str, int]) -> str:
    """How a notice says to come back over SSH (unless `serve --notify-resume`
    says otherwise): the port, and the host it listens on, or this machine's
    name when it listens on every interface."""
    host, port = address
    name = socket.getfqdn() if host in EVERY_INTERFACE else host
    return f"ssh -p {port} {name}"
