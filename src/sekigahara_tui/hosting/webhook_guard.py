"""Where a webhook may reach (issue 24): no server-side request forgery.

A member gives the club a URL and the club posts to it, so a URL could aim
the club at what only the club's machine can reach: its own services on
loopback, the LAN, a cloud's metadata service (169.254.169.254, the
credentials of the machine). So by default a webhook reaches only public
`https` addresses:

- the host is resolved once, and every address it resolves to must be
  public: not loopback, private, link-local, shared (CGNAT 100.64/10),
  multicast, unspecified or reserved, also when written as IPv6 (an
  IPv4-mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16);
- the club connects to the address it checked, not to the name (no second
  lookup that could answer otherwise): the request goes to the IP, with the
  Host header and TLS's SNI and certificate check for the name;
- a redirect is never followed (the answer counts as a failure), so it
  cannot lead anywhere the check did not see.

`serve --notify-allow-private` lets a LAN club (and the tests) reach private
and loopback addresses over http or https; a metadata address, multicast
and the unspecified address stay refused even then.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from ipaddress import IPv4Address, IPv4Network, IPv6Address, IPv6Network

import httpx
from attrs import frozen

from rules.surface import printable

METADATA = frozenset({IPv4Address("169.254.169.254"), IPv6Address("fd00:ec2::254")})
CGNAT = IPv4Network("100.64.0.0/10")
NAT64 = IPv6Network("64:ff9b::/96")

IPAddress = IPv4Address | IPv6Address


class WebhookRefused(Exception):
    """The club will not post to this webhook; str() is one line. Not tried again."""


def embedded_ipv4(ip: IPv6Address) -> IPv4Address | None:
    """The IPv4 address an IPv6 one stands for, where it stands for one."""
    if ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    if ip in NAT64:
        return IPv4Address(int(ip) & 0xFFFFFFFF)
    return ip.sixtofour


def address_problem(ip: IPAddress, allow_private: bool = False) -> str | None:
    """Why the club may not connect to `ip`, or None."""
    if isinstance(ip, IPv6Address):
        inner = embedded_ipv4(ip)
        if inner is not None:
            problem = address_problem(inner, allow_private)
            return None if problem is None else f"{problem} (as {ip})"
    if ip in METADATA:
        return f"{ip} is a cloud metadata address"
    if ip.is_multicast:
        return f"{ip} is a multicast address"
    if ip.is_unspecified:
        return f"{ip} is the unspecified address"
    if allow_private:
        return None
    for test, what in (
        (ip.is_loopback, "a loopback"),
        (ip.is_link_local, "a link-local"),
        (isinstance(ip, IPv4Address) and ip in CGNAT, "a shared (CGNAT)"),
        (ip.is_private, "a private"),
        (ip.is_reserved, "a reserved"),
        (not ip.is_global, "not a public"),
    ):
        if test:
            return f"{ip} is {what} address"
    return None


@frozen
class Target:
    """A webhook checked: the URL to request (its host the checked address)
    and the name for the Host header and TLS."""

    url: httpx.URL
    name: str  # the host as the member wrote it: TLS's server name
    host: str  # the Host header: the name, and the port if one was given
    address: str

    @property
    def headers(self) -> dict[str, str]:
        return {"Host": self.host}

    @property
    def extensions(self) -> dict[str, str]:
        return {"sni_hostname": self.name} if self.url.scheme == "https" else {}


async def check_webhook(url_text: str, allow_private: bool = False) -> Target:
    """Resolve the webhook's host once and check every address (WebhookRefused)."""
    try:
        url = httpx.URL(url_text)
    except (httpx.InvalidURL, ValueError) as error:
        raise WebhookRefused(f"not a URL: {printable(str(error), 80)}") from None
    if url.scheme not in (("https", "http") if allow_private else ("https",)):
        raise WebhookRefused(f"a webhook must be https, not {printable(url.scheme, 10)!r}")
    name = url.host
    if not name:
        raise WebhookRefused("a webhook URL needs a host")
    port = url.port or (443 if url.scheme == "https" else 80)
    try:
        addresses: list[IPAddress] = [ipaddress.ip_address(name)]
    except ValueError:
        try:
            found = await asyncio.get_running_loop().getaddrinfo(name, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP)
        except (socket.gaierror, UnicodeError) as error:
            raise WebhookRefused(f"cannot resolve {printable(name, 60)}: {printable(str(error), 60)}") from None
        addresses = list(dict.fromkeys(ipaddress.ip_address(info[4][0].split("%")[0]) for info in found))
        if not addresses:
            raise WebhookRefused(f"{printable(name, 60)} resolves to no address")
    for address in addresses:
        problem = address_problem(address, allow_private)
        if problem is not None:
            raise WebhookRefused(f"{printable(name, 60)}: {problem}")
    chosen = str(addresses[0])
    shown_name = f"[{name}]" if ":" in name else name
    host = shown_name if url.port is None else f"{shown_name}:{url.port}"
    return Target(url.copy_with(host=chosen), name, host, chosen)


async def post_webhook(client: httpx.AsyncClient, target: Target, body: dict[str, object]) -> httpx.Response:
    """Post `body` as JSON to the checked address; a redirect is refused, not followed."""
    response = await client.post(target.url, json=body, headers=target.headers, extensions=target.extensions, follow_redirects=False)
    if response.is_redirect:
        where = printable(response.headers.get("location", "?"), 80)
        raise WebhookRefused(f"the webhook answered a redirect (HTTP {response.status_code} to {where}): not followed")
    return response


def webhook_client(timeout: float = 10.0) -> httpx.AsyncClient:
    """The client notices are posted with: no proxy from the environment (it
    would connect elsewhere than the address checked), no redirects."""
    return httpx.AsyncClient(timeout=timeout, trust_env=False, follow_redirects=False)
