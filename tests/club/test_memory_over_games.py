"""Issue 23, item 11: a club server's memory is flat over time. Games are
played to their end on a club in this process (a real Unix socket, a real
SQLite store) by random bots at full speed, and evicted; what they leave in
memory is measured.

- A finished, evicted game is freed at once, by reference counting alone,
  without the collector: its seats' connections ended on a write to a peer
  gone (a broken pipe) kept it in a cycle through the error's traceback
  (game_server.py, _forget_traceback).
- Under serve's own collector (club/cli.py, its schedule shortened), the
  memory traced after 2M games is no more than after M games plus BOUND a
  game: before, the collector never collected the oldest generation, and
  every connection's asyncio transport (in a cycle of CPython's) and every
  game of the first kind stayed for good.

Two bots of a game close their connections together once both saw the game
end, so that the server writes to the one gone while the other leaves: the
broken pipe of the first kind, every time. Not timed: what is waited for is
a condition (evicted, the collector's next full collection).
"""

from __future__ import annotations

import asyncio
import gc
import json
import random
import secrets
import tracemalloc
import weakref

from club_helpers import start_club, wait_until
from rules.sides import Side
from sekigahara_tui.club.cli import collect_on_timer, tune_garbage_collector
from sekigahara_tui.club.client import ClubClient
from sekigahara_tui.net.protocol import PROTOCOL_VERSION
from memory_sizes import empty_bounded_caches

EVICT_AFTER = 0.05
LANES = 4  # games played at once
M = 4  # games per measured round
# What a finished game may leave in memory for good: its catalog entry
# (catalog.py: the lobby lists a member's finished games, and the store keeps
# them) and what the lobby's pushes last showed of it (lobby_push.py, seen).
# About 600 to 900 bytes: the entry (~630 bytes deep), the tuples last shown
# (~200) and their dicts' slots. Before the fix, about 300 KB a game stayed.
BOUND = 1_000  # bytes a game
# Besides, what comes and goes whatever the games: each SQLite connection of
# the sqlite3 module lists a weak reference to each cursor it made, and
# empties the dead ones every 200 cursors (about 16 KB each time), so three
# connections (the store's, its writer thread's, the members') swing by up to
# about 50 KB between two moments.
SWING = 64 * 1024
# The collector's schedule (club/cli.py), shortened: no collection of
# CPython's own, and a full collection every FULL_EVERY ticks.
TICK = 0.02
FULL_EVERY = 15  # ticks: a full collection every 0.3 s here, every 5 minutes in a club


class SeatBot(asyncio.Protocol):
    """A random bot on a raw connection, playing at once; it keeps only the last state."""

    def __init__(self, entry, seed: int, pair: list) -> None:
        self.entry, self.chooser, self.pair = entry, random.Random(seed), pair
        self.buffer, self.pending, self.over, self.last = b"", None, False, None
        self.lost = asyncio.get_running_loop().create_future()
        pair.append(self)

    def connection_made(self, transport) -> None:
        self.transport = transport
        self.send({"type": "hello", "protocol": PROTOCOL_VERSION, "game": self.entry.game,
                   "seat": self.entry.seat.value, "token": self.entry.token, "seen": None})

    def send(self, message: dict) -> None:
        if not self.transport.is_closing():
            self.transport.write(json.dumps(message).encode() + b"\n")

    def data_received(self, data: bytes) -> None:
        *lines, self.buffer = (self.buffer + data).split(b"\n")
        for line in lines:
            message = json.loads(line)
            if message["type"] == "state":
                self.last = message
                if message["reply_to"] == self.pending:
                    self.pending = None
                if message["over"]:
                    self.game_over()
            elif message["type"] == "refused" and message["id"] == self.pending:
                self.pending = None  # stale: the other seat moved first
        if self.pending is None and self.last is not None and not self.over and self.last["view"]["legal"]:
            self.pending = secrets.token_urlsafe(9)
            self.send({"type": "submit", "id": self.pending, "version": self.last["version"],
                       "command": self.chooser.choice(self.last["view"]["legal"])})

    def game_over(self) -> None:
        """Both seats close together once both saw the end: the server then
        writes to the one gone as the other leaves (a broken pipe)."""
        self.over = True
        if all(bot.over for bot in self.pair):
            for bot in self.pair:
                bot.transport.close()

    def connection_lost(self, exc) -> None:
        if not self.lost.done():
            self.lost.set_result(None)


async def play_round(club, alice: ClubClient, bob: ClubClient, games: int, seeds, played: list) -> None:
    """`games` whole games, LANES at a time, each to its end and evicted."""

    async def one_game() -> None:
        made = await alice.new_game(Side.ISHIDA, "open")
        joined = await bob.join(made.game)
        pair: list[SeatBot] = []
        loop = asyncio.get_running_loop()
        for entry in (made, joined):
            await loop.create_unix_connection(lambda e=entry: SeatBot(e, next(seeds), pair), str(club.socket))
        await asyncio.gather(*(bot.lost for bot in pair))
        assert all(bot.over for bot in pair), "a game left before its end"
        played.append(made.game)

    queue = list(range(games))

    async def lane() -> None:
        while queue:
            queue.pop()
            await one_game()

    await asyncio.gather(*(lane() for _ in range(LANES)))
    await wait_until(lambda: not club.server.games.loaded, "the games evicted")


async def lobby_clients(club) -> tuple[ClubClient, ClubClient]:
    # The club's own Unix user: the limits on games in play do not hold it (lobby.py).
    alice, bob = ClubClient(club.socket, member="alice"), ClubClient(club.socket, member="bob")
    await alice.connect()
    await bob.connect()
    return alice, bob


async def freed_without_collector(data_dir) -> tuple[int, int]:
    club = await start_club(data_dir, evict_after=EVICT_AFTER)
    alice, bob = await lobby_clients(club)
    games: list[weakref.ref] = []

    def keep_refs(game) -> None:
        games.append(weakref.ref(game))

    club.server.games.on_load += (keep_refs,)
    try:
        await play_round(club, alice, bob, LANES, iter(range(1000)), [])
        # The seats' handlers finish closing a moment after the eviction.
        await wait_until(lambda: not any(ref() is not None for ref in games), "the evicted games freed", timeout=5)
    finally:
        alive = sum(ref() is not None for ref in games)
        await alice.close()
        await bob.close()
        await club.stop()
    return len(games), alive


def test_a_finished_evicted_game_is_freed_by_reference_counting_alone(data_dir):
    gc.disable()
    try:
        loaded, alive = asyncio.run(freed_without_collector(data_dir))
    finally:
        gc.enable()
    assert loaded == LANES
    assert alive == 0, f"{alive} of {loaded} games still in memory after their eviction"


async def traced_after_rounds(data_dir) -> tuple[int, int]:
    club = await start_club(data_dir, evict_after=EVICT_AFTER)
    alice, bob = await lobby_clients(club)
    seeds, played, full = iter(range(10**6)), [], [0]

    def count_full_collections(phase: str, info: dict) -> None:
        if phase == "stop" and info["generation"] == 2:
            full[0] += 1

    async def after_next_full_collection() -> int:
        """The bytes traced right after the collector's next collection of the
        oldest generation (its schedule's, not one asked for here): then no
        garbage is left over, whatever its kind."""
        empty_bounded_caches()  # bounded caches, not the games' memory
        before = full[0]
        await wait_until(lambda: full[0] > before, "the collector's next collection of the oldest generation")
        return tracemalloc.get_traced_memory()[0]

    tune_garbage_collector()
    gc.callbacks.append(count_full_collections)
    collector = asyncio.create_task(collect_on_timer(every=TICK, full_every=FULL_EVERY))
    try:
        await play_round(club, alice, bob, M, seeds, played)  # warm-up: what the first games make once
        tracemalloc.start()
        sizes = []
        for _ in range(2):
            await play_round(club, alice, bob, M, seeds, played)
            sizes.append(await after_next_full_collection())
    finally:
        tracemalloc.stop()
        collector.cancel()
        gc.callbacks.remove(count_full_collections)
        await alice.close()
        await bob.close()
        await club.stop()
    assert len(played) == 3 * M
    return sizes[0], sizes[1]


def test_memory_after_2m_games_is_that_after_m_plus_a_small_bound_a_game(data_dir):
    try:
        after_m, after_2m = asyncio.run(traced_after_rounds(data_dir))
    finally:
        gc.unfreeze()
        gc.enable()
    grown = after_2m - after_m
    print(f"traced after {M} games {after_m} B, after {2 * M} {after_2m} B: {grown / M:.0f} B a game")
    assert grown <= M * BOUND + SWING, f"{grown / M:.0f} bytes a finished game stayed in memory ({M} games: {grown} B)"
