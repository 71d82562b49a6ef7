"""Issue 23: a member's web token replaced (`sekigahara member web-token NAME
--rotate`, the real command, while the club runs in this process) signs out
what was signed in with the old token, and only that.

Signed in with the web token: a lobby connection over TCP (name and token),
and a browser's session (a session token a front end opened with the web
token's generation of the browser's cookie). Signed in by key: an SSH
session's token (no web token's generation). The club looks every
generations.CHECK_EVERY seconds; a request before its look is refused all the
same. The deadlines (WAIT) mean "never", not "late".
"""

from __future__ import annotations

import pytest

from club_helpers import fake_key, wait_until
from sekigahara_tui.club.client import ClubClient, ClubRefused
from sekigahara_tui.hosting.generations import NotAMember
from sekigahara_tui.hosting.lobby import WEB_TOKEN_REPLACED
from sekigahara_tui.hosting.sessions import Sessions
from sekigahara_tui.hosting import members
from sekigahara_tui.hosting.generations import MemberGenerations
from sekigahara_tui.hosting.web_tokens import issue_web_token, token_generation
from test_revocation import audited_club, member_command  # noqa: F401 - a fixture

WAIT = 30.0


async def test_a_rotation_signs_out_the_old_tokens_connections_and_sessions_not_the_keys(audited_club):
    club, audit = audited_club
    tcp = await club.server.listen_tcp("127.0.0.1", 0)
    old = issue_web_token(club.data_dir, "alice")
    signed_with = token_generation(club.data_dir, "alice")  # what a browser's cookie carries
    browser_session = club.server.open_session("alice", web_generation=signed_with)
    ssh_session = club.server.open_session("alice")  # signed in by key
    lost: list[str] = []
    over_tcp = ClubClient(None, member="alice", token=old, tcp=tcp)
    browser = ClubClient(club.socket, session=browser_session)
    ssh = ClubClient(club.socket, session=ssh_session)
    for client in (over_tcp, browser, ssh):
        await client.lobby()  # each follows the lobby
        client.on_lost = lost.append
    try:
        new = (await member_command("web-token", "alice", "--rotate", "--data", str(club.data_dir))).strip()

        await wait_until(lambda: len(lost) == 2, "the old token's two connections closed", WAIT)
        assert lost == [WEB_TOKEN_REPLACED] * 2
        assert (await ssh.lobby()).member == "alice" and ssh.connected  # the key's session goes on
        with pytest.raises(ClubRefused, match="do not match"):
            await over_tcp.lobby()  # it connects again with the old token
        with pytest.raises(ClubRefused, match="unknown or expired session"):
            await ClubClient(club.socket, session=browser_session).connect()
        with pytest.raises(NotAMember, match="replaced"):  # a page opened with the old cookie gets no session
            club.server.open_session("alice", web_generation=signed_with)
        fresh = ClubClient(None, member="alice", token=new, tcp=tcp)
        assert await fresh.connect() == "alice"
        await fresh.close()
    finally:
        for client in (over_tcp, browser, ssh):
            await client.close()
    lines = audit.lines()
    assert sum(" signed-out front=tcp member=alice address=127.0.0.1: the web token was replaced" in line for line in lines) == 1
    assert not any(" revoked " in line for line in lines)


async def test_a_request_before_the_clubs_look_is_refused_too(audited_club):
    club, _ = audited_club
    tcp = await club.server.listen_tcp("127.0.0.1", 0)
    old = issue_web_token(club.data_dir, "alice")
    over_tcp = ClubClient(None, member="alice", token=old, tcp=tcp)
    await over_tcp.connect()
    club.server.generations.unfollow_sign_outs(club.server.sign_out)  # the club does not look: the request alone
    issue_web_token(club.data_dir, "alice")
    with pytest.raises(ClubRefused, match="was replaced"):
        await over_tcp.lobby()
    await over_tcp.close()
    assert "alice" not in club.server.lobby.connections


def test_the_club_tells_a_replaced_token_once_and_not_a_new_or_a_deleted_one(tmp_path):
    members.add(tmp_path, "alice", fake_key())
    members.add(tmp_path, "bob", fake_key())
    issue_web_token(tmp_path, "alice")
    issue_web_token(tmp_path, "bob")
    watched = MemberGenerations(tmp_path)
    told = []
    watched.follow_sign_outs(lambda member, generation: told.append((member, generation)))
    watched.revoke_removed()
    assert told == []
    issue_web_token(tmp_path, "carol")  # a first token replaces nothing
    issue_web_token(tmp_path, "alice")
    watched.revoke_removed()
    assert told == [("alice", token_generation(tmp_path, "alice"))]
    watched.revoke_removed()
    assert len(told) == 1
    from sekigahara_tui.hosting.web_tokens import forget_web_token

    forget_web_token(tmp_path, "bob")  # only a removal deletes one: the removal revokes bob
    watched.revoke_removed()
    assert len(told) == 1 and watched.web_generation_of("bob") is None


def test_sessions_signed_in_with_another_web_token_are_dropped_and_the_keys_kept():
    sessions = Sessions()
    by_key = sessions.open_session("alice", "g1")
    old = sessions.open_session("alice", "g1", web_generation="w1")
    new = sessions.open_session("alice", "g1", web_generation="w2")
    bobs = sessions.open_session("bob", "g2", web_generation="w1")
    assert sessions.sign_out("alice", "w2") == 1
    assert sessions.member_for(old) is None
    assert sessions.member_for(by_key) == ("alice", "g1", None)
    assert sessions.member_for(new) == ("alice", "g1", "w2")
    assert sessions.member_for(bobs) == ("bob", "g2", "w1")


async def test_the_rotation_is_one_line_from_the_cli(audited_club):
    club, audit = audited_club
    await member_command("web-token", "alice", "--data", str(club.data_dir))
    await member_command("web-token", "alice", "--rotate", "--data", str(club.data_dir))
    lines = [line for line in audit.lines() if " web-token front=cli member=alice" in line]
    assert len(lines) == 2 and lines[1].endswith("replaced: every session signed in with the old one is signed out")
