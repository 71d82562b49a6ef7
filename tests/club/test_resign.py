"""Ending a club game early (issue 24; hosting/results.py): a resignation over
the wire ends the game for both seats and a spectator, is stored before it
is told, and survives a restart and kill -9; the final board is face up for
every chair then (R56), and nothing hidden before (R55); a spectator or a
lobby cannot resign; nothing is played after the end."""

from __future__ import annotations

import asyncio
import json
import signal
from pathlib import Path

import pytest

import sekigahara_tui

from club_helpers import TIMEOUT, Club, close_all, fake_key, start_club
from test_kill import reap, start_serve, stop_serve
from rules.components import default_components
from sekigahara_tui.net.protocol import PROTOCOL_VERSION
from rules.sides import Side
from rules.surface import GameResult
from sekigahara_tui.club.client import ClubClient
from sekigahara_tui.hosting import members
from sekigahara_tui.hosting.audit import AuditLog
from sekigahara_tui.hosting.club_server import ClubServer
from sekigahara_tui.hosting.spectators import SPECTATOR_REFUSAL
from sekigahara_tui.hosting.store import Store
from sekigahara_tui.hosting.tokens import load_secret

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA
RESIGNED = "ishida resigned: tokugawa wins"


@pytest.fixture
async def club(data_dir) -> Club:
    """A club with an audit log (every refusal is a line in it)."""
    club = await start_club(data_dir, audit=AuditLog(members.prepare_data_dir(data_dir)))
    yield club
    await club.stop()


def blocks_of(side: Side) -> set[str]:
    return {block.id for block in default_components().blocks if block.side is side}


class Table:
    """Alice (Ishida) and Bob (Tokugawa) seated in one club game, Carol watching."""

    def __init__(self, club: Club) -> None:
        self.club = club
        self.tasks: list[asyncio.Task] = []

    async def sit(self) -> Table:
        self.lobbies = {name: self.club.lobby_client(name) for name in ("alice", "bob", "carol")}
        made = await self.lobbies["alice"].new_game(ISHIDA, "open")
        self.game = made.game
        joined = await self.lobbies["bob"].join(made.game)
        watched = await self.lobbies["carol"].watch(made.game)
        self.alice = self.lobbies["alice"].seat_client(made)
        self.bob = self.lobbies["bob"].seat_client(joined)
        self.carol = self.lobbies["carol"].watch_client(watched)
        for client in self.clients:
            self.tasks.append(asyncio.create_task(client.run()))
        for client in self.clients:
            await client.wait_for(lambda c: c.view is not None and c.connected, TIMEOUT)
        return self

    @property
    def clients(self):
        return (self.alice, self.bob, self.carol)

    async def close(self) -> None:
        await close_all(self.clients, self.tasks, self.lobbies.values())


def assert_face_up(view, viewer: str) -> None:
    """R56: every block of the other side by name, where it stands."""
    if viewer == "spectator":
        assert view.own_hidden_counts == ()
        assert {block for block, _ in view.own_blocks} == blocks_of(ISHIDA)
        assert {block for block, _ in view.enemy_known} == blocks_of(TOKUGAWA)
    else:
        enemy = TOKUGAWA if view.side is ISHIDA else ISHIDA
        assert {block for block, _ in view.enemy_known} == blocks_of(enemy)


def assert_hidden(view, viewer: str) -> None:
    """R55 before the end: some of the other side's blocks are not named."""
    if viewer == "spectator":
        assert view.own_hidden_counts != ()
    enemy = TOKUGAWA if view.side is ISHIDA else ISHIDA
    assert {block for block, _ in view.enemy_known} < blocks_of(enemy)


async def test_resign_ends_the_game_for_both_seats_and_a_spectator(club, data_dir):
    table = await Table(club).sit()
    for client, who in ((table.alice, "seat"), (table.bob, "seat"), (table.carol, "spectator")):
        assert client.view.result is None
        assert_hidden(client.view, who)

    assert table.alice.resign() is not None
    for client in table.clients:
        await client.wait_for(lambda c: c.result is not None, TIMEOUT)
        assert client.over and client.result == RESIGNED
        assert client.view.result == GameResult(TOKUGAWA, "resigned")
        assert client.view.legal == ()
    assert table.alice.reply_to is not None  # the resigner's state answers its request
    assert_face_up(table.alice.view, "seat")
    assert_face_up(table.bob.view, "seat")
    assert_face_up(table.carol.view, "spectator")

    # in the store, before anything was told: the result, its kind, who, when
    info, _ = club.store.load_game(table.game)
    assert info.status == "over" and info.result == RESIGNED
    assert (info.end.kind, info.end.winner, info.end.seat, info.end.by) == ("resigned", TOKUGAWA, ISHIDA, "alice")

    # nothing is played, undone or resigned after the end: one line each
    version = table.bob.version
    table.bob.submit("tokugawa: bid date-plain-1")
    table.alice.undo()
    table.bob.resign()
    await table.bob.wait_for(lambda c: len(c.refusals) >= 2, TIMEOUT)
    await table.alice.wait_for(lambda c: len(c.refusals) >= 1, TIMEOUT)
    reasons = [r.reason for r in table.bob.refusals + table.alice.refusals]
    assert "the game is over (R56)" in reasons[0]
    assert any(reason.startswith("the game is over: ishida resigned") for reason in reasons)
    assert any("cannot undo: the game is over (R56)" == reason for reason in reasons)
    assert all("\n" not in reason for reason in reasons)
    assert club.store.load_game(table.game)[0].end.kind == "resigned" and len(club.store.load_game(table.game)[1]) == version

    # the lobby: finished with its result, never in play; it cannot be joined
    lobby = await table.lobbies["alice"].lobby()
    assert table.game not in {line.game for line in lobby.mine}
    (line,) = [line for line in lobby.finished if line.game == table.game]
    assert line.status == "over" and line.result == RESIGNED
    carol_lobby = await table.lobbies["carol"].lobby()
    assert table.game not in {line.game for line in carol_lobby.open + carol_lobby.watchable}
    try:
        await table.lobbies["carol"].join(table.game)
    except Exception as refusal:  # ClubRefused
        assert "finished" in str(refusal) and "\n" not in str(refusal)
    else:
        raise AssertionError("a finished game was joined")
    assert any("finished" in line and "member=carol" in line for line in club.server.audit.lines())
    await table.close()


async def test_a_spectator_or_a_lobby_cannot_resign_and_a_bad_message_changes_nothing(club):
    table = await Table(club).sit()
    # a spectator's connection: refused, one line, audited; the game goes on
    table.carol._write_line(b'{"type":"resign","id":"x1"}\n')
    await table.carol.wait_for(lambda c: c.refusals, TIMEOUT)
    assert table.carol.refusals[0].reason == SPECTATOR_REFUSAL
    # a lobby connection: the same
    reader, writer = await asyncio.open_unix_connection(str(club.socket))
    session = club.server.open_session("carol")
    writer.write(json.dumps({"type": "club_hello", "protocol": PROTOCOL_VERSION, "session": session, "member": None}).encode() + b"\n")
    writer.write(json.dumps({"type": "resign", "id": "x2"}).encode() + b"\n")
    await reader.readline()  # club_welcome
    refusal = json.loads(await reader.readline())
    assert refusal["type"] == "refused" and refusal["id"] == "x2" and "lobby" in refusal["reason"]
    writer.close()
    # a seat's malformed or unknown messages: one line each, nothing done
    for line in (b'{"type":"resign"}\n', b'{"type":"resign","id":"y","why":"tired"}\n', b'{"type":"answer_cancel","id":"z","accept":"yes"}\n', b'{"type":"give_up","id":"w"}\n'):
        table.alice._write_line(line)
    await table.alice.wait_for(lambda c: len(c.refusals) >= 4, TIMEOUT)
    assert [r.kind for r in table.alice.refusals] == ["bad-message"] * 4
    assert all("\n" not in r.reason for r in table.alice.refusals)
    assert "resign" in table.alice.refusals[0].reason and "give_up" in table.alice.refusals[3].reason
    info, _ = club.store.load_game(table.game)
    assert info.status == "playing" and info.end is None
    assert not table.bob.over and table.bob.view.result is None
    audit = club.server.audit.lines()
    assert any(SPECTATOR_REFUSAL in line and "member=carol" in line for line in audit)
    assert any("lobby messages only" in line and "member=carol" in line for line in audit)
    await table.close()


async def restarted(club: Club) -> Club:
    await club.stop()
    store = Store.open(club.data_dir / members.STORE_FILE)
    server = ClubServer(store, club.data_dir, load_secret(club.data_dir), audit=club.server.audit)
    await server.listen_unix(club.socket)
    return Club(server, store, club.data_dir, club.socket)


async def test_a_resignation_survives_a_restart(data_dir):
    club = await start_club(data_dir)
    table = await Table(club).sit()
    table.alice.resign()
    await table.bob.wait_for(lambda c: c.result is not None, TIMEOUT)
    await table.close()
    club = await restarted(club)
    try:
        bob = club.lobby_client("bob")
        lobby = await bob.lobby()
        assert [line.result for line in lobby.finished] == [RESIGNED] and lobby.mine == ()
        seat = bob.seat_client(await bob.enter(table.game), stop_when_over=True)
        await asyncio.wait_for(seat.run(), TIMEOUT)
        assert seat.result == RESIGNED and seat.view.result == GameResult(TOKUGAWA, "resigned")
        assert_face_up(seat.view, "seat")
        await bob.close()
    finally:
        await club.stop()


async def test_a_resignation_acknowledged_survives_kill_9(data_dir, monkeypatch):
    # The served process runs the code under test (not whatever copy is installed).
    monkeypatch.setenv("PYTHONPATH", str(Path(sekigahara_tui.__file__).parents[1]))
    members.add(members.prepare_data_dir(data_dir), "alice", fake_key())
    members.add(data_dir, "bob", fake_key())
    server = start_serve(data_dir)
    try:
        sock = data_dir / "club.sock"
        alice, bob = ClubClient(sock, member="alice"), ClubClient(sock, member="bob")
        made = await alice.new_game(ISHIDA, "open")
        await bob.join(made.game)
        seat = alice.seat_client(made)
        task = asyncio.create_task(seat.run())
        await seat.wait_for(lambda c: c.connected and c.view is not None, TIMEOUT)
        seat.resign()
        await seat.wait_for(lambda c: c.over, TIMEOUT)  # acknowledged: the final state came
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=10)
        await seat.close()
        await task
        await alice.close()
        await bob.close()
        server = start_serve(data_dir)
        bob = ClubClient(sock, member="bob")
        lobby = await bob.lobby()
        assert [line.result for line in lobby.finished] == [RESIGNED]
        await bob.close()
        stop_serve(server)
    finally:
        reap(server)
    store = Store.open(data_dir / members.STORE_FILE, read_only=True)
    info, _ = store.load_game(made.game)
    assert (info.status, info.end.kind, info.end.by) == ("over", "resigned", "alice")
    store.close()

