"""`serve` gives the club and both front ends one audit log (DIR/audit.log,
which takes the server's own warnings too) and one SessionCaps, so a member's
sessions count over SSH and the web together (issue 23, items 2 and 10), and
tells the club whether guests are let in (item 4)."""

from __future__ import annotations

import logging

import asyncssh

from sekigahara_tui.club import ssh_front, web_front
from sekigahara_tui.club.serve import serve
from sekigahara_tui.club.session_caps import SessionCaps
from sekigahara_tui.hosting.audit import AUDIT_FILE, AuditLog


class StartedFront:
    port = 1
    addresses = [("127.0.0.1", 1)]
    url = "http://127.0.0.1:1/"
    host_key = asyncssh.generate_private_key("ssh-ed25519", comment="a test's host key")

    def close(self) -> None:
        pass

    async def wait_closed(self) -> None:
        pass


async def test_serve_gives_the_club_and_both_fronts_one_audit_log_and_one_session_caps(data_dir, monkeypatch):
    started: dict[str, tuple] = {}

    def starter(name: str):
        def start(club, data_dir, port, *arguments, **options):
            started[name] = (club, options)
            return StartedFront()
        return start

    monkeypatch.setattr(ssh_front, "start_ssh", starter("ssh"))
    monkeypatch.setattr(web_front, "start_web", starter("web"))
    while_serving: dict[str, object] = {}

    def ready(club) -> None:
        while_serving["asyncio handlers"] = list(logging.getLogger("asyncio").handlers)
        club.done.set()  # and stop at once

    assert await serve(data_dir, ssh=("", 0), web=("127.0.0.1", 0), say=lambda line: None, ready=ready, guest=True) == "stopped"
    (club, ssh), (web_club, web) = started["ssh"], started["web"]
    assert web_club is club and club.generations.guests
    assert isinstance(ssh["caps"], SessionCaps) and ssh["caps"] is web["caps"]
    assert isinstance(club.audit, AuditLog) and ssh["audit"] is web["audit"] is club.audit
    assert club.audit.path == data_dir / AUDIT_FILE
    assert while_serving["asyncio handlers"] == [club.audit.handler]
    assert logging.getLogger("asyncio").handlers == []  # given back when the server stops
