"""Game ownership on a real PostgreSQL (issue 28, "Several club hosts";
hosting/ownership.py): one host holds a game's lease at a time, another
takes it only once it expired (with the next epoch), and a host fenced off
that way cannot commit to the game: its append, its end, in the same
statement as the write. The three-process test is test_hosts.py."""

from __future__ import annotations

import time

import pytest

from helpers import needs_program
from pg_server import INITDB, WHAT
from rules.sides import Side
from sekigahara_tui.hosting.clock_store import ClockStore
from sekigahara_tui.hosting.database import connect
from sekigahara_tui.hosting.ownership import NOT_OWNER, Ownership, shared_secret
from sekigahara_tui.hosting.store import Action, CancelOffer, GameEnd, NotOwner, Store, StoreError

pytestmark = needs_program(INITDB, WHAT)


def command(text: str, client_id: str) -> Action:
    return Action("command", Side.ISHIDA, text, client_id, time.time())


def actions_of(url: str, game: str) -> list[tuple]:
    db = connect(url)
    try:
        return db.execute("SELECT seq, client_id FROM actions WHERE game = ? ORDER BY seq", (game,)).fetchall()
    finally:
        db.close()


@pytest.fixture
def club(postgres):
    """A PostgreSQL club with one game, and two hosts' stores and leases on it."""
    url = postgres.new_database()
    Store.open(url).close()
    made = Store.open(url)
    made.create_game("g1", 7, "v1")
    made.close()
    hosts = []
    for address in ("127.0.0.1:1001", "127.0.0.1:1002"):
        store = Store.open(url)
        # lease 0: taken, it has run out at once (nothing renews it: no thread started)
        store.fence = Ownership(url, address, lease=0.0 if address.endswith("1") else 60.0)
        hosts.append(store)
    yield url, hosts
    for store in hosts:
        store.fence.stop()
        store.close()


def test_a_live_lease_is_one_host_s_and_another_is_sent_to_it(postgres):
    url = postgres.new_database()
    Store.open(url).close()
    first, second = Ownership(url, "127.0.0.1:1001"), Ownership(url, "127.0.0.1:1002")
    try:
        assert first.acquire("g1") and first.acquire("g1")  # again: still its own, same epoch
        assert first.epochs == {"g1": 1}
        assert not second.acquire("g1")
        assert second.owner_address("g1") == "127.0.0.1:1001" and first.owner_address("g1") is None
        first.release("g1")  # evicted: the next host takes it at once
        assert second.acquire("g1") and second.epochs == {"g1": 1}
    finally:
        first.stop()
        second.stop()


def test_a_host_fenced_off_commits_nothing_and_learns_it_lost_the_game(club):
    url, (old, new) = club
    assert old.fence.acquire("g1")
    assert old.append_many([("g1", command("bid 1", "a"), 0)]) == [None]
    assert new.fence.acquire("g1")  # the old host's lease ran out: taken with the next epoch
    assert new.fence.epochs == {"g1": 2}
    # The old host's late commit: refused in its own statement, nothing stored.
    assert old.append_many([("g1", command("bid 2", "b"), 1)]) == [f"{NOT_OWNER}: nothing was stored"]
    with pytest.raises(NotOwner, match=NOT_OWNER):
        old.append("g1", command("bid 2", "c"), 1)
    with pytest.raises(NotOwner, match=NOT_OWNER):
        old.end_outside_rules("g1", "tokugawa wins (ishida resigned)", GameEnd("resigned", Side.TOKUGAWA, Side.ISHIDA, time.time(), "bob"))
    assert new.append_many([("g1", command("bid 2", "d"), 1)]) == [None]
    assert actions_of(url, "g1") == [(1, "a"), (2, "d")]
    lost = []
    old.fence.on_lost = lost.extend
    old.fence.renew()
    assert lost == ["g1"] and old.fence.epochs == {}
    assert new.load_game("g1")[0].status == "playing"  # the old host's end changed nothing
    # The clocks' write for the game (the computer stands in for a side out of time): the owner's only.
    for store, owner in ((old, False), (new, True)):
        clocks = ClockStore(url)
        clocks.fence = store.fence
        try:
            assert clocks.stand_in("g1", Side.TOKUGAWA, "planner") is owner
        finally:
            clocks.close()


def offers_of(url: str) -> list[tuple]:
    db = connect(url)
    try:
        return db.execute("SELECT game, side, by_member FROM cancel_offers").fetchall()
    finally:
        db.close()


def test_a_host_fenced_off_cannot_stand_or_take_away_a_cancel_offer(club):
    url, (old, new) = club
    assert old.fence.acquire("g1")
    old.set_cancel_offer("g1", CancelOffer(Side.ISHIDA, "alice", time.time()))  # the owner's: stored
    assert new.fence.acquire("g1")  # the old host's lease ran out: taken with the next epoch
    with pytest.raises(NotOwner, match=NOT_OWNER):  # its late proposal: refused in its own statement
        old.set_cancel_offer("g1", CancelOffer(Side.TOKUGAWA, "bob", time.time()))
    with pytest.raises(NotOwner, match=NOT_OWNER):  # nor may it take the standing one away
        old.set_cancel_offer("g1", None)
    assert offers_of(url) == [("g1", "ishida", "alice")]
    new.set_cancel_offer("g1", None)  # the owner's: taken away
    new.set_cancel_offer("g1", None)  # none to take away: no refusal for the owner
    assert offers_of(url) == []
    new.set_cancel_offer("g1", CancelOffer(Side.TOKUGAWA, "bob", time.time()))
    assert offers_of(url) == [("g1", "tokugawa", "bob")]


def test_a_host_fenced_off_cannot_store_a_games_end_by_the_rules(club):
    """Store.finish: what a commit's end and the tournaments' catch-up at start
    (tournaments.py, `_mend`) write; fenced in its own statement."""
    url, (old, new) = club
    assert old.fence.acquire("g1") and new.fence.acquire("g1")  # the old host's lease ran out: the new one's now
    end = GameEnd("rules", Side.ISHIDA, None, time.time(), None)
    with pytest.raises(NotOwner, match=NOT_OWNER):
        old.finish("g1", "ishida wins (Tokugawa's last castle)", end)
    assert new.load_game("g1")[0].status == "playing"
    new.finish("g1", "ishida wins (Tokugawa's last castle)", end)
    assert new.load_game("g1")[0].status == "over"


def test_a_dead_host_s_expired_lease_is_reported_for_takeover(club):
    url, (old, new) = club
    assert old.fence.acquire("g1")  # and never renewed: as if killed
    assert old.fence.acquire("gone")  # a game the store does not hold (withdrawn meanwhile): nothing to take
    expired = []
    new.fence.on_expired = expired.extend
    new.fence.renew()
    assert expired == ["g1"]


def test_the_version_check_still_holds_for_the_owner(club):
    url, (_, owner) = club
    assert owner.fence.acquire("g1")
    assert owner.append_many([("g1", command("bid 1", "a"), 0)]) == [None]
    refused = owner.append_many([("g1", command("bid 1", "b"), 0)])  # row 1 again: another writer's
    assert refused[0] is not None and NOT_OWNER not in refused[0]
    with pytest.raises(StoreError):
        owner.append("g1", command("bid 1", "c"), 0)


def test_every_host_derives_tokens_from_one_secret(postgres):
    url = postgres.new_database()
    db = connect(url)
    try:
        first = shared_secret(db, b"\x01" * 32)  # the first host's club.secret seeds it
        assert first == b"\x01" * 32
        assert shared_secret(db, b"\x02" * 32) == first  # another host's file does not replace it
        assert shared_secret(db, None) == first
    finally:
        db.close()
