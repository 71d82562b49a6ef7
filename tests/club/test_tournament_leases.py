"""Which host acts for a tournament, on a real PostgreSQL (issue 28,
"tournaments keep working with several hosts"; hosting/tournament_leases.py):
one host holds a tournament's lease at a time, another takes it only once
it expired (the next epoch), and a host fenced off that way writes no round
and no start: the write checks the lease in its own statement. Refused, it
is one audit line (tournaments.py). The three-process test is
test_tournament_hosts.py."""

from __future__ import annotations

import time

import pytest

from helpers import needs_program
from pg_server import INITDB, WHAT
from rules.sides import Side
from sekigahara_tui.hosting.audit import AuditLog
from sekigahara_tui.hosting.database import connect
from sekigahara_tui.hosting.store import GameEnd, Store
from sekigahara_tui.hosting.tournament_leases import TournamentLeases
from sekigahara_tui.hosting.tournament_pairing import Pairing
from sekigahara_tui.hosting.tournament_store import NOT_ACTING, NotActing, TournamentStore
from sekigahara_tui.hosting.tournaments import Tournaments

pytestmark = needs_program(INITDB, WHAT)
ROUND_1 = [Pairing("alice", "bob"), Pairing("carol", "dave")]
ROUND_2 = [Pairing("alice", "carol"), Pairing("bob", "dave")]


def boards_of(url: str) -> list[tuple]:
    db = connect(url)
    try:
        return db.execute("SELECT round, board, ishida, tokugawa FROM tournament_games ORDER BY round, board").fetchall()
    finally:
        db.close()


def started(url: str, name: str):
    db = connect(url)
    try:
        return db.execute("SELECT started FROM tournaments WHERE name = ?", (name,)).fetchone()[0]
    finally:
        db.close()


@pytest.fixture
def club(postgres):
    """A PostgreSQL club with a Swiss of four members in sign-up, and two
    hosts' tournament stores: the old host's lease lasts 0 s (it has run out
    at once: nothing renews it), the new one's 60 s."""
    url = postgres.new_database()
    Store.open(url).close()
    first = TournamentStore(url)
    first.create("Cup", "swiss", 2, "live", "alice")
    for member in ("alice", "bob", "carol", "dave"):
        first.sign_up("Cup", member, None)
    first.close()
    hosts = []
    for lease in (0.0, 60.0):
        store = TournamentStore(url)
        store.fence = TournamentLeases(url, f"host-{lease}", lease=lease)
        hosts.append(store)
    yield url, hosts
    for store in hosts:
        store.fence.stop()
        store.close()


def test_a_live_lease_is_one_host_s_and_an_expired_one_is_taken_with_the_next_epoch(club):
    url, (old, new) = club
    assert old.fence.acquire("Cup") and old.fence.epochs == {"Cup": 1}
    assert new.fence.acquire("Cup") and new.fence.epochs == {"Cup": 2}  # the old one's ran out
    assert not old.fence.acquire("Cup")  # the new one's is alive: the old host does not act
    assert old.fence.epochs == {}


def test_a_host_fenced_off_writes_no_start_and_no_round(club):
    url, (old, new) = club
    assert old.fence.acquire("Cup")
    assert new.fence.acquire("Cup")  # the old host's lease ran out: taken with the next epoch
    # The old host's late start, and its late round: refused in their own statements, nothing written.
    with pytest.raises(NotActing, match=NOT_ACTING):
        old.add_round("Cup", 1, ROUND_1, ["g1", "g2"], start=True)
    with pytest.raises(NotActing, match=NOT_ACTING):
        old.add_rounds("Cup", [ROUND_1], [["g1", "g2"]])
    assert started(url, "Cup") is None and boards_of(url) == []
    assert new.add_round("Cup", 1, ROUND_1, ["g1", "g2"], start=True)  # the acting host's: written
    with pytest.raises(NotActing, match=NOT_ACTING):  # a round after the start likewise
        old.add_round("Cup", 2, ROUND_2, ["g3", "g4"])
    assert boards_of(url) == [(1, 1, "alice", "bob"), (1, 2, "carol", "dave")]
    assert not new.add_round("Cup", 1, ROUND_1, ["g5", "g6"])  # once: that round is there already
    # The old host's renewal tells it the tournament was lost; the new one's that it holds it.
    seen = {}
    old.fence.on_renewed = lambda held, lost, expired: seen.update(old=(held, lost, expired))
    new.fence.on_renewed = lambda held, lost, expired: seen.update(new=(held, lost, expired))
    old.fence.epochs["Cup"] = 1  # as the paused host still believes
    old.fence.renew()
    new.fence.renew()
    assert seen == {"old": ([], ["Cup"], []), "new": (["Cup"], [], [])}


def test_a_dead_host_s_tournament_is_reported_expired_and_a_clean_stop_hands_it_over(club):
    url, (old, new) = club
    assert new.fence.acquire("Cup")
    assert old.fence.acquire("Other")  # and never renewed: as if killed
    seen = []
    new.fence.on_renewed = lambda held, lost, expired: seen.append((held, expired))
    new.fence.renew()
    assert seen == [(["Cup"], ["Other"])]
    assert not old.fence.acquire("Cup")
    new.fence.stop()  # a clean stop: expired now, for the next host's beat
    new.fence = TournamentLeases(url, "host-again")
    assert old.fence.acquire("Cup") and old.fence.epochs["Cup"] == 2


def test_a_host_whose_lease_was_taken_meanwhile_writes_no_round_and_says_so_once(club, tmp_path):
    """Tournaments.advance on a host whose lease was taken meanwhile (a long
    pause; its renewal has not told it yet): the next round is not written,
    one `tournament-not-acting` line in the audit log, and the host no longer
    acts for it."""
    url, (old, new) = club
    store = Store.open(url)  # round 1's games, over: the next round is due
    try:
        for game, (ishida, tokugawa) in (("g1", ("alice", "bob")), ("g2", ("carol", "dave"))):
            store.create_game(game, 7, "v1", None, {Side.ISHIDA: ishida, Side.TOKUGAWA: tokugawa})
            store.finish(game, "ishida wins", GameEnd("rules", Side.ISHIDA, None, time.time(), None))
    finally:
        store.close()
    audit = AuditLog(tmp_path)
    tournaments = Tournaments(url, None, audit)  # type: ignore[arg-type]  (no game is made: the write is refused first)
    try:
        tournaments.share(old.fence)
        assert tournaments.leases is not None and tournaments.leases.acquire("Cup")
        assert tournaments.store.add_round("Cup", 1, ROUND_1, ["g1", "g2"], start=True)
        assert new.fence.acquire("Cup")  # the old host's lease ran out meanwhile (no renewal has told it yet)
        tournaments.advance("Cup")
    finally:
        tournaments.close()
        audit.close()
    assert [b[0] for b in boards_of(url)] == [1, 1]  # no round 2 from the fenced host
    lines = [line for line in (tmp_path / "audit.log").read_text().splitlines() if "tournament" in line]
    assert len(lines) == 1 and "tournament-not-acting" in lines[0] and NOT_ACTING in lines[0]
    assert old.fence.epochs == {}
