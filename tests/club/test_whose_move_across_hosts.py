"""Whose move it is in a game another host owns (issue 28, lobby_sync.py's
`sekigahara_to_move`): two club servers over one real PostgreSQL. bob plays
on host A (its owner); alice, connected to B, sees in her lobby on B whose
move it is, the right side, pushed: first bob's, then hers. A stale word (an
older version) or a malformed one changes nothing on B; a host that lost
words asks, and the owner tells again."""

from __future__ import annotations

import asyncio
import json
import time

import psycopg

from club_helpers import wait_until
from helpers import needs_program
from pg_server import INITDB, WHAT
from rules.surface import Side
from sekigahara_tui.hosting.lobby_sync import ASKING, TO_MOVE_CHANNEL
from sekigahara_tui.net.bot import RandomBot
from test_lobby_sync import WAIT, Follower, two_club_servers

pytestmark = needs_program(INITDB, WHAT)


def line_of(lobby, game_id: str):
    return next((line for line in lobby.mine if line.game == game_id), None)


async def bob_plays_his_turn(bob, entry) -> None:
    """bob's seat on A plays while he has a decision, and goes."""
    seat = bob.seat_client(entry, RandomBot(7), stop_when_over=True)
    running = asyncio.create_task(seat.run())
    await seat.wait_for(lambda c: c.over or (c.connected and c.view is not None and not c.view.legal and not c.pending), WAIT)
    await seat.close()
    await running


async def a_game_played_on_a(servers, client_of):
    """bob (Ishida) makes a game on A, alice (Tokugawa) joins it on B. (bob on A, alice following her lobby on B, the game)."""
    bob_a, alice_b = client_of(0)("bob"), Follower(client_of(1)("alice"))
    await alice_b.client.lobby()
    made = await bob_a.new_game(Side.ISHIDA, "open")
    await alice_b.push_where(lambda l: any(g.game == made.game for g in l.open), "bob's game open on B")
    await alice_b.client.join(made.game)
    return bob_a, alice_b, made.game


async def test_a_move_on_the_owner_shows_whose_move_in_the_other_hosts_lobby(postgres, monkeypatch):
    async def played(servers, client_of):
        a, b = servers
        bob_a, alice_b, game_id = await a_game_played_on_a(servers, client_of)
        entry = await bob_a.enter(game_id)
        seat = bob_a.seat_client(entry, None)  # bob's seat, no bot yet: A loads the game, A owns it
        running = asyncio.create_task(seat.run())
        await seat.wait_for(lambda c: c.connected and c.view is not None, WAIT)
        await seat.close()
        await running
        game = a.games.loaded[game_id]
        first = tuple(side for side in (Side.ISHIDA, Side.TOKUGAWA) if side in game.host.state.decision.sides)
        assert first  # someone decides at the start
        await alice_b.push_where(lambda l: (line_of(l, game_id) or l).to_move == first, f"{first} to move, on B")
        await bob_plays_his_turn(bob_a, entry)  # on A; the decision passes to alice (Tokugawa)
        assert not game.host.is_over and set(game.host.state.decision.sides) == {Side.TOKUGAWA}
        at = await alice_b.push_where(lambda l: (line_of(l, game_id) or l).to_move == (Side.TOKUGAWA,), "alice's move, on B")
        # the figure the report gives (no bound here): bob's last command stamped on A, to alice's push on B
        print(f"move on A to its push on B: {time.time() - (time.monotonic() - at) - game.actions[-1].at:.3f} s")
        mine, theirs = a.catalog.get(game_id), b.catalog.get(game_id)
        assert game_id not in b.games.loaded and b.games.loads == 0  # B knows it without loading the game (A owns it)
        assert (theirs.version, theirs.to_move, theirs.where) == (game.version, (Side.TOKUGAWA,), mine.where)
        assert theirs.updated == mine.updated
        await bob_a.close()
        await alice_b.client.close()

    await two_club_servers(postgres.new_database(), monkeypatch, played, owned=True)


class Recorder:
    def __init__(self, changes: list[str]) -> None:
        self.changes = changes

    def entry_changed(self, entry) -> None:
        self.changes.append(entry.id)

    def entry_removed(self, game_id: str) -> None:
        self.changes.append(game_id)


def notify(url: str, *payloads: str) -> None:
    """Words on the channel from a connection of the test's (a writer like any host's teller)."""
    with psycopg.connect(url, autocommit=True) as connection:
        for payload in payloads:
            connection.execute("SELECT pg_notify(%s, %s)", (TO_MOVE_CHANNEL, payload))


def word(game_id: str, version: int, to_move: list[str], where: str | None = "week 9, turn 9, x", updated: float = 1.0) -> str:
    return json.dumps({"game": game_id, "version": version, "updated": updated, "to_move": to_move, "where": where})


async def test_a_stale_or_malformed_word_changes_nothing_and_a_host_that_asks_is_told_again(postgres, monkeypatch):
    url = postgres.new_database()

    async def played(servers, client_of):
        a, b = servers
        bob_a, alice_b, game_id = await a_game_played_on_a(servers, client_of)
        await bob_plays_his_turn(bob_a, await bob_a.enter(game_id))
        game = a.games.loaded[game_id]
        await wait_until(lambda: b.catalog.get(game_id).to_move == (Side.TOKUGAWA,), "alice's move known on B", WAIT)
        theirs = b.catalog.get(game_id)
        before = (theirs.version, theirs.updated, theirs.to_move, theirs.where)
        changes: list[str] = []  # what B's catalog tells its followers (the lobby pushes), from now on
        b.catalog.follow(Recorder(changes))
        told = b.lobby_sync.told
        # An older version (a word overtaken by a later move), then words that are
        # none; then the current one again, the last: once B took it, it read them all.
        notify(url, word(game_id, game.version - 1, ["ishida"]), "not json", word(game_id, game.version, ["nobody"]),
               json.dumps({"game": game_id}), word(game_id, game.version, ["tokugawa"], where=theirs.where, updated=theirs.updated))
        await wait_until(lambda: b.lobby_sync.told > told, "the current word taken on B", WAIT)
        assert (theirs.version, theirs.updated, theirs.to_move, theirs.where) == before
        assert changes == []  # nothing changed: no lobby pushed
        # B lost what it knew (as after a lost connection): it asks, and A, the owner, tells again.
        theirs.to_move = theirs.where = None
        with psycopg.connect(url, autocommit=True) as connection:
            connection.execute(ASKING)
        await wait_until(lambda: b.catalog.get(game_id).to_move == (Side.TOKUGAWA,), "A told again on B's asking", WAIT)
        assert theirs.where == a.catalog.get(game_id).where
        assert game_id not in b.games.loaded and b.games.loads == 0  # told, not loaded: A owns it
        await bob_a.close()
        await alice_b.client.close()

    await two_club_servers(url, monkeypatch, played, owned=True)
