"""The lobby over TCP (`serve --listen HOST:PORT`): no peer credential there,
so a member signs in with their name and token (`member web-token NAME`);
the lobby, its pushes, a seat and a spectator all go over TCP."""

from __future__ import annotations

import asyncio
import json

import pytest

from rules.notation import format_command
from rules.sides import Side
from sekigahara_tui.club.client import ClubClient, ClubRefused
from sekigahara_tui.hosting.web_tokens import issue_web_token
from sekigahara_tui.net.protocol import PROTOCOL_VERSION

WAIT = 20.0


@pytest.fixture
async def tcp(club):
    return await club.server.listen_tcp("127.0.0.1", 0)


async def test_a_member_with_a_token_plays_over_tcp_and_is_pushed_the_lobby(club, tcp):
    token = issue_web_token(club.data_dir, "alice")
    alice = ClubClient(None, member="alice", token=token, tcp=tcp)
    pushed: asyncio.Queue = asyncio.Queue()
    alice.on_lobby = pushed.put_nowait
    assert await alice.connect() == "alice"
    assert (await alice.lobby()).open == ()
    made = await club.lobby_client("bob").new_game(None, "open")  # bob over the Unix socket
    lobby = await asyncio.wait_for(pushed.get(), WAIT)
    assert [line.game for line in lobby.open] == [made.game]
    # a game against the computer: the seat's connection goes over TCP too
    entry = await alice.new_game(Side.ISHIDA, "computer")
    seat = alice.seat_client(entry)
    assert seat.address.tcp == tcp and seat.address.unix is None
    task = asyncio.create_task(seat.run())
    try:
        # the computer bids at once (version 1); then ours, so it is not stale
        await seat.wait_for(lambda c: (c.version or 0) >= 1 and c.view is not None and c.view.legal, WAIT)
        seat.submit(format_command(seat.view.legal[0], with_side=False))
        await seat.wait_for(lambda c: (c.version or 0) >= 2, WAIT)
        assert seat.refusals == []
        watcher = alice.watch_client(await alice.watch(entry.game))
        watching = asyncio.create_task(watcher.run())
        await watcher.wait_for(lambda c: c.view is not None, WAIT)
        assert watcher.view.legal == ()
        await watcher.close()
        await watching
    finally:
        await seat.close()
        await task
    await alice.close()


async def test_over_tcp_a_wrong_token_or_a_bare_name_is_refused(club, tcp):
    issue_web_token(club.data_dir, "alice")
    with pytest.raises(ClubRefused, match="do not match") as refused:
        await ClubClient(None, member="alice", token="not-the-token", tcp=tcp).connect()
    assert refused.value.kind == "not-authorised"
    with pytest.raises(ClubRefused, match="do not match"):  # bob has no token at all
        await ClubClient(None, member="bob", token="anything", tcp=tcp).connect()
    with pytest.raises(ValueError, match="needs the member's token"):
        ClubClient(None, member="alice", tcp=tcp)
    # the same name alone, said by hand: the local door is for the Unix socket only
    reader, writer = await asyncio.open_connection(*tcp)
    writer.write(b'{"type":"club_hello","protocol":%d,"session":null,"member":"alice"}\n' % PROTOCOL_VERSION)
    answer = json.loads(await asyncio.wait_for(reader.readline(), WAIT))
    assert answer["type"] == "refused" and "Unix socket" in answer["reason"]
    writer.close()
    # a front end's session token is good over TCP as over the socket
    session = ClubClient(None, session=club.server.open_session("carol"), tcp=tcp)
    assert await session.connect() == "carol"
    await session.close()


async def _club_command(*arguments: str, token: str | None) -> tuple[int, str]:
    import os
    import sys

    env = {k: v for k, v in os.environ.items() if k != "SEKIGAHARA_TOKEN"} | ({"SEKIGAHARA_TOKEN": token} if token else {})
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "sekigahara_tui", "club", *arguments,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, env=env,
    )
    out, _ = await asyncio.wait_for(process.communicate(), 60)
    return process.returncode, out.decode()


async def test_the_club_command_over_tcp_says_in_one_line_what_is_wrong(club, tcp):
    where = f"{tcp[0]}:{tcp[1]}"
    issue_web_token(club.data_dir, "alice")
    status, out = await _club_command("--connect", where, "--member", "alice", token="not-the-token")
    assert status == 1 and out.strip().splitlines() == [out.strip()] and "do not match" in out, out
    status, out = await _club_command("--connect", where, "--member", "alice", token=None)
    assert status == 2 and "SEKIGAHARA_TOKEN" in out and len(out.strip().splitlines()) == 1, out
    status, out = await _club_command("--connect", "nowhere", "--member", "alice", token="x")
    assert status == 2 and "--connect wants HOST:PORT" in out, out


async def test_the_club_command_opens_the_lobby_over_tcp_on_a_terminal(club, tcp):
    """The real `sekigahara club --connect` on a PTY of its own: signed in,
    pushed a game bob makes, and q quits."""
    import os
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "club_front"))
    from front_helpers import LocalTerminal

    token = issue_web_token(club.data_dir, "alice")
    env = dict(os.environ, SEKIGAHARA_TOKEN=token)
    command = [sys.executable, "-m", "sekigahara_tui", "club", "--connect", f"{tcp[0]}:{tcp[1]}", "--member", "alice"]
    terminal = await LocalTerminal.open(command, 100, 30, env=env)
    try:
        await terminal.wait_text("signed in as alice")
        made = await club.lobby_client("bob").new_game(None, "open")
        await terminal.wait_text(made.game)
        await terminal.wait_text("1 open")
        terminal.press(b"q")
        assert await terminal.finish() == 0
    finally:
        await terminal.kill()
