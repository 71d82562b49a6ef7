"""Withdrawing an open game nobody joined, over a real Unix socket with a real
store: it leaves the store, the club's memory and every lobby; its seat and
spectators are told and closed; refusals change nothing; a command being
stored is waited for; a join racing a withdrawal loses or wins whole."""

from __future__ import annotations

import asyncio
import json
import sqlite3

import pytest

from club_helpers import wait_until
from rules.notation import format_command
from rules.sides import Side
from sekigahara_tui.club.client import ClubRefused
from sekigahara_tui.club.protocol import WithdrawGame, Withdrawn, decode_club_client_message, decode_club_host_message, encode
from sekigahara_tui.net.protocol import BadMessage
from sekigahara_tui.hosting.store import Store

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA
WAIT = 20.0


def store_rows(club, sql: str, parameters: tuple = ()) -> list[tuple]:
    db = sqlite3.connect(club.store.path)
    try:
        return db.execute(sql, parameters).fetchall()
    finally:
        db.close()


def store_sound(club) -> None:
    assert store_rows(club, "PRAGMA integrity_check") == [("ok",)]
    assert store_rows(club, "PRAGMA foreign_key_check") == []


def in_club(club, game_id: str) -> bool:
    server = club.server
    held = (server.games.loaded, server.catalog.entries, server.games.last_used, server.spectators.watchers, server.lobby.push.seen)
    return any(game_id in place for place in held)


async def until(predicate, what: str) -> None:
    await wait_until(predicate, what, WAIT)


class WatchedLock(asyncio.Lock):
    """A game's `changing` lock that counts who waits for it: the sign that a
    withdrawal or a command reached the club and queued behind the holder."""

    def __init__(self) -> None:
        super().__init__()
        self.waiting = 0

    async def acquire(self) -> bool:
        self.waiting += 1
        try:
            return await super().acquire()
        finally:
            self.waiting -= 1


def stored_actions(club, game_id: str) -> int:
    return store_rows(club, "SELECT count(*) FROM actions WHERE game = ?", (game_id,))[0][0]


async def test_an_open_game_is_withdrawn_from_the_store_the_club_and_every_lobby(club):
    alice, bob, carol = (club.lobby_client(n) for n in ("alice", "bob", "carol"))
    pushed: list = []
    bob.on_lobby = pushed.append
    made = await alice.new_game(ISHIDA, "open")
    kept = await carol.new_game(TOKUGAWA, "open")
    assert {line.game for line in (await bob.lobby()).open} == {made.game, kept.game}  # bob follows the lobby
    # alice sits and bids (her own action in the store); carol watches
    seat = alice.seat_client(made)
    watching = carol.watch_client(await carol.watch(made.game))
    runs = [asyncio.create_task(c.run()) for c in (seat, watching)]
    await seat.wait_for(lambda c: c.view is not None, WAIT)
    await watching.wait_for(lambda c: c.view is not None, WAIT)
    seat.submit(format_command(seat.view.legal[0]))
    await seat.wait_for(lambda c: c.version == 1, WAIT)
    assert store_rows(club, "SELECT count(*) FROM actions WHERE game = ?", (made.game,)) == [(1,)]

    assert await alice.withdraw(made.game) is None

    # the store: the game and its action gone, carol's game whole
    assert [s.id for s in club.store.summaries()] == [kept.game]
    assert store_rows(club, "SELECT count(*) FROM actions WHERE game = ?", (made.game,)) == [(0,)]
    store_sound(club)
    # the club's memory
    assert not in_club(club, made.game) and kept.game in club.server.catalog
    # the seat and the spectator are told why, and closed for good
    await asyncio.wait_for(asyncio.gather(*runs), WAIT)
    for client in (seat, watching):
        assert client.fatal is not None and client.fatal.kind == "unknown-game"
        assert client.fatal.reason == "alice withdrew this game"
    await until(lambda: made.game not in club.server.games.last_used and made.game not in club.server.spectators.watchers, "the connections detached")
    # bob's lobby is pushed without asking; every lobby lists carol's game only
    await until(lambda: pushed and [line.game for line in pushed[-1].open] == [kept.game], "bob's lobby pushed")
    assert (await alice.lobby()).mine == ()
    assert [line.game for line in (await carol.lobby()).mine] == [kept.game]
    # a hello or a join for the withdrawn game finds nothing
    with pytest.raises(ClubRefused) as refused:
        await bob.join(made.game)
    assert refused.value.kind == "unknown-game"
    again = alice.seat_client(made)
    await asyncio.wait_for(again.run(), WAIT)
    # a seat's hello for a game the club no longer holds is answered as a wrong token is (issue 23, item 7)
    assert again.fatal is not None and again.fatal.kind == "not-authorised" and "no such game" in again.fatal.reason
    for c in (alice, bob, carol):
        await c.close()


async def test_refusals_are_one_line_and_change_nothing(club):
    alice, bob, carol = (club.lobby_client(n) for n in ("alice", "bob", "carol"))
    joined = await alice.new_game(ISHIDA, "open")
    await bob.join(joined.game)
    computer = await alice.new_game(TOKUGAWA, "computer")
    open_game = await alice.new_game(ISHIDA, "open")
    await until(lambda: stored_actions(club, computer.game) == 1, "the computer's bid stored")  # then it waits for alice's
    before = (club.store.summaries(), store_rows(club, "SELECT * FROM actions ORDER BY game, seq"))
    catalog = {game_id: (dict(entry.players), entry.status) for game_id, entry in club.server.catalog.entries.items()}

    cases = [
        (alice, "no-such-game", "unknown-game", "no game 'no-such-game' in this club"),
        (carol, open_game.game, "not-authorised", "you play neither seat of that game: only its player can withdraw it"),
        (alice, joined.game, "seat-taken", "bob has joined that game: it can no longer be withdrawn"),
        (bob, joined.game, "seat-taken", "alice has joined that game: it can no longer be withdrawn"),
        (alice, computer.game, "seat-taken", "the computer plays that game: it cannot be withdrawn"),
    ]
    for member, game_id, kind, reason in cases:
        with pytest.raises(ClubRefused) as refused:
            await member.withdraw(game_id)
        assert (refused.value.kind, str(refused.value)) == (kind, reason)

    after = (club.store.summaries(), store_rows(club, "SELECT * FROM actions ORDER BY game, seq"))
    assert after[0] == before[0] and after[1][: len(before[1])] == before[1]  # the computer's game may go on
    assert {game_id: (dict(entry.players), entry.status) for game_id, entry in club.server.catalog.entries.items()} == catalog
    assert alice.connected and carol.connected  # a refusal does not close the lobby
    for c in (alice, bob, carol):
        await c.close()


async def test_a_finished_game_cannot_be_withdrawn(club):
    alice = club.lobby_client("alice")
    made = await alice.new_game(ISHIDA, "open")
    club.store.finish(made.game, "tokugawa wins (made up)")
    entry = club.server.catalog.entries[made.game]
    entry.status, entry.result = "over", "tokugawa wins (made up)"
    with pytest.raises(ClubRefused, match="that game is over: it can no longer be withdrawn") as refused:
        await alice.withdraw(made.game)
    assert refused.value.kind == "seat-taken"
    assert [s.id for s in club.store.summaries()] == [made.game]
    await alice.close()


async def test_a_withdrawal_waits_for_a_command_being_stored_and_no_later_command_is_stored(club):
    alice = club.lobby_client("alice")
    made = await alice.new_game(ISHIDA, "open")
    seat = alice.seat_client(made)
    run = asyncio.create_task(seat.run())
    await seat.wait_for(lambda c: c.view is not None, WAIT)
    game = club.server.games.loaded[made.game]
    game.changing = changing = WatchedLock()
    bid = format_command(seat.view.legal[0])
    async with changing:  # as while a command of the game is being stored
        withdrawing = asyncio.create_task(alice.withdraw(made.game))
        await until(lambda: changing.waiting == 1, "the withdrawal waiting for the command being stored")
        assert not withdrawing.done()
        assert [s.id for s in club.store.summaries()] == [made.game]  # not yet: it waits
        seat.submit(bid)  # a command that comes after the withdrawal, and waits behind it
        await until(lambda: changing.waiting == 2, "the bid waiting behind the withdrawal")
    await asyncio.wait_for(withdrawing, WAIT)
    await asyncio.wait_for(run, WAIT)
    assert seat.fatal is not None and seat.fatal.reason == "alice withdrew this game"
    # the bid has had its turn: had it been let through, it would be stored by now
    await until(lambda: changing.waiting == 0 and not changing.locked(), "the bid's turn over")
    assert club.store.summaries() == []
    assert store_rows(club, "SELECT count(*) FROM actions") == [(0,)]
    store_sound(club)
    await alice.close()


async def test_a_join_that_comes_first_wins_and_the_withdrawal_is_refused(club):
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    made = await alice.new_game(ISHIDA, "open")
    seat = alice.seat_client(made)
    run = asyncio.create_task(seat.run())
    await seat.wait_for(lambda c: c.view is not None, WAIT)
    game = club.server.games.loaded[made.game]
    game.changing = changing = WatchedLock()
    async with changing:
        withdrawing = asyncio.create_task(alice.withdraw(made.game))
        await until(lambda: changing.waiting == 1, "the withdrawal past its first check, waiting")
        joined = await bob.join(made.game)  # between the withdrawal's first check and the store
    with pytest.raises(ClubRefused, match="bob has joined that game") as refused:
        await asyncio.wait_for(withdrawing, WAIT)
    assert refused.value.kind == "seat-taken"
    assert joined.seat is TOKUGAWA
    assert club.store.summaries()[0].players == ("alice", "bob")
    assert club.server.catalog.entries[made.game].players == {ISHIDA: "alice", TOKUGAWA: "bob"}
    assert club.server.games.loaded[made.game] is game and seat.fatal is None
    await seat.close()
    await run
    await alice.close()
    await bob.close()


async def test_a_withdrawal_and_a_join_at_once_exactly_one_wins_and_memory_follows_the_store(club):
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    for _ in range(6):
        made = await alice.new_game(ISHIDA, "open")
        withdrawn, joined = await asyncio.gather(alice.withdraw(made.game), bob.join(made.game), return_exceptions=True)
        outcomes = (withdrawn is None, not isinstance(joined, BaseException))
        assert outcomes in ((True, False), (False, True)), (withdrawn, joined)
        summaries = {s.id: s for s in club.store.summaries()}
        if outcomes[0]:
            assert isinstance(joined, ClubRefused) and joined.kind == "unknown-game"
            assert made.game not in summaries and not in_club(club, made.game)
        else:
            assert isinstance(withdrawn, ClubRefused) and withdrawn.kind == "seat-taken"
            assert summaries[made.game].players == ("alice", "bob")
            assert club.server.catalog.entries[made.game].players == {ISHIDA: "alice", TOKUGAWA: "bob"}
    store_sound(club)
    await alice.close()
    await bob.close()


async def test_when_another_writer_took_the_seat_the_store_decides_and_the_club_follows(club):
    alice, carol = club.lobby_client("alice"), club.lobby_client("carol")
    pushed: list = []
    carol.on_lobby = pushed.append
    made = await alice.new_game(ISHIDA, "open")
    assert [line.game for line in (await carol.lobby()).open] == [made.game]
    other = Store.open(club.store.path)  # another writer of the same store (a shared database)
    try:
        assert other.take_seat(made.game, TOKUGAWA, "bob")
    finally:
        other.close()
    with pytest.raises(ClubRefused, match="someone joined that game meanwhile") as refused:
        await alice.withdraw(made.game)
    assert refused.value.kind == "seat-taken"
    assert club.store.summaries()[0].players == ("alice", "bob")
    assert club.server.catalog.entries[made.game].players == {ISHIDA: "alice", TOKUGAWA: "bob"}
    await until(lambda: pushed and [line.game for line in pushed[-1].watchable] == [made.game], "carol's lobby pushed")
    await alice.close()
    await carol.close()


def test_the_messages_are_read_strictly():
    line = encode(WithdrawGame("r1", "g1"))
    assert json.loads(line) == {"type": "withdraw_game", "id": "r1", "game": "g1"}
    assert decode_club_client_message(line) == WithdrawGame("r1", "g1")
    answer = encode(Withdrawn("r1", "g1"))
    assert decode_club_host_message(answer) == Withdrawn("r1", "g1")
    for bad in (
        b'{"type":"withdraw_game","id":"r1","game":"g1","extra":1}\n',
        b'{"type":"withdraw_game","id":"r1"}\n',
        b'{"type":"withdraw_game","id":"r1","game":7}\n',
        b'{"type":"withdraw_game","id":"r1","game":""}\n',
        b'{"type":"withdraw_game","id":"r1","game":"a\\u0007b"}\n',
        b'{"type":"withdraw_game","id":"r1","game":"' + b"g" * 1000 + b'"}\n',
    ):
        with pytest.raises(BadMessage) as error:
            decode_club_client_message(bad)
        assert "\n" not in str(error.value)
    with pytest.raises(BadMessage):
        decode_club_host_message(b'{"type":"withdrawn","reply_to":"r1","game":"g1","extra":1}\n')
