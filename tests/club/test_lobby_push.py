"""Lobby pushes over a real Unix socket (docs/club.md, lobby_changed): a
member's lobby connection is sent the new lobby when a game they see is made,
joined, changes whose move it is or finishes; only when what the lobby shows
changed, coalesced, and never about what that lobby does not show."""

from __future__ import annotations

import asyncio
import time

from club_helpers import start_club, wait_until
from rules.notation import format_command
from rules.sides import Side
from sekigahara_tui.club import client as club_client
from sekigahara_tui.club.protocol import Lobby, lobby_key
from sekigahara_tui.hosting.lobby_push import LOBBY_PUSH_EVERY
from sekigahara_tui.bots.driver import RandomBot

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA
WAIT = 20.0  # a failure, not a timing: how long a push may take to come at all


class Follower:
    """A member's lobby connection that records every lobby pushed to it."""

    def __init__(self, club, member: str) -> None:
        self.club, self.member = club, member
        self.client = club.lobby_client(member)
        self.pushes: asyncio.Queue[tuple[float, Lobby]] = asyncio.Queue()
        self.seen: list[tuple[float, Lobby]] = []
        self.lost: list[str] = []
        self.client.on_lobby = lambda lobby: self.pushes.put_nowait((time.monotonic(), lobby))
        self.client.on_lost = self.lost.append

    async def follow(self) -> Lobby:
        return await self.client.lobby()

    async def push_where(self, check, what: str) -> Lobby:
        """The first pushed lobby (from now on) for which check(lobby) holds."""
        deadline = time.monotonic() + WAIT
        while True:
            try:
                at, lobby = await asyncio.wait_for(self.pushes.get(), max(0.01, deadline - time.monotonic()))
            except asyncio.TimeoutError:
                raise AssertionError(f"no push where {what}; last: {self.seen[-1:]}") from None
            self.seen.append((at, lobby))
            if check(lobby):
                return lobby

    async def heard_all(self) -> None:
        """Every push the club has decided on for this member has arrived: none
        is due (a game's change makes its pushes due at once), and a request
        answered on the same connection comes after any push sent before it."""
        await wait_until(lambda: self.member not in self.club.server.lobby.push.due, f"{self.member}'s due push sent", WAIT)
        await self.client.lobby()

    def drain(self) -> list[Lobby]:
        got = []
        while not self.pushes.empty():
            at, lobby = self.pushes.get_nowait()
            self.seen.append((at, lobby))
            got.append(lobby)
        return got


def games(lines) -> list[str]:
    return [line.game for line in lines]


def line_of(lines, game: str):
    return next((line for line in lines if line.game == game), None)


async def test_a_lobby_is_pushed_when_a_game_is_made_joined_moved_and_finished(club):
    alice, carol = Follower(club, "alice"), Follower(club, "carol")
    bob = club.lobby_client("bob")
    assert (await alice.follow()).open == () and (await carol.follow()).open == ()

    # bob makes an open game: both lobbies list it as open, at once
    theirs = await bob.new_game(ISHIDA, "open")
    await alice.push_where(lambda lobby: games(lobby.open) == [theirs.game], "bob's open game is listed")
    await carol.push_where(lambda lobby: games(lobby.open) == [theirs.game], "bob's open game is listed")

    # alice makes one, bob joins it: alice's line names bob, carol's moves to watchable
    mine = await alice.client.new_game(ISHIDA, "open")
    joined = await bob.join(mine.game)
    lobby = await alice.push_where(lambda lobby: getattr(line_of(lobby.mine, mine.game), "tokugawa", None) == "bob", "bob joined")
    assert set(line_of(lobby.mine, mine.game).to_move) == {ISHIDA, TOKUGAWA}  # both bid
    await carol.push_where(lambda lobby: games(lobby.watchable) == [mine.game] and mine.game not in games(lobby.open), "the game is no longer open")

    # bob bids: alice's line says it is her move; carol, who does not play it, is not told
    seats = {ISHIDA: alice.client.seat_client(mine), TOKUGAWA: bob.seat_client(joined)}
    tasks = [asyncio.create_task(c.run()) for c in seats.values()]
    try:
        for seat in seats.values():
            await seat.wait_for(lambda c: c.view is not None, WAIT)
        carol.drain()
        bidder = seats[TOKUGAWA]
        bidder.submit(format_command(bidder.view.legal[0], with_side=False))
        await alice.push_where(lambda lobby: line_of(lobby.mine, mine.game).to_move == (ISHIDA,), "alice's move")
        await carol.heard_all()
        assert carol.drain() == []
    finally:
        for seat in seats.values():
            await seat.close()
        await asyncio.gather(*tasks, return_exceptions=True)

    # the rest of the game by bots: alice's lobby lists it finished, carol's drops it
    bots = [alice.client.seat_client(mine, RandomBot(3), stop_when_over=True), bob.seat_client(joined, RandomBot(4), stop_when_over=True)]
    started = time.monotonic()
    pushes_before = len(alice.seen) + alice.pushes.qsize()
    await asyncio.wait_for(asyncio.gather(*(b.run() for b in bots)), 120)
    lobby = await alice.push_where(lambda lobby: games(lobby.finished) == [mine.game], "the game finished")
    assert mine.game not in games(lobby.mine)
    assert line_of(lobby.finished, mine.game).result == bots[0].result
    lobby = await carol.push_where(lambda lobby: mine.game not in games(lobby.watchable), "the finished game is gone")
    assert lobby.finished == ()  # others' finished games are not in a lobby

    # coalesced: a game of hundreds of moves, at most a push per LOBBY_PUSH_EVERY (and one at the end).
    # A rate over the wall time the game took: a slow machine makes `took` longer, the bound only looser.
    took = time.monotonic() - started
    pushed = len(alice.seen) - pushes_before
    assert 0 < pushed <= took / LOBBY_PUSH_EVERY + 2, (pushed, took)
    # and each push shows something the last one did not
    for (_, before), (_, after) in zip(alice.seen, alice.seen[1:]):
        assert lobby_key(before) != lobby_key(after)
    for who in (alice, carol):
        assert who.lost == []
        await who.client.close()
    await bob.close()


async def test_a_member_is_told_nothing_of_what_their_lobby_does_not_show(club):
    """carol follows while alice and bob play to the end: she hears of the game
    when it is made (open), joined (watchable) and finished (gone), never of
    its moves, and her lobby never lists it as hers or as finished."""
    carol = Follower(club, "carol")
    await carol.follow()
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    made = await alice.new_game(TOKUGAWA, "open")
    joined = await bob.join(made.game)
    await carol.push_where(lambda lobby: games(lobby.watchable) == [made.game], "the game is watchable")
    bots = [alice.seat_client(made, RandomBot(5), stop_when_over=True), bob.seat_client(joined, RandomBot(6), stop_when_over=True)]
    await asyncio.wait_for(asyncio.gather(*(b.run() for b in bots)), 120)
    assert bots[0].version > 50  # many moves, each a change of the game
    await carol.push_where(lambda lobby: lobby.watchable == (), "the game gone from watchable")
    await carol.heard_all()
    carol.drain()
    assert len(carol.seen) <= 3, [games(lobby.watchable) for _, lobby in carol.seen]  # made, joined, finished
    for _, lobby in carol.seen:
        assert lobby.member == "carol" and lobby.mine == () and lobby.finished == ()
    await carol.client.close()
    await alice.close()
    await bob.close()


async def test_a_quiet_lobby_connection_pings_and_is_not_reaped(data_dir, monkeypatch):
    """The club reaps connections silent for reap_after; a lobby that only
    listens pings, so it still hears of a game made much later."""
    monkeypatch.setattr(club_client, "PING_EVERY", 0.1)
    # Reaping after 1 s, not less: the club and the client share this process,
    # and on a loaded machine (the suite's browser tests) it can stall for half a second.
    club = await start_club(data_dir, reap_after=1.0)
    try:
        alice = Follower(club, "alice")
        await alice.follow()
        # A guard that holds for a time: three reaping periods of silence but for
        # the pings pass, and the club's watcher looks after them.
        followed = time.monotonic()
        await wait_until(lambda: club.server.game_server.looked_at > followed + 3 * club.server.game_server.reap_after, "the watcher's look", WAIT)
        made = await club.lobby_client("bob").new_game(None, "open")
        await alice.push_where(lambda lobby: games(lobby.open) == [made.game], "the game made")
        assert alice.lost == []
        await alice.client.close()
    finally:
        await club.stop()


async def test_a_lobby_hears_that_the_club_went_away(data_dir):
    club = await start_club(data_dir)
    alice = Follower(club, "alice")
    try:
        await alice.follow()
    finally:
        await club.stop()
    await wait_until(lambda: alice.lost, "on_lost called", WAIT)
    assert not alice.client.connected
    await alice.client.close()
