"""Issue 28, the club's side of a front on another machine, in one process:
the real club server listening with TLS (hosting/tls_door.py) and its front
door (hosting/front_door.py), a RemoteLink (club/remote_link.py) asking it
over a real TLS connection on loopback. The caps are the club's (a place
held through the front counts with the club's own fronts, and is given back
when the front goes), a front's hello is for TLS only, a certificate that
does not name the host is refused, a bad request is one line.
"""

from __future__ import annotations

import asyncio
import json

import pytest

from front_helpers import WAIT, real_club
from tls_certs import make_certificates
from sekigahara_tui.club.front_link import LocalLink
from sekigahara_tui.club.protocol_fronts import FrontHello
from sekigahara_tui.club.remote_link import FrontRefused, RemoteLink
from sekigahara_tui.club.session_caps import MEMBER_CAP_MESSAGE, SessionCaps, SessionLimits
from sekigahara_tui.hosting import front_credentials
from sekigahara_tui.hosting.connections import Door
from sekigahara_tui.hosting.front_door import REVOKED_CREDENTIAL, TLS_ONLY, FrontDoor
from sekigahara_tui.hosting.web_tokens import issue_web_token
from sekigahara_tui.net.protocol import PROTOCOL_VERSION
from sekigahara_tui.net.tls import TLSError, client_context, server_context


@pytest.fixture
async def door(tmp_path):
    """(server, data_dir, caps, port, certs, credential): a club with alice, listening with TLS and a front door."""
    certs = make_certificates(tmp_path / "certs")
    async with real_club("alice") as (server, data_dir, _key):
        caps = SessionCaps(SessionLimits(per_member=1))
        front_door = FrontDoor(LocalLink(server, data_dir, caps, server.audit))
        server.game_server.doors.add(Door(FrontHello, "front_hello", front_door.open))
        _, port = await server.listen_tcp("127.0.0.1", 0, server_context(certs.cert, certs.key))
        yield server, data_dir, caps, port, certs, front_credentials.issue(data_dir, "eu1")


async def until(predicate, what: str) -> None:
    async with asyncio.timeout(WAIT):
        while not predicate():
            await asyncio.sleep(0.01)


async def test_the_caps_are_the_clubs_and_a_front_gone_gives_its_places_back(door):
    server, data_dir, caps, port, certs, credential = door
    link = RemoteLink([("127.0.0.1", port)], str(certs.ca), credential)
    assert await link.connect() == "eu1"
    try:
        assert await link.hold("alice") is None  # a place, counted by the club
        assert caps.of_member == {"alice": 1}
        assert await link.hold("alice") == MEMBER_CAP_MESSAGE.format(count=1, cap=1)
        assert caps.refusal("alice") is not None  # the club's own fronts see the front's session too
        session = await link.open_session("alice")
        assert server.sessions.member_for(session)[0] == "alice"
        with pytest.raises(FrontRefused, match="is not a member"):
            await link.open_session("mallory")
    finally:
        await link.close()
    # The front went without giving back: the club gives back its place and closes its session.
    await until(lambda: not caps.of_member, "the place given back")
    assert server.sessions.member_for(session) is None


async def test_a_front_may_give_back_only_what_it_holds(door):
    server, data_dir, caps, port, certs, credential = door
    caps.take("alice")  # a session of the club's own SSH front
    link = RemoteLink([("127.0.0.1", port)], str(certs.ca), credential)
    await link.connect()
    try:
        link.release("alice")  # this front holds nothing: nothing is given back
        assert await link.hold("alice") == MEMBER_CAP_MESSAGE.format(count=1, cap=1)  # answered after the note
        assert caps.of_member == {"alice": 1}
    finally:
        await link.close()


async def test_a_front_whose_credential_is_replaced_is_refused_at_its_next_question(door):
    server, data_dir, caps, port, certs, credential = door
    issue_web_token(data_dir, "alice")
    link = RemoteLink([("127.0.0.1", port)], str(certs.ca), credential)
    await link.connect()
    try:
        assert await link.web_generation("alice") is not None
        front_credentials.issue(data_dir, "eu1")  # a new one: the front's is no longer good
        assert await link.web_generation("alice") is None  # no answer
        async with asyncio.timeout(WAIT):
            await link.done.wait()
        assert link.ended == REVOKED_CREDENTIAL
    finally:
        await link.close()


async def test_a_front_hello_on_the_unix_socket_is_refused_for_tls_only(door):
    server, data_dir, caps, port, certs, credential = door
    reader, writer = await asyncio.open_unix_connection(str(server.socket_path))
    writer.write(json.dumps({"type": "front_hello", "version": PROTOCOL_VERSION, "credential": credential}).encode() + b"\n")
    refusal = json.loads(await reader.readline())
    assert refusal["type"] == "refused" and refusal["reason"] == TLS_ONLY
    assert await reader.read() == b""
    writer.close()
    assert "refused front=front address=unix:" in (data_dir / "audit.log").read_text()


async def test_a_bad_request_from_a_front_is_one_line_and_the_connection_goes_on(door):
    server, data_dir, caps, port, certs, credential = door
    reader, writer = await asyncio.open_connection("127.0.0.1", port, ssl=client_context(certs.ca), server_hostname="127.0.0.1")
    writer.write(json.dumps({"type": "front_hello", "version": PROTOCOL_VERSION, "credential": credential}).encode() + b"\n")
    assert json.loads(await reader.readline())["type"] == "front_welcome"
    writer.write(b'{"type":"front_hold","id":"1","member":"alice","extra":1}\n')
    refusal = json.loads(await reader.readline())
    assert refusal["type"] == "refused" and refusal["kind"] == "bad-message" and refusal["id"] == "1"
    assert caps.of_member == {}
    writer.write(b'{"type":"front_web_generation","id":"2","member":"alice"}\n')
    assert json.loads(await reader.readline()) == {"type": "front_member", "reply_to": "2", "member": "alice", "generation": None}
    writer.close()


async def test_a_certificate_that_does_not_name_the_host_is_refused(tmp_path):
    certs = make_certificates(tmp_path / "certs", names=("club.example",))
    async with real_club("alice") as (server, data_dir, _key):
        _, port = await server.listen_tcp("127.0.0.1", 0, server_context(certs.cert, certs.key))
        link = RemoteLink([("127.0.0.1", port)], str(certs.ca), "eu1:whatever")
        with pytest.raises(OSError, match="IP address mismatch"):
            await link.connect()


def test_unusable_files_are_one_line(tmp_path):
    certs = make_certificates(tmp_path / "certs")
    with pytest.raises(TLSError, match="^cannot use the CA file .*other.pem: No such file"):
        client_context(tmp_path / "other.pem")
    with pytest.raises(TLSError, match="^cannot use the certificate .* with the key "):
        server_context(certs.cert, certs.ca)  # a certificate for a key
