"""The audit log (issue 23, item 10): one line per event, whatever a client sends."""

from __future__ import annotations

import logging
import re
import stat

from sekigahara_tui.hosting.audit import AUDIT_FILE, AuditLog

LINE = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \S+( \w+=(\S+|\"[^\"]*\"))*(: .*)?")


def test_a_line_holds_time_event_fields_and_reason(tmp_path):
    log = AuditLog(tmp_path)
    log.record("refused", "4 sessions open, at most 4 a member", front="ssh", member="alice", address="203.0.113.7", game=None)
    log.close()
    (line,) = (tmp_path / AUDIT_FILE).read_text().splitlines()
    assert LINE.fullmatch(line)
    assert line.endswith(" refused front=ssh member=alice address=203.0.113.7: 4 sessions open, at most 4 a member")
    assert stat.S_IMODE((tmp_path / AUDIT_FILE).stat().st_mode) == 0o600


def test_what_a_stranger_sends_cannot_split_or_forge_a_line(tmp_path):
    log = AuditLog(tmp_path)
    log.record("refused", "bad origin\n2026-01-01T00:00:00Z sign-in member=admin", origin='http://x y"\r\nz', member="a b")
    log.close()
    (line,) = (tmp_path / AUDIT_FILE).read_text().splitlines()
    assert 'origin="http://x y\\"\\r\\nz"' in line and 'member="a b"' in line
    assert line.endswith(": bad origin\\n2026-01-01T00:00:00Z sign-in member=admin")


def test_the_log_rotates_by_size(tmp_path):
    log = AuditLog(tmp_path, max_bytes=2000, backups=2)
    for n in range(200):
        log.record("sign-in", member=f"member{n}", front="web")
    log.close()
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == [AUDIT_FILE, AUDIT_FILE + ".1", AUDIT_FILE + ".2"]
    assert all(p.stat().st_size <= 2000 for p in tmp_path.iterdir())
    assert "member=member199" in (tmp_path / AUDIT_FILE).read_text()


def test_the_servers_own_warnings_go_to_the_log_not_stderr(tmp_path, capfd):
    log = AuditLog(tmp_path)
    log.take_server_logs()
    logging.getLogger("asyncio").warning("socket.send() raised exception.")
    log.close()
    assert "socket.send() raised exception." in (tmp_path / AUDIT_FILE).read_text()
    assert "socket.send()" not in capfd.readouterr().err
    assert logging.getLogger("asyncio").handlers == []  # given back at close
