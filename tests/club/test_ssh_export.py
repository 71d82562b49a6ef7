"""`ssh -p PORT member@host export GAME > game.json` and `... records`
(issue 24; club/ssh_exec.py), with Debian's OpenSSH client against the real
SSH front of a real club: a player gets a finished game's record, which
`sekigahara replay` and `analyse` load; a stranger gets a public game's; a
private game of others is refused exactly as a missing game; a game in play
and an unknown command are refused; each refusal is one line on stderr,
exit status 1 and one audit line; no session process is started."""

from __future__ import annotations

import asyncio
import json
import shutil
import sys

import asyncssh
import pytest

from club_helpers import resigned_game, start_club
from helpers import needs_program
from rules.infra.record import load_record
from rules.sides import Side
from sekigahara_tui.cli import main
from sekigahara_tui.club.ssh_front import start_ssh
from sekigahara_tui.hosting import members
from sekigahara_tui.hosting.audit import AuditLog

SSH = shutil.which("ssh") or "/usr/bin/ssh"
pytestmark = needs_program(SSH, "the OpenSSH client (apt-get install openssh-client)")


def key_for(data_dir, tmp_path, member: str):
    key = asyncssh.generate_private_key("ssh-ed25519")
    members.add(data_dir, member, key.export_public_key("openssh").decode())
    path = tmp_path / f"id_{member}"
    path.write_bytes(key.export_private_key("openssh"))
    path.chmod(0o600)
    return path


async def ssh(port: int, key_file, *command: str) -> tuple[int, bytes, bytes]:
    process = await asyncio.create_subprocess_exec(
        SSH, "-F", "/dev/null", "-p", str(port), "-i", str(key_file), "-T",
        "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
        "-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none", "-o", "LogLevel=ERROR",
        "member@127.0.0.1", *command,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(process.communicate(), 60)
    return process.returncode, out, err


def refusals(audit: AuditLog) -> list[str]:
    return [line for line in audit.lines() if " refused " in line]


async def test_members_export_records_over_ssh(data_dir, tmp_path, capsys):
    audit = AuditLog(members.prepare_data_dir(data_dir))  # the club's and the front's
    club = await start_club(data_dir, audit=audit)
    marker = tmp_path / "a-process-was-started"
    front = await start_ssh(club.server, data_dir, 0, "127.0.0.1", audit=audit,
                            child_command=[sys.executable, "-c", f"open({str(marker)!r}, 'w')"])
    alice, carol = key_for(data_dir, tmp_path, "alice"), key_for(data_dir, tmp_path, "carol")
    try:
        public, private = await resigned_game(club, False), await resigned_game(club, True)
        in_play = (await club.lobby_client("bob").new_game(Side.ISHIDA, "open")).game

        # alice, a player: the record on stdout, as the store exports it; it loads and is analysed
        status, out, err = await ssh(front.port, alice, "export", private)
        assert (status, err) == (0, b"")
        assert json.loads(out) == json.loads(club.store.record_json(private))
        saved = tmp_path / "game.json"
        saved.write_bytes(out)
        assert load_record(saved).end is not None
        assert main(["replay", str(saved)]) == 0
        assert main(["analyse", str(saved), "--budget", "1"]) == 0
        assert "Tokugawa won (resigned)" in capsys.readouterr().out

        status, out, err = await ssh(front.port, alice, "records")
        assert status == 0 and err == b""
        lines = out.decode().splitlines()
        assert sorted(line.split()[0] for line in lines) == sorted([public, private])
        assert all("alice (Ishida) against bob (Tokugawa): ishida resigned: tokugawa wins" in line for line in lines)

        # carol, a stranger: a public finished game, yes; a private one, as if it did not exist
        status, out, _ = await ssh(front.port, carol, "export", public)
        assert status == 0 and json.loads(out) == json.loads(club.store.record_json(public))
        before = len(refusals(audit))
        hidden = await ssh(front.port, carol, "export", private)
        missing_id = "Z" * len(private)
        missing = await ssh(front.port, carol, "export", missing_id)
        assert hidden[0] == missing[0] == 1 and hidden[1] == missing[1] == b""
        assert hidden[2].replace(private.encode(), b"GAME") == missing[2].replace(missing_id.encode(), b"GAME") \
            == b"no game 'GAME' in this club\n"
        for command in (["export", in_play], ["export", "../x"], ["ls", "/"]):
            status, out, err = await ssh(front.port, carol, *command)
            assert status == 1 and out == b"" and err.count(b"\n") == 1, (command, err)
        assert b"still in play" in (await ssh(front.port, carol, "export", in_play))[2]
        assert len(refusals(audit)) == before + 6  # one line each: two unknown, three above, and this
    finally:
        front.close()
        await front.wait_closed()
        await club.stop()
        audit.close()
    assert not marker.exists() and front.children == {}
