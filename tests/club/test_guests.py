"""Issue 23, item 4: with `serve --guest` a guest (guest-NAME) really gets in,
and may join open games and watch, not make games; without it, no guest
name signs in. (tests/club_front/test_guests_over_ssh.py: over SSH.)"""

from __future__ import annotations

import asyncio

import pytest

from club_helpers import start_club
from rules.sides import Side
from sekigahara_tui.club.client import ClubClient, ClubRefused
from sekigahara_tui.hosting import members
from sekigahara_tui.hosting.audit import AuditLog
from sekigahara_tui.hosting.generations import NotAMember
from sekigahara_tui.hosting.lobby import GUESTS_MAKE_NO_GAMES

WAIT = 30.0


@pytest.fixture
async def guest_club(data_dir):
    members.prepare_data_dir(data_dir)
    audit = AuditLog(data_dir)
    club = await start_club(data_dir, guests=True, audit=audit)
    yield club, audit
    await club.stop()
    audit.close()


async def test_a_guest_joins_and_watches_but_makes_no_game(guest_club):
    club, audit = guest_club
    guest = ClubClient(club.socket, session=club.server.open_session("guest-y"))
    assert await guest.connect() == "guest-y"
    for opponent in ("open", "computer"):
        with pytest.raises(ClubRefused, match=GUESTS_MAKE_NO_GAMES) as refused:
            await guest.new_game(None, opponent)
        assert refused.value.kind == "not-authorised"
    alice = club.lobby_client("alice")
    open_game = await alice.new_game(Side.ISHIDA, "open")
    computer_game = await alice.new_game(Side.ISHIDA, "computer")
    lobby = await guest.lobby()
    assert [line.game for line in lobby.open] == [open_game.game] and lobby.mine == ()
    joined = await guest.join(open_game.game)
    assert joined.seat is Side.TOKUGAWA
    seat = guest.seat_client(joined)
    task = asyncio.create_task(seat.run())
    await seat.wait_for(lambda c: c.view is not None, WAIT)
    assert (await guest.enter(open_game.game)).token == joined.token
    watcher = guest.watch_client(await guest.watch(computer_game.game))
    watching = asyncio.create_task(watcher.run())
    await watcher.wait_for(lambda c: c.view is not None, WAIT)
    for client, running in ((seat, task), (watcher, watching)):
        await client.close()
        await running
    await guest.close()
    await alice.close()
    refusals = [line for line in audit.lines() if " refused front=club member=guest-y " in line]
    assert len(refusals) == 2 and all(line.endswith(": " + GUESTS_MAKE_NO_GAMES) for line in refusals)


async def test_without_guest_mode_no_guest_name_signs_in(club):
    with pytest.raises(NotAMember, match="'guest-y' is not a member"):
        club.server.open_session("guest-y")
    with pytest.raises(ClubRefused, match="not a member"):  # not even through the local door
        await ClubClient(club.socket, member="guest-y").connect()
