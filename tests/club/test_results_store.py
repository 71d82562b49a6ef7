"""The store's results (issue 24): schema 1 adds how each game ended and a
standing cancel proposal. An existing data dir (schema 0) still opens: it is
migrated once, its finished games counted as ended by the rules; opened
read-only without migrating it reads as before; a newer store is refused."""

from __future__ import annotations

import sqlite3

import pytest

from rules.sides import Side
from sekigahara_tui.hosting.store import CancelOffer, GameEnd, Store, StoreError
from sekigahara_tui.hosting.store_schema import SCHEMA, SCHEMA_VERSION


def old_store(path) -> None:
    """A store as sekigahara wrote it before schema 1: a game over, one in play."""
    db = sqlite3.connect(path)
    db.executescript(SCHEMA)
    db.execute("INSERT INTO games (id, seed, data_version, created, status, result) VALUES ('g1', 1, 'v', 10.0, 'over', 'tokugawa wins (vp)')")
    db.execute("INSERT INTO actions (game, seq, kind, side, text, at) VALUES ('g1', 1, 'command', 'ishida', 'ishida: bid', 20.0)")
    db.execute("INSERT INTO games (id, seed, data_version, created, status) VALUES ('g2', 2, 'v', 30.0, 'playing')")
    db.commit()
    db.close()


def test_an_old_store_opens_read_only_as_before_then_is_migrated_once(tmp_path):
    path = tmp_path / "games.sqlite"
    old_store(path)
    reader = Store.open(path, read_only=True)
    assert reader.schema == 0 and reader.load_game("g1")[0].end is None
    reader.close()

    store = Store.open(path)
    assert store.schema == SCHEMA_VERSION
    info, _ = store.load_game("g1")
    assert info.end == GameEnd("rules", Side.TOKUGAWA, None, 20.0, None)  # at: its last action
    assert store.load_game("g2")[0].end is None
    store.close()
    again = Store.open(path)  # a second opening changes nothing
    assert again.load_game("g1")[0].end == info.end
    again.close()


def test_an_end_outside_the_rules_is_stored_once_with_its_proposal_gone(store_location):
    store = Store.open(store_location)  # SQLite, then PostgreSQL
    store.create_game("g", 1, "v")
    store.set_cancel_offer("g", CancelOffer(Side.ISHIDA, "alice", 5.0))
    assert store.load_game("g")[0].cancel_offer == CancelOffer(Side.ISHIDA, "alice", 5.0)
    end = GameEnd("cancelled", None, Side.TOKUGAWA, 6.0, "bob")
    assert store.end_outside_rules("g", "cancelled by agreement: no result", end)
    assert not store.end_outside_rules("g", "x", GameEnd("resigned", Side.ISHIDA, Side.TOKUGAWA, 7.0, "bob"))
    info, _ = store.load_game("g")
    assert (info.status, info.result, info.end, info.cancel_offer) == ("over", "cancelled by agreement: no result", end, None)
    store.create_game("h", 2, "v")
    with pytest.raises(StoreError):  # not a kind: nothing changes
        store.end_outside_rules("h", "x", GameEnd("abandoned", None, None, 1.0, None))
    assert store.load_game("h")[0].status == "playing"
    store.close()


def test_a_newer_store_is_refused_in_one_line(tmp_path):
    path = tmp_path / "games.sqlite"
    Store.open(path).close()
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="newer sekigahara") as refused:
        Store.open(path)
    assert "\n" not in str(refused.value)
