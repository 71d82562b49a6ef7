"""Lobby flows over a real Unix socket: make, join, enter, whose move, and
nobody but a game's two players takes a seat."""

from __future__ import annotations

import asyncio

import pytest

from club_helpers import bot_plays, wait_until
from rules.infra.record import replay
from rules.sides import Side
from sekigahara_tui.club.client import ClubClient, ClubRefused
from sekigahara_tui.bots.driver import RandomBot
from sekigahara_tui.net.client import Client
from sekigahara_tui.hosting.store import record_of
from sekigahara_tui.hosting.generations import NotAMember

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA


async def test_an_open_game_is_joined_and_played_and_the_lobby_shows_whose_move(club):
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    assert await alice.connect() == "alice"
    made = await alice.new_game(ISHIDA, "open")
    assert made.seat is ISHIDA
    # bob sees it open, joins, gets the other seat
    lobby = await bob.lobby()
    assert [line.game for line in lobby.open] == [made.game] and lobby.mine == ()
    joined = await bob.join(made.game)
    assert joined.seat is TOKUGAWA and joined.game == made.game
    # both bid (a simultaneous decision): both are to move at first
    seats = {ISHIDA: alice.seat_client(made), TOKUGAWA: bob.seat_client(joined)}
    tasks = [asyncio.create_task(c.run()) for c in seats.values()]
    try:
        for client in seats.values():
            await client.wait_for(lambda c: c.view is not None, 10)
        mine = (await alice.lobby()).mine
        assert [(line.game, line.ishida, line.tokugawa) for line in mine] == [(made.game, "alice", "bob")]
        assert set(mine[0].to_move) == {ISHIDA, TOKUGAWA}
        # alice bids: now only bob is to move, as both lobbies say
        client = seats[ISHIDA]
        client.submit(_text(client.view.legal[0]))
        await client.wait_for(lambda c: c.version == 1, 10)
        assert (await alice.lobby()).mine[0].to_move == (TOKUGAWA,)
        assert (await bob.lobby()).mine[0].to_move == (TOKUGAWA,)
    finally:
        for c in seats.values():
            await c.close()
        await asyncio.gather(*tasks, return_exceptions=True)
        await alice.close()
        await bob.close()


def _text(command) -> str:
    from rules.notation import format_command

    return format_command(command)


async def test_nobody_else_takes_a_seat(club):
    alice, bob, carol = (club.lobby_client(n) for n in ("alice", "bob", "carol"))
    made = await alice.new_game(TOKUGAWA, "open")
    await bob.join(made.game)
    # a third member: no open seat, no entry, and a made-up token is refused
    with pytest.raises(ClubRefused, match="no open seat") as refused:
        await carol.join(made.game)
    assert refused.value.kind == "seat-taken"
    with pytest.raises(ClubRefused, match="neither seat") as refused:
        await carol.enter(made.game)
    assert refused.value.kind == "not-authorised"
    watcher = await carol.watch(made.game)  # watching is allowed
    intruder = Client(club_address(club), made.game, ISHIDA, watcher.token)
    await asyncio.wait_for(intruder.run(), 10)
    assert intruder.fatal is not None and intruder.fatal.kind == "not-authorised"
    # alice cannot join her own game's other seat either, nor bob twice
    with pytest.raises(ClubRefused, match="already play"):
        await bob.join(made.game)
    for c in (alice, bob, carol):
        await c.close()


def club_address(club):
    from sekigahara_tui.net.locations import Address

    return Address(unix=str(club.socket))


async def test_a_bad_session_or_a_non_member_is_refused(club):
    with pytest.raises(ClubRefused, match="unknown or expired session"):
        await ClubClient(club.socket, session="made-up").connect()
    with pytest.raises(NotAMember, match="'mallory' is not a member"):  # a front end vouching for a non-member
        club.server.open_session("mallory")
    with pytest.raises(ClubRefused, match="not a member"):
        await ClubClient(club.socket, member="mallory").connect()
    # the local door: the club's own Unix user may name a member
    assert await ClubClient(club.socket, member="carol").connect() == "carol"


async def test_two_members_play_to_the_end_and_the_store_replays_to_the_same_state(club):
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    made = await alice.new_game(None, "open")
    joined = await bob.join(made.game)
    assert {made.seat, joined.seat} == {ISHIDA, TOKUGAWA}
    a, b = await asyncio.gather(bot_plays(alice, made, 11), bot_plays(bob, joined, 12))
    assert a.over and b.over
    game = club.server.games.loaded[made.game]
    info, actions = club.store.load_game(made.game)
    assert replay(record_of(info, actions)) == game.host.state
    lobby = await alice.lobby()
    assert lobby.mine == () and [line.game for line in lobby.finished] == [made.game]
    assert lobby.finished[0].result == a.result
    assert club.store.summaries()[0].status == "over"
    await alice.close()
    await bob.close()


async def test_a_game_against_the_computer(club):
    alice = club.lobby_client("alice")
    made = await alice.new_game(TOKUGAWA, "computer")
    client = await bot_plays(alice, made, 5)
    assert client.over
    info, actions = club.store.load_game(made.game)
    assert {a.side for a in actions} == {ISHIDA, TOKUGAWA}
    assert club.store.summaries()[0].players == ("computer", "alice")
    await alice.close()


async def test_an_idle_game_is_evicted_and_reloaded_where_it_was(club):
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    made = await alice.new_game(ISHIDA, "open")
    joined = await bob.join(made.game)
    clients = [alice.seat_client(made, RandomBot(1)), bob.seat_client(joined, RandomBot(2))]
    tasks = [asyncio.create_task(c.run()) for c in clients]
    await clients[0].wait_for(lambda c: (c.version or 0) >= 30, 20)
    for c in clients:
        await c.close()
    await asyncio.gather(*tasks)
    game = club.server.games.loaded[made.game]
    # The server notices the connections went: a seat is detached only after
    # the last command it read was stored (each is stored before the next is read).
    await wait_until(lambda: not game.connections, "both seats detached")
    async with game.changing:
        version, state = game.version, game.host.state
    assert club.server.eviction.evict_idle(now=10**9) == [made.game]
    assert made.game not in club.server.games.loaded
    loads = club.server.games.loads
    # the next hello loads it again, at the same version and state
    again = alice.seat_client(made)
    task = asyncio.create_task(again.run())
    await again.wait_for(lambda c: c.view is not None, 10)
    assert club.server.games.loads == loads + 1
    assert again.version == version and club.server.games.loaded[made.game].host.state == state
    assert again.log == club.server.games.loaded[made.game].host.events_for(ISHIDA)
    await again.close()
    await task
    await alice.close()
    await bob.close()
