"""A game's clock and notices with two club hosts over one real PostgreSQL
(issue 28: "clocks, notices ... keep working with several hosts: exactly one
host acts for a game at a time"): they go with the game's ownership (only
the owner loads a game, and only a loaded game's clock runs; ownership.py).

alice joins bob's clocked game on host B, so B owns it and runs its clock;
nobody sits at it, and both members sign out. Then B's lease renewals fail (its database connection
for them cut): B lets the game go itself before its lease can run out
(Ownership.lapse), A takes it when the lease expired and runs the clock on.
Both clocks drop low and one runs out on A: each member gets exactly one
clock-low and one game-over notice (a real webhook receiver on loopback),
the time-out is stored once, and B stores and sends nothing more of it.
The same when B had evicted the idle game first (its lease kept while the
clock runs)."""

from __future__ import annotations

from collections import Counter

import pytest

from club_helpers import wait_until
from helpers import needs_program
from notice_helpers import receiver  # noqa: F401 - a fixture
from pg_server import INITDB, WHAT
from rules.surface import Side
from sekigahara_tui.hosting import clocks as clock_presets
from sekigahara_tui.hosting import database
from sekigahara_tui.hosting.clocks import ClockPreset
from sekigahara_tui.hosting.notice_delivery import NoticeOptions
from test_lobby_sync import WAIT, two_club_servers

pytestmark = needs_program(INITDB, WHAT)
# Low at 10% (2 s left, 18 s in), out at 20 s: past a lease (5 s) and its takeover (6.5 s) with room.
SHORT = ClockPreset("test-hosts", 20.0, 2.0, 30.0, correspondence=False)
KINDS = ("your-move", "clock-low", "game-over")


@pytest.fixture(autouse=True)
def short_preset(monkeypatch):
    monkeypatch.setitem(clock_presets.PRESETS, SHORT.name, SHORT)


def results_of(url: str, game: str) -> list[tuple]:
    db = database.connect(url)
    try:
        return db.execute("SELECT kind FROM results WHERE game = ?", (game,)).fetchall()
    finally:
        db.close()


async def clocked_game_on_b(servers, client_of, receiver):  # noqa: F811
    """bob makes a game through A, alice joins it through B (so B loads it and
    owns it: its clock starts there); both want notices, and sign out."""
    a, b = servers
    bob_a, alice_b = client_of(0)("bob"), client_of(1)("alice")
    for lobby, name in ((bob_a, "bob"), (alice_b, "alice")):
        await lobby.set_notices(receiver.url(f"/{name}"), "json", None, KINDS)
    made = await bob_a.new_game(Side.ISHIDA, "open", clock=SHORT.name)
    await wait_until(lambda: made.game in b.catalog, "bob's game in B's catalog", WAIT)
    await alice_b.join(made.game)
    assert b.ownership.owns(made.game) and made.game not in a.games.loaded
    await bob_a.close()  # both away: their notices go to the webhook (a member signed in may be told in the lobby)
    await alice_b.close()
    return made.game


def cut(b) -> None:
    """B's lease renewals fail from now on (its connection for them gone); its store still writes."""

    def failing() -> None:
        raise database.Error("the connection for the leases is gone")

    b.ownership.renew = failing


async def ran_out_on_a_once(url, servers, game, receiver) -> None:  # noqa: F811
    """A takes the game and its clock runs out there: one time-out, and each
    member told once of the clock low and once of the end."""
    a, b = servers
    await wait_until(lambda: game in a.games.loaded, "A to take the game", WAIT)
    await wait_until(lambda: a.catalog.get(game).status == "over", "the clock to run out on A", WAIT * 2)
    await a.notices.idle()
    await b.notices.idle()
    sent = Counter((got.path, got.body["kind"]) for got in receiver.received)
    print(dict(sent))
    assert {k: n for k, n in sent.items() if k[1] != "your-move"} == {
        ("/alice", "clock-low"): 1, ("/bob", "clock-low"): 1, ("/alice", "game-over"): 1, ("/bob", "game-over"): 1}
    assert all(n == 1 for n in sent.values())  # a your-move, if any, once
    assert results_of(url, game) == [("timed-out",)]
    assert game not in b.games.loaded and not b.ownership.owns(game)


async def test_a_games_clock_and_notices_act_on_one_host_only_when_its_owner_is_cut_off(postgres, monkeypatch, receiver):  # noqa: F811
    url = postgres.new_database()

    async def played(servers, client_of):
        b = servers[1]
        game = await clocked_game_on_b(servers, client_of, receiver)
        assert game in b.games.loaded
        cut(b)
        await wait_until(lambda: game not in b.games.loaded, "B to let the game go", WAIT)  # before A may take it
        assert not b.ownership.owns(game)
        await ran_out_on_a_once(url, servers, game, receiver)

    await two_club_servers(url, monkeypatch, played, owned=True, notices=NoticeOptions(allow_private=True))


async def test_an_evicted_game_s_clock_runs_on_when_its_host_is_gone(postgres, monkeypatch, receiver):  # noqa: F811
    """B evicts the idle game but keeps its lease while its clock runs: cut
    off, its lease expires and A runs the clock to the time-out (a lease given
    up at eviction would leave nothing to expire: nobody would time it out)."""
    url = postgres.new_database()

    async def played(servers, client_of):
        b = servers[1]
        game = await clocked_game_on_b(servers, client_of, receiver)
        await wait_until(lambda: game not in b.games.loaded, "B to evict the idle game", WAIT)
        assert b.ownership.owns(game)  # its clock runs: the lease stays B's
        cut(b)
        await ran_out_on_a_once(url, servers, game, receiver)

    await two_club_servers(url, monkeypatch, played, owned=True, notices=NoticeOptions(allow_private=True), evict_after=0.5)
