"""Spectators share one chair (hosting/chairs.py, Chair): its view and events are
made and encoded once per change for all of them. Two spectators watching
the same game get the very same bytes, and those bytes are the public view
and events (R55), checked line by line as for one spectator."""

from __future__ import annotations

import asyncio

from club_helpers import bot_plays
from net.net_helpers import RecordingProxy
from rules.sides import Side
from sekigahara_tui.net.locations import Address
from test_spectators import ClubGameTruth, check_spectator_bytes


async def test_two_spectators_receive_the_same_bytes_and_only_public_information(club, data_dir):
    alice, bob, carol = (club.lobby_client(n) for n in ("alice", "bob", "carol"))
    made = await alice.new_game(Side.ISHIDA, "open")
    joined = await bob.join(made.game)
    watch = await carol.watch(made.game)
    proxies = [RecordingProxy(Address(unix=str(club.socket)), data_dir / f"spy{i}.sock") for i in (1, 2)]
    watchers = []
    for proxy in proxies:
        watcher = carol.watch_client(watch, stop_when_over=True)
        watcher.address = await proxy.start()
        watchers.append(watcher)
    watching = [asyncio.create_task(w.run()) for w in watchers]
    for watcher in watchers:
        await watcher.wait_for(lambda c: c.view is not None, 10)
    await asyncio.gather(bot_plays(alice, made, 31), bot_plays(bob, joined, 32))
    await asyncio.wait_for(asyncio.gather(*watching), 10)
    for proxy in proxies:
        await proxy.stop()
    first, second = (proxy.received for proxy in proxies)
    assert len(first) > 100 and first == second
    assert check_spectator_bytes(first, ClubGameTruth(club.store, made.game)) > 100
    for c in (alice, bob, carol):
        await c.close()
