"""A real `sekigahara serve` on a real PostgreSQL that restarts under it
(issue 28; database.py's reconnect): the club goes on without a restart of
its own. While the database is away a command is refused in one line and
not stored (nor acknowledged); once it is back, the next command is stored
and acknowledged, exactly once. A server of this module's own, since these
tests stop it."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest

from club_helpers import fake_key, play_over_tcp, reap, start_serve, stop_serve, wait_until
from helpers import needs_program
from pg_server import INITDB, WHAT, PostgresServer
from rules.notation import format_command
from rules.sides import Side
from sekigahara_tui.club.client import ClubClient
from sekigahara_tui.hosting import members
from sekigahara_tui.hosting.store import Store

pytestmark = needs_program(INITDB, WHAT)
WAIT = 60.0  # a failure, not a timing


@pytest.fixture(scope="module")
def own_postgres():
    server = PostgresServer()
    yield server
    server.stop()


def a_club(url: str, tmp_path):
    data_dir = members.prepare_data_dir(tmp_path / "club")
    server = start_serve(data_dir, "--listen", "127.0.0.1:0", "--store", url)
    for name in ("alice", "bob"):
        members.add(data_dir, name, fake_key())
    return data_dir, server


def stored_client_ids(url: str, game: str) -> Counter:
    store = Store.open(url, read_only=True)
    try:
        return Counter(a.client_id for a in store.load_game(game)[1] if a.client_id is not None)
    finally:
        store.close()


async def test_a_database_restarted_under_serve_takes_the_next_command(own_postgres, tmp_path):
    url = own_postgres.new_database()
    data_dir, server = a_club(url, tmp_path)
    acked: set = set()
    try:
        game = await play_over_tcp(data_dir, None, acked, 10)
        before = set(acked)
        own_postgres.restart()  # every connection of serve's ended by the server
        await play_over_tcp(data_dir, game, acked, 10)  # no refusal would let the bots on: each command stored
        stop_serve(server)
    finally:
        reap(server)
    stored = stored_client_ids(url, game)
    assert before < acked and {reply for _, _, reply in acked} <= set(stored)
    assert max(stored.values()) == 1  # none doubled by a statement run again


async def test_a_command_while_the_database_is_away_is_refused_in_one_line_and_not_stored(own_postgres, tmp_path):
    from sekigahara_tui.club.serve import club_address
    from sekigahara_tui.hosting.web_tokens import issue_web_token

    url = own_postgres.new_database()
    data_dir, server = a_club(url, tmp_path)
    tcp = tuple(club_address(data_dir)["tcp"])
    lobbies = [ClubClient(None, member=name, token=issue_web_token(data_dir, name), tcp=tcp) for name in ("alice", "bob")]
    try:
        made = await lobbies[0].new_game(Side.ISHIDA, "open")
        seats = [lobbies[0].seat_client(made), lobbies[1].seat_client(await lobbies[1].join(made.game))]
        tasks = [asyncio.create_task(seat.run()) for seat in seats]
        await wait_until(lambda: all(s.view is not None for s in seats), "both seats in", WAIT)
        first = next(s for s in seats if s.view.legal)
        stored_first = first.submit(format_command(first.view.legal[0]))  # the store's writer connected
        await wait_until(lambda: first.reply_to == stored_first, "the first command acknowledged", WAIT)
        await wait_until(lambda: all(s.version == first.version for s in seats), "both seats told", WAIT)
        seat = next(s for s in seats if s.view.legal)
        command, version = format_command(seat.view.legal[0]), seat.version
        own_postgres.pause()
        try:
            lost = seat.submit(command)
            await wait_until(lambda: any(r.id == lost for r in seat.refusals), "the command refused", WAIT)
            refusal = next(r for r in seat.refusals if r.id == lost)
            assert refusal.kind == "host-error" and "\n" not in refusal.reason and "could not store it" in refusal.reason
            assert seat.version == version
        finally:
            own_postgres.start()
        kept = seat.submit(command)  # the member tries again
        await wait_until(lambda: seat.reply_to == kept, "the command acknowledged", WAIT)
        assert seat.version == version + 1
        for client in seats:
            await client.close()
        await asyncio.gather(*tasks)
        for lobby in lobbies:
            await lobby.close()
        stop_serve(server)
    finally:
        reap(server)
    stored = stored_client_ids(url, made.game)
    assert stored[stored_first] == stored[kept] == 1 and lost not in stored
