"""`sekigahara member` as an administrator runs it (issue 23, items 1, 3 and 4):
web tokens are rotated only when asked, removal deletes the token, and no
member may take a guest's name. The real command, in a process of its own."""

from __future__ import annotations

import subprocess
import sys

import asyncssh
import pytest

from sekigahara_tui.hosting.audit import AUDIT_FILE
from sekigahara_tui.hosting.web_tokens import check_web_token


def member(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sekigahara_tui", "member", *args],
                          capture_output=True, text=True, timeout=60)


@pytest.fixture
def club(tmp_path):
    key = tmp_path / "alice.pub"
    key.write_text(asyncssh.generate_private_key("ssh-ed25519").export_public_key("openssh").decode())
    data = tmp_path / "club"
    assert member("add", "alice", "--key", str(key), "--data", str(data)).returncode == 0
    return data, key


def test_a_second_web_token_needs_rotate(club):
    data, _ = club
    first = member("web-token", "alice", "--data", str(data))
    assert first.returncode == 0
    token = first.stdout.strip()
    again = member("web-token", "alice", "--data", str(data))
    assert again.returncode == 1 and again.stdout == ""
    assert again.stderr.strip().endswith("alice has a web token already: --rotate replaces it (and signs their browsers out)")
    assert check_web_token(data, "alice", token)  # refused, it changed nothing
    rotated = member("web-token", "alice", "--rotate", "--data", str(data))
    assert rotated.returncode == 0
    assert check_web_token(data, "alice", rotated.stdout.strip()) and not check_web_token(data, "alice", token)


def test_removing_a_member_deletes_their_web_token_and_a_name_added_again_gets_none_of_it(club, tmp_path):
    data, _ = club
    token = member("web-token", "alice", "--data", str(data)).stdout.strip()
    assert member("remove", "alice", "--data", str(data)).returncode == 0
    assert not check_web_token(data, "alice", token)
    other = tmp_path / "other.pub"
    other.write_text(asyncssh.generate_private_key("ssh-ed25519").export_public_key("openssh").decode())
    assert member("add", "alice", "--key", str(other), "--data", str(data)).returncode == 0
    assert not check_web_token(data, "alice", token)
    fresh = member("web-token", "alice", "--data", str(data))  # no --rotate needed: the old one is gone
    assert fresh.returncode == 0 and fresh.stdout.strip() != token


def test_no_member_may_take_a_guests_name(club, tmp_path):
    data, key = club
    refused = member("add", "guest-x", "--key", str(key), "--data", str(data))
    assert refused.returncode == 1
    assert "names beginning 'guest-' are for guests, not members: 'guest-x'" in refused.stderr
    assert refused.stderr.count("\n") == 1
    listed = member("list", "--data", str(data))
    assert "guest-x" not in listed.stdout


def test_member_changes_are_lines_in_the_audit_log(club, tmp_path):
    data, key = club
    assert member("web-token", "alice", "--data", str(data)).returncode == 0
    assert member("web-token", "alice", "--rotate", "--data", str(data)).returncode == 0
    assert member("remove", "alice", "--data", str(data)).returncode == 0
    assert member("add", "guest-x", "--key", str(key), "--data", str(data)).returncode == 1  # refused: no change, no line
    lines = (data / AUDIT_FILE).read_text().splitlines()
    assert [line.split(" ", 1)[1] for line in lines] == [
        "member-added front=cli member=alice: 1 keys added",
        "web-token front=cli member=alice: issued",
        "web-token front=cli member=alice: replaced: every session signed in with the old one is signed out",
        "member-removed front=cli member=alice: keys and web token deleted; a running club revokes the rest",
    ]
