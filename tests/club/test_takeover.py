"""Issue 23, item 8: a member's new connection to their seat takes it over.

A browser tab left open must not lock its member out of the same game over
SSH: the newer connection gets the seat, and the older one is told why and
closed, and stops (it does not take the seat back). Real connections to the
club's socket and over TCP.
"""

from __future__ import annotations

import asyncio

import pytest

from club_helpers import start_club
from rules.notation import format_command
from rules.sides import Side
from sekigahara_tui.hosting import members
from sekigahara_tui.hosting.audit import AuditLog
from sekigahara_tui.hosting.seats import TAKEN_OVER
from sekigahara_tui.net.client import Client
from sekigahara_tui.net.locations import Address
from sekigahara_tui.remote import RemoteSeat

WAIT = 30.0


@pytest.fixture
async def audited_club(data_dir):
    members.prepare_data_dir(data_dir)
    audit = AuditLog(data_dir)
    club = await start_club(data_dir, audit=audit)
    yield club, audit
    await club.stop()
    audit.close()


async def test_a_second_connection_of_the_member_takes_the_seat_over_and_the_first_is_told(audited_club):
    club, audit = audited_club
    tcp = await club.server.listen_tcp("127.0.0.1", 0)
    in_the_browser, over_ssh = club.lobby_client("alice"), club.lobby_client("alice")  # two sessions of alice's
    entry = await in_the_browser.new_game(Side.ISHIDA, "computer")
    old_seat = RemoteSeat(Side.ISHIDA)  # what the game screen shows
    old = in_the_browser.seat_client(entry, listener=old_seat)
    old_seat.client = old
    old_task = asyncio.create_task(old.run())
    await old.wait_for(lambda c: c.connected and c.view is not None and bool(c.view.legal), WAIT)

    again = await over_ssh.enter(entry.game)
    assert again.token == entry.token  # alice's seat, alice's token
    new = Client(Address(tcp=tcp), again.game, again.seat, again.token)  # the other connection comes over TCP
    new_task = asyncio.create_task(new.run())
    await new.wait_for(lambda c: c.connected and c.view is not None, WAIT)

    await asyncio.wait_for(old_task, WAIT)  # the old one stops for good: it does not take the seat back
    assert (old.fatal.kind, old.fatal.reason) == ("taken-over", TAKEN_OVER)
    assert old_seat.connection == "closed: this seat was taken over by another connection of yours"
    game = club.server.games.loaded[entry.game]
    assert list(game.connections) == [Side.ISHIDA]
    version = new.version
    new.submit(format_command(new.view.legal[0], with_side=False))  # the new one plays on
    await new.wait_for(lambda c: (c.version or 0) > version, WAIT)
    assert new.refusals == [] and new.connected
    await new.close()
    await new_task
    for lobby in (in_the_browser, over_ssh):
        await lobby.close()
    lines = [line for line in audit.lines() if " taken-over " in line]
    assert len(lines) == 1 and f"taken-over member=alice game={entry.game} seat=ishida address=127.0.0.1" in lines[0]


async def test_another_members_token_takes_no_seat_over(audited_club):
    club, audit = audited_club
    alice, bob = club.lobby_client("alice"), club.lobby_client("bob")
    made = await alice.new_game(Side.ISHIDA, "open")
    joined = await bob.join(made.game)
    seat = alice.seat_client(made)
    task = asyncio.create_task(seat.run())
    await seat.wait_for(lambda c: c.connected, WAIT)
    # bob's token for his seat, offered for alice's
    intruder = Client(bob.address, made.game, Side.ISHIDA, joined.token)
    await asyncio.wait_for(intruder.run(), WAIT)
    assert intruder.fatal.kind == "not-authorised"
    assert seat.connected and seat.fatal is None
    await seat.close()
    await task
    await alice.close()
    await bob.close()
    assert not any(" taken-over " in line for line in audit.lines())
