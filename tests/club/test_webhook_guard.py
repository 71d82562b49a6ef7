"""No server-side request forgery through a webhook (issue 24): by default a
webhook reaches only public https addresses; `--notify-allow-private` lets a
LAN club reach private and loopback ones. A refused webhook is never even
connected to: a real listener on loopback counts the connections."""

from __future__ import annotations

import socket

import pytest

from notice_helpers import Knocks
from sekigahara_tui.hosting.audit import AuditLog
from sekigahara_tui.hosting.notice_delivery import NoticeOptions, NoticeQueue
from sekigahara_tui.hosting.notice_settings import MemberNotices, NoticeSettings
from sekigahara_tui.hosting.notices import YOUR_MOVE, Notice
from sekigahara_tui.hosting.webhook_guard import WebhookRefused, address_problem, check_webhook

NOTICE = Notice(YOUR_MOVE, "g1", "alice", "bob")


def ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as probe:
            probe.bind(("::1", 0))
        return True
    except OSError:
        return False


@pytest.mark.parametrize(
    "url, why",
    [
        ("https://127.0.0.1/hook", "127.0.0.1 is a loopback address"),
        ("https://10.1.2.3/hook", "10.1.2.3 is a private address"),
        ("https://192.168.1.20/hook", "192.168.1.20 is a private address"),
        ("https://169.254.169.254/latest/meta-data/", "169.254.169.254 is a cloud metadata address"),
        ("https://169.254.10.10/", "169.254.10.10 is a link-local address"),
        ("https://100.64.0.1/", "100.64.0.1 is a shared (CGNAT) address"),
        ("https://[::1]/hook", "::1 is a loopback address"),
        ("https://[::ffff:127.0.0.1]/hook", "127.0.0.1 is a loopback address (as ::ffff:7f00:1)"),
        ("https://[::ffff:169.254.169.254]/", "169.254.169.254 is a cloud metadata address (as ::ffff:a9fe:a9fe)"),
        ("https://[fd00:ec2::254]/", "fd00:ec2::254 is a cloud metadata address"),
        ("https://[fe80::1]/", "fe80::1 is a link-local address"),
        ("https://[fc00::5]/", "fc00::5 is a private address"),
        ("https://[64:ff9b::a00:1]/", "10.0.0.1 is a private address (as 64:ff9b::a00:1)"),
        ("https://0.0.0.0/", "0.0.0.0 is the unspecified address"),
        ("https://224.0.0.1/", "224.0.0.1 is a multicast address"),
        ("https://localhost/hook", "127.0.0.1 is a loopback address"),
        ("http://example.org/hook", "a webhook must be https, not 'http'"),
    ],
)
async def test_refused_by_default(url, why):
    with pytest.raises(WebhookRefused) as refused:
        await check_webhook(url)
    assert str(refused.value).endswith(why) and "\n" not in str(refused.value)


@pytest.mark.parametrize("address", ["127.0.0.1", "10.1.2.3", "192.168.1.20", "100.64.0.1", "::1", "::ffff:127.0.0.1", "fc00::5"])
def test_allowed_on_a_lan_club(address):
    from ipaddress import ip_address

    assert address_problem(ip_address(address)) is not None
    assert address_problem(ip_address(address), allow_private=True) is None


@pytest.mark.parametrize("address", ["169.254.169.254", "fd00:ec2::254", "::ffff:169.254.169.254", "224.0.0.1", "0.0.0.0"])
def test_metadata_multicast_and_unspecified_stay_refused_on_a_lan_club(address):
    from ipaddress import ip_address

    assert address_problem(ip_address(address), allow_private=True) is not None


def test_a_public_address_is_allowed():
    from ipaddress import ip_address

    assert address_problem(ip_address("93.184.215.14")) is None
    assert address_problem(ip_address("2606:2800:21f:cb07:6820:80da:af6b:8b2c")) is None


async def test_a_name_is_resolved_once_and_the_request_aims_at_that_address():
    target = await check_webhook("http://localhost:8080/hook?x=1", allow_private=True)
    assert target.address in ("127.0.0.1", "::1")
    assert target.url.host == target.address and target.url.port == 8080 and target.url.raw_path == b"/hook?x=1"
    assert target.headers == {"Host": "localhost:8080"}
    secure = await check_webhook("https://localhost/hook", allow_private=True)
    assert secure.extensions == {"sni_hostname": "localhost"} and secure.headers == {"Host": "localhost"}


@pytest.fixture
async def knocks():
    listeners = [await Knocks().start("127.0.0.1")]
    if ipv6_loopback():
        listeners.append(await Knocks().start("::1"))
    yield listeners
    for listener in listeners:
        await listener.stop()


async def test_a_refused_webhook_is_never_connected_to_unless_the_club_allows_private(tmp_path, knocks):
    v4 = knocks[0]
    urls = [
        f"https://127.0.0.1:{v4.port}/hook",
        f"https://[::ffff:127.0.0.1]:{v4.port}/hook",
        f"https://localhost:{v4.port}/hook",
        "https://10.20.30.40/hook",
        "https://169.254.169.254/latest/meta-data/",
    ]
    if len(knocks) > 1:
        urls.append(f"https://[::1]:{knocks[1].port}/hook")
    settings = NoticeSettings(tmp_path)
    audit = AuditLog(tmp_path)
    try:
        for url in urls:
            settings.set("alice", MemberNotices(webhook=url))
            queue = NoticeQueue(settings, NoticeOptions(), audit, attempts=1)
            queue.send("alice", NOTICE)
            await queue.idle()
            await queue.close()
        assert sum(listener.count for listener in knocks) == 0
        refused = [line for line in audit.lines() if "Z notice-refused " in line]
        assert len(refused) == len(urls)
        assert all("member=alice game=g1 channel=webhook" in line for line in refused)
        # The same loopback webhooks on a LAN club: they are connected to
        # (the listener speaks no TLS, so each fails after connecting).
        for url in [url for url in urls if "10.20.30.40" not in url and "169.254" not in url]:
            settings.set("alice", MemberNotices(webhook=url))
            queue = NoticeQueue(settings, NoticeOptions(allow_private=True), audit, attempts=1)
            queue.send("alice", NOTICE)
            await queue.idle()
            await queue.close()
        assert sum(listener.count for listener in knocks) == len(urls) - 2
    finally:
        settings.close()
        audit.close()
