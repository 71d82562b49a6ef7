"""One lobby across club hosts over one real PostgreSQL (issue 28,
hosting/lobby_sync.py): a game made on host A shows in the lobby of a member
connected to host B, pushed; a seat taken on B shows on A; a game resigned
on A shows finished on B; one withdrawn on A leaves B's lobby. Twice: two
club servers in this process (Unix sockets, sessions), and two real
`sekigahara serve` processes (TCP, web tokens). And a change rolled back is
never told to anyone."""

from __future__ import annotations

import asyncio
import time

import psycopg
import pytest

from club_helpers import fake_key, reap, short_tmp, start_serve, stop_serve, wait_until
from helpers import needs_program
from pg_server import INITDB, WHAT
from rules.sides import Side
from sekigahara_tui.club.client import ClubClient
from sekigahara_tui.club.protocol import Lobby
from sekigahara_tui.hosting import database, members
from sekigahara_tui.hosting.club_server import ClubServer
from sekigahara_tui.hosting.lobby_sync import ASKING, CHANNEL, make_triggers
from sekigahara_tui.hosting.ownership import Ownership
from sekigahara_tui.hosting.store import Store
from sekigahara_tui.hosting.tokens import load_secret
from sekigahara_tui.hosting.web_tokens import issue_web_token

pytestmark = needs_program(INITDB, WHAT)
WAIT = 30.0  # a failure, not a timing: how long a change may take to reach the other host at all


class Follower:
    """A member's lobby connection that keeps every lobby pushed to it."""

    def __init__(self, client: ClubClient) -> None:
        self.client = client
        self.pushes: asyncio.Queue[tuple[float, Lobby]] = asyncio.Queue()
        client.on_lobby = lambda lobby: self.pushes.put_nowait((time.monotonic(), lobby))

    async def push_where(self, check, what: str) -> float:
        """When the first pushed lobby for which check(lobby) holds came."""
        deadline = time.monotonic() + WAIT
        while True:
            try:
                at, lobby = await asyncio.wait_for(self.pushes.get(), max(0.01, deadline - time.monotonic()))
            except asyncio.TimeoutError:
                raise AssertionError(f"no push where {what}") from None
            if check(lobby):
                return at


def ids(lines) -> set[str]:
    return {line.game for line in lines}


async def a_game_across_hosts(on_a, on_b) -> dict[str, float]:
    """The lobby followed across hosts; on_a(member) / on_b(member) make a lobby
    client connected to host A / B. Returns how long each change took to be
    pushed on the other host (seconds)."""
    alice_b, bob_a, carol_b = Follower(on_b("alice")), Follower(on_a("bob")), Follower(on_b("carol"))
    for follower in (alice_b, bob_a, carol_b):
        await follower.client.lobby()  # from now on they follow
    took = {}
    start = time.monotonic()
    made = await bob_a.client.new_game(Side.ISHIDA, "open")
    took["made on A, in B's lobby"] = await alice_b.push_where(lambda l: made.game in ids(l.open), "bob's game open on B") - start
    start = time.monotonic()
    await alice_b.client.join(made.game)  # the seat taken on B
    took["joined on B, in A's lobby"] = await bob_a.push_where(
        lambda l: any(g.game == made.game and g.tokugawa == "alice" for g in l.mine), "alice in bob's game, on A") - start
    await carol_b.push_where(lambda l: made.game in ids(l.watchable), "the game watchable, no longer open, on B")
    seat = bob_a.client.seat_client(await bob_a.client.enter(made.game))
    running = asyncio.create_task(seat.run())
    await seat.wait_for(lambda c: c.view is not None, WAIT)
    start = time.monotonic()
    seat.resign()  # finished on A
    took["resigned on A, finished in B's lobby"] = await alice_b.push_where(
        lambda l: made.game in ids(l.finished) and made.game not in ids(l.mine), "the game finished, on B") - start
    await seat.close()
    await running
    withdrawn = await bob_a.client.new_game(Side.TOKUGAWA, "open")
    await carol_b.push_where(lambda l: withdrawn.game in ids(l.open), "the second game open on B")
    start = time.monotonic()
    await bob_a.client.withdraw(withdrawn.game)
    took["withdrawn on A, gone from B's lobby"] = await carol_b.push_where(
        lambda l: withdrawn.game not in ids(l.open), "the withdrawn game gone, on B") - start
    for follower in (alice_b, bob_a, carol_b):
        await follower.client.close()
    return took


def two_data_dirs(url: str):
    root = short_tmp()
    dirs = [members.prepare_data_dir(root / name) for name in ("a", "b")]
    for data_dir in dirs:
        database.record_location(data_dir, url)
    for name in ("alice", "bob", "carol"):
        members.add(dirs[0], name, fake_key())  # the members are the database's: both hosts know them
    return dirs


async def two_club_servers(url: str, monkeypatch, then, owned: bool = False, **server_options) -> None:
    """Two club servers in this process over the database at `url`; then(servers, client_of).
    owned: each with leases of its own (ownership.py), as `serve` runs them; else both load any game.
    server_options: ClubServer's (notices, ...), for both."""
    dirs = two_data_dirs(url)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(dirs[0].parent))
    stores, servers = [], []
    try:
        for data_dir in dirs:
            store = Store.open(database.club_location(data_dir))
            stores.append(store)
            options = {"ownership": Ownership(database.club_location(data_dir))} if owned else {}
            server = ClubServer(store, data_dir, load_secret(data_dir), **options, **server_options)
            servers.append(server)
            await server.listen_unix(data_dir / "club.sock")
        await asyncio.gather(*(asyncio.to_thread(s.lobby_sync.listening.wait, WAIT) for s in servers))

        def client_of(n):
            return lambda member: ClubClient(dirs[n] / "club.sock", session=servers[n].open_session(member))

        await then(servers, client_of)
    finally:
        for server in servers:
            await server.close()
        for store in stores:
            store.close()


async def test_two_club_servers_over_one_database_show_one_lobby(postgres, monkeypatch):
    async def across(servers, client_of):
        print(await a_game_across_hosts(client_of(0), client_of(1)))

    await two_club_servers(postgres.new_database(), monkeypatch, across)


async def test_after_the_database_restarts_the_hosts_listen_again(monkeypatch):
    """A server of the test's own, restarted: each host's listener connects
    again and LISTENs again; a game made on A then shows in B's lobby."""
    from pg_server import PostgresServer

    server = PostgresServer()

    async def restarted(servers, client_of):
        alice_b = Follower(client_of(1)("alice"))
        await alice_b.client.lobby()
        assert [s.lobby_sync.listens for s in servers] == [1, 1]
        server.restart()
        await wait_until(lambda: all(s.lobby_sync.listens == 2 and s.lobby_sync.listening.is_set() for s in servers),
                         "both listeners LISTENing again", WAIT)
        bob_a = client_of(0)("bob")
        made = await bob_a.new_game(Side.ISHIDA, "open")
        await alice_b.push_where(lambda l: made.game in ids(l.open), "bob's game, made after the restart, open on B")
        await bob_a.close()
        await alice_b.client.close()

    try:
        await two_club_servers(server.new_database(), monkeypatch, restarted)
    finally:
        server.stop()


async def test_two_serve_processes_over_one_database_show_one_lobby(postgres):
    from sekigahara_tui.club.serve import club_address

    url = postgres.new_database()
    dirs = two_data_dirs(url)
    processes = []
    try:
        for data_dir in dirs:
            processes.append(start_serve(data_dir, "--listen", "127.0.0.1:0"))
        tcp = [tuple(club_address(data_dir)["tcp"]) for data_dir in dirs]
        await wait_listening(url, 2)

        tokens: dict[str, str] = {}  # one web token a member, the database's: good on both hosts

        def client_of(n):
            def client(member: str) -> ClubClient:
                if member not in tokens:
                    tokens[member] = issue_web_token(dirs[n], member)
                return ClubClient(None, member=member, token=tokens[member], tcp=tcp[n])
            return client

        took = await a_game_across_hosts(client_of(0), client_of(1))
        print(took)  # the figures the report gives (no bound on them here: a failure is no push at all)
        for process in processes:
            stop_serve(process)
    finally:
        for process in processes:
            reap(process)


async def wait_listening(url: str, hosts: int) -> None:
    """Until `hosts` connections LISTEN on the channels: their last statement
    (pg_stat_activity) asked whose move it is, after LISTEN."""
    deadline = time.monotonic() + WAIT
    with psycopg.connect(url, autocommit=True) as admin:
        while admin.execute("SELECT count(*) FROM pg_stat_activity WHERE query = %s", (ASKING,)).fetchone()[0] < hosts:
            if time.monotonic() > deadline:  # (a serve of other code: is PYTHONPATH this checkout's src?)
                seen = admin.execute("SELECT state, left(query, 60) FROM pg_stat_activity WHERE datname = current_database()").fetchall()
                raise AssertionError(f"the hosts did not LISTEN; the database's connections: {seen}")
            await asyncio.sleep(0.05)


def test_a_change_rolled_back_is_never_told_and_one_committed_is(postgres):
    """The NOTIFY is the writing transaction's: a game made and rolled back
    tells nobody; one committed tells its id, once for its many rows; a move
    committed alone tells it too."""
    url = postgres.new_database()
    Store.open(url).close()
    make_triggers(url)
    with psycopg.connect(url, autocommit=True) as listener:
        listener.execute(f"LISTEN {CHANNEL}")
        db = database.connect(url)
        try:
            with pytest.raises(RuntimeError):
                with db.write():
                    db.execute("INSERT INTO games (id, seed, data_version, created, status) VALUES ('gone', 1, 'v1', 1.0, 'playing')")
                    raise RuntimeError("rolled back")
            with db.write():
                db.execute("INSERT INTO games (id, seed, data_version, created, status) VALUES ('kept', 1, 'v1', 1.0, 'playing')")
                db.execute("INSERT INTO actions (game, seq, kind, side, text, client_id, at) VALUES ('kept', 1, 'command', 'ishida', 'x', NULL, 2.0)")
                db.execute("UPDATE games SET ishida_player = 'alice' WHERE id = 'kept'")
            with db.write():  # a move alone: whose turn it is may have changed
                db.execute("INSERT INTO actions (game, seq, kind, side, text, client_id, at) VALUES ('kept', 2, 'command', 'ishida', 'y', NULL, 3.0)")
        finally:
            db.close()
        told = [n.payload for n in listener.notifies(timeout=2.0)]
    assert told == ["kept", "kept"]
