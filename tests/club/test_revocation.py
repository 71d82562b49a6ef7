"""Issue 23, item 3: removing a member revokes everything of theirs at once.

The club runs in this process; the administrator's `sekigahara member remove`
and `member add` are the real commands, in processes of their own, while it
runs. A member's lobby connection, a seat over TCP and a spectator's
connection are closed soon after the removal (the club looks every
generations.CHECK_EVERY seconds; the tests wait with a deadline that means
"never", not "late"), and every token the member held is refused from then
on, even once the name is added again.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import sys

import pytest

from club_helpers import fake_key, start_club, wait_until
from rules.sides import Side
from sekigahara_tui.club.client import ClubClient, ClubRefused
from sekigahara_tui.hosting import members
from sekigahara_tui.hosting.audit import AuditLog
from sekigahara_tui.hosting.generations import GUEST, MemberGenerations, NotAMember
from sekigahara_tui.net.client import Client
from sekigahara_tui.net.protocol import PROTOCOL_VERSION

WAIT = 30.0


@pytest.fixture
async def audited_club(data_dir):
    members.prepare_data_dir(data_dir)
    audit = AuditLog(data_dir)
    club = await start_club(data_dir, audit=audit)
    yield club, audit
    await club.stop()
    audit.close()


async def member_command(*arguments: str) -> str:
    """The real `sekigahara member ...`, run while the club runs (its output; it must succeed)."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "sekigahara_tui", "member", *arguments,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )
    out, _ = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0, out
    return out.decode()


async def raw_first_answer(address: tuple[str, int], message: dict) -> dict:
    """The club's answer to a first line said by hand over TCP."""
    reader, writer = await asyncio.open_connection(*address)
    writer.write(json.dumps(message).encode() + b"\n")
    try:
        return json.loads(await asyncio.wait_for(reader.readline(), WAIT))
    finally:
        writer.close()


def hello(game: str, side: Side, token: str) -> dict:
    return {"type": "hello", "protocol": PROTOCOL_VERSION, "game": game, "seat": side.value, "token": token, "seen": None}


def watch_game(game: str, token: str) -> dict:
    return {"type": "watch_game", "protocol": PROTOCOL_VERSION, "game": game, "token": token, "seen": None}


async def test_a_removed_member_is_cut_off_at_once_and_a_name_added_again_gets_nothing_back(audited_club, tmp_path):
    club, audit = audited_club
    tcp = await club.server.listen_tcp("127.0.0.1", 0)
    session = club.server.open_session("alice")
    alice = ClubClient(club.socket, session=session)
    lost: asyncio.Queue = asyncio.Queue()
    alice.on_lost = lost.put_nowait
    await alice.lobby()  # follows the lobby
    mine = await alice.new_game(Side.ISHIDA, "computer")
    bobs = await club.lobby_client("bob").new_game(Side.ISHIDA, "computer")
    watching = await alice.watch(bobs.game)
    # A seat over TCP, and a spectator's connection, both alice's.
    from sekigahara_tui.net.locations import Address

    seat = Client(Address(tcp=tcp), mine.game, mine.seat, mine.token)
    seat_task = asyncio.create_task(seat.run())
    watcher = alice.watch_client(watching)
    watch_task = asyncio.create_task(watcher.run())
    await seat.wait_for(lambda c: c.connected and c.view is not None, WAIT)
    await watcher.wait_for(lambda c: c.connected and c.view is not None, WAIT)

    await member_command("remove", "alice", "--data", str(club.data_dir))

    await asyncio.wait_for(seat_task, WAIT)  # stopped for good: the seat was closed with a final refusal
    assert seat.fatal.kind == "not-authorised" and seat.fatal.reason == "alice is no longer a member of this club"
    await asyncio.wait_for(watch_task, WAIT)
    assert watcher.fatal.kind == "not-authorised"
    assert "no longer a member" in await asyncio.wait_for(lost.get(), WAIT)
    await wait_until(lambda: "alice" not in club.server.lobby.connections, "alice's lobby connections closed")
    with pytest.raises(ClubRefused, match="unknown or expired session"):  # the session the front end held
        await ClubClient(club.socket, session=session).connect()
    with pytest.raises(NotAMember):  # a front end asking for a new one
        club.server.open_session("alice")

    # The name added again (another person's key): none of the old tokens works.
    other = tmp_path / "other.pub"
    other.write_text(fake_key())
    await member_command("add", "alice", "--key", str(other), "--data", str(club.data_dir))
    for _ in range(2):  # at once, and after the club has looked again
        answer = await raw_first_answer(tcp, hello(mine.game, mine.seat, mine.token))
        assert (answer["type"], answer["kind"], answer["reason"]) == ("refused", "not-authorised", "wrong token for the ishida seat, or no such game here")
        answer = await raw_first_answer(tcp, watch_game(bobs.game, watching.token))
        assert (answer["type"], answer["kind"]) == ("refused", "not-authorised")
        with pytest.raises(ClubRefused, match="unknown or expired session"):
            await ClubClient(club.socket, session=session).connect()
        club.server.generations.revoke_removed()  # what the club's next look does
    # The new alice gets tokens of her own.
    again = ClubClient(club.socket, session=club.server.open_session("alice"))
    assert (await again.enter(mine.game)).token != mine.token
    assert (await again.watch(bobs.game)).token != watching.token
    await again.close()
    await alice.close()

    lines = audit.lines()
    assert sum(" revoked front=club member=alice: 3 connections closed, 1 sessions ended" in line for line in lines) == 1
    assert any(" refused game=" in line and "seat=ishida address=127.0.0.1: wrong token for the ishida seat" in line for line in lines)
    assert any(" refused game=" in line and "address=127.0.0.1: wrong spectator's token for that game" in line for line in lines)
    assert any(" refused front=club address=unix:" in line and line.endswith(": unknown or expired session: sign in again") for line in lines)


async def test_a_removed_members_lobby_request_is_refused_before_the_club_looks(audited_club):
    club, audit = audited_club
    club.server.generations.unfollow(club.server.revoke)  # nobody closes alice's connection: her request must be refused all the same
    alice = club.lobby_client("alice")
    await alice.lobby()
    await member_command("remove", "alice", "--data", str(club.data_dir))
    with pytest.raises((ClubRefused, ConnectionError)) as refused:
        await alice.new_game(None, "open")
    if isinstance(refused.value, ClubRefused):
        assert str(refused.value) == "alice is no longer a member of this club"
    bob = club.lobby_client("bob")
    assert [line.game for line in (await bob.lobby()).open] == []  # she made nothing
    await bob.close()
    await alice.close()
    assert any(" refused front=club member=alice " in line and "no longer a member" in line for line in audit.lines())


def test_a_generation_is_made_at_add_kept_for_more_keys_and_new_when_the_name_comes_back(tmp_path):
    data_dir = members.prepare_data_dir(tmp_path / "club")
    members.add(data_dir, "alice", fake_key())
    generations = MemberGenerations(data_dir)
    first = generations.generation_of("alice")
    assert first is not None and generations.generation_of("bob") is None
    members.add(data_dir, "alice", fake_key())  # another key: the same member
    assert generations.generation_of("alice") == first
    assert generations.revoke_removed() == []
    members.remove(data_dir, "alice")
    members.add(data_dir, "alice", fake_key())
    assert generations.generation_of("alice") not in (None, first)
    told: list[str] = []
    generations.follow(told.append)
    assert generations.revoke_removed() == ["alice"] and told == ["alice"]  # gone and back between two looks: revoked
    assert generations.revoke_removed() == [] and told == ["alice"]
    asyncio.run(generations.close())


def test_guests_have_a_generation_only_while_the_club_lets_them_in(tmp_path):
    data_dir = members.prepare_data_dir(tmp_path / "club")
    with_guests, without = MemberGenerations(data_dir, guests=True), MemberGenerations(data_dir)
    assert with_guests.generation_of("guest-y") == GUEST and without.generation_of("guest-y") is None
    asyncio.run(with_guests.close())
    asyncio.run(without.close())


def test_a_club_store_from_before_generations_gives_every_member_one(tmp_path):
    data_dir = members.prepare_data_dir(tmp_path / "club")
    db = sqlite3.connect(data_dir / members.STORE_FILE)
    db.executescript("CREATE TABLE members (name TEXT PRIMARY KEY, added REAL NOT NULL);"
                     "INSERT INTO members VALUES ('alice', 1.0), ('bob', 2.0);")
    db.close()
    generations = MemberGenerations(data_dir)
    alice, bob = generations.generation_of("alice"), generations.generation_of("bob")
    assert alice and bob and alice != bob
    assert [member.name for member in members.list_members(data_dir)] == ["alice", "bob"]
    asyncio.run(generations.close())
