"""When the store holds more of a game than the host's memory (a commit
whose answer was lost with the database's connection: the database
restarted as it committed, issue 28), the host must not go on from its
memory: every later append would take a row already there, and the game
would refuse every command for good. It drops the game from memory, tells
its seats in one line and closes them; a seat that comes back reads the
game again from the store, and play goes on, every row stored once.

Here the row the host never heard of is written behind its back through a
second connection to the same SQLite file: the state the lost answer
leaves, made on purpose."""

from __future__ import annotations

import asyncio
import time

from club_helpers import TIMEOUT, start_club, wait_until
from rules.notation import format_command
from rules.sides import Side
from sekigahara_tui.hosting import members
from sekigahara_tui.hosting.audit import AuditLog
from sekigahara_tui.hosting.store import Action, Store


async def test_a_row_the_host_never_heard_of_makes_it_read_the_game_again(data_dir):
    club = await start_club(data_dir, audit=AuditLog(members.prepare_data_dir(data_dir)))
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    made = await alice.new_game(Side.ISHIDA, "open")
    entries = {Side.ISHIDA: made, Side.TOKUGAWA: await bob.join(made.game)}
    lobbies = {Side.ISHIDA: alice, Side.TOKUGAWA: bob}
    seats = {side: lobbies[side].seat_client(entry) for side, entry in entries.items()}
    tasks = [asyncio.create_task(seat.run()) for seat in seats.values()]
    await wait_until(lambda: all(s.view is not None for s in seats.values()), "both seats in")
    # The opening bids (6.3) are simultaneous: Ishida's is stored behind the host's back.
    ishida = seats[Side.ISHIDA]
    version, bid = ishida.version, format_command(ishida.view.legal[0])
    behind = Store.open(club.store.path)
    try:
        behind.append(made.game, Action("command", Side.ISHIDA, bid, "written-behind", time.time()), version)
    finally:
        behind.close()
    refused = ishida.submit(bid)
    await wait_until(lambda: any(r.id in (refused, None) and r.kind == "host-error" for r in ishida.refusals), "the seat told")
    told = [r.reason for r in ishida.refusals if r.kind == "host-error"]
    assert told and all("\n" not in reason and "read again from the store" in reason for reason in told)
    await wait_until(lambda: made.game not in club.server.games.loaded, "the game out of memory")
    for seat in seats.values():
        await seat.close()
    await asyncio.gather(*tasks)
    assert "game-lost" in (data_dir / "audit.log").read_text()
    # Back in: the game as the store holds it, Ishida's bid made; play goes on from there.
    again = alice.seat_client(await alice.enter(made.game))
    running = asyncio.create_task(again.run())
    await again.wait_for(lambda c: c.view is not None, TIMEOUT)
    assert again.version == version + 1 and not again.view.legal  # the bid is in: Tokugawa's to make
    await again.close()
    await running
    _, actions = club.store.load_game(made.game)
    assert [a.client_id for a in actions].count("written-behind") == 1 and refused not in [a.client_id for a in actions]
    await alice.close()
    await bob.close()
    await club.stop()
