"""Commands a member runs over SSH instead of the lobby (issue 24):

    ssh -p PORT club-host export GAME > game.json    # a finished game's record
    ssh -p PORT club-host records                    # my finished games, one a line

No process is started for them: the SSH front asks the lobby in the
member's name (member_requests.py), under the rule of `get_record` and the
web download (hosting/invitations.finished_record): a finished game's record
for its players, and for any member if it was public; a private game of
others answers exactly as a game that does not exist. The answer goes to
stdout; a refusal is one line on stderr, exit status 1, and one audit line
(the lobby's for its refusals, the front's for the rest).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import asyncssh

from sekigahara_tui.club.client import ClubRefused
from rules.infra.untrusted import printable
from sekigahara_tui.club.member_requests import GAME_ID, NoSession, ask_as_member
from sekigahara_tui.hosting.club_games import unknown

if TYPE_CHECKING:
    from sekigahara_tui.club.ssh_front import SSHFront

USAGE = ("sekigahara over SSH: connect with no command for the lobby (`ssh -t` if asked), "
         "or run `export GAME` (a finished game's record) or `records` (your finished games)")
CLUB_UNREACHABLE = "The club is not answering: try again in a moment."


class _Refused(Exception):
    """One line for the member; `audited`: the lobby wrote its audit line already."""

    def __init__(self, line: str, audited: bool = False) -> None:
        super().__init__(line)
        self.audited = audited


def is_exec(process: asyncssh.SSHServerProcess) -> bool:
    """A session that asks to run a command (not the lobby, not a subsystem)."""
    return process.command is not None and process.subsystem is None


async def run_exec(front: SSHFront, process: asyncssh.SSHServerProcess, member: str, address: str | None) -> int:
    """Run the session's command for `member`: its exit status."""
    try:
        output = await _answer(front, member, str(process.command))
    except _Refused as refusal:
        line = str(refusal)
        if not refusal.audited:
            front.audit_refusal(line, member=member, address=address)
        ending = "\r\n" if process.get_terminal_type() is not None else "\n"
        process.stderr.write((line + ending).encode())
        return 1
    process.stdout.write(output.encode())
    await process.stdout.drain()
    return 0


async def _answer(front: SSHFront, member: str, command: str) -> str:
    words = command.split()
    if len(words) == 2 and words[0] == "export":
        game = words[1]
        if not GAME_ID.fullmatch(game):  # no game has such an id: the club's own answer for an unknown game
            raise _Refused(unknown(game).reason)
        record = await _ask(front, member, lambda client: client.record(game))
        return record if record.endswith("\n") else record + "\n"
    if words == ["records"]:
        lobby = await _ask(front, member, lambda client: client.lobby())
        return "".join(f"{line.game}  {line.ishida or '?'} (Ishida) against {line.tokugawa or '?'} (Tokugawa): "
                       f"{line.result or 'over'}\n" for line in lobby.finished)
    raise _Refused(f"{USAGE}; not {printable(command, 60)!r}")


async def _ask(front: SSHFront, member: str, ask):
    try:
        return await ask_as_member(front.link, member, ask)
    except ClubRefused as refusal:  # the lobby audited it
        raise _Refused(str(refusal), audited=True) from None
    except NoSession as error:
        raise _Refused(f"The club would not open a session for {member}: {error}") from None
    except (OSError, TimeoutError):
        raise _Refused(CLUB_UNREACHABLE) from None
