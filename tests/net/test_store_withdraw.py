"""The store withdraws an open game nobody joined: its row and its actions go
in one transaction, and only its own player's game with the other seat open."""

from __future__ import annotations

import pytest

from rules.components import default_components
from rules.sides import Side
from sekigahara_tui.hosting.database import connect
from sekigahara_tui.hosting.store import Action, Store, StoreError

DATA = default_components().data_version
ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA


def sound(location) -> None:
    """The store as another connection sees it: whole (SQLite's check), no orphan action."""
    db = connect(location)
    try:
        if db.dialect == "sqlite":
            assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            assert db.execute("PRAGMA foreign_key_check").fetchall() == []
        assert db.execute("SELECT count(*) FROM actions WHERE game NOT IN (SELECT id FROM games)").fetchall() == [(0,)]
    finally:
        db.close()


def rows(location, sql: str, parameters: tuple = ()) -> list[tuple]:
    db = connect(location)
    try:
        return db.execute(sql, parameters).fetchall()
    finally:
        db.close()


@pytest.fixture
def store(store_location):
    """On SQLite and on PostgreSQL (tests/conftest.py)."""
    store = Store.open(store_location)
    yield store
    store.close()


def test_a_withdrawn_game_is_gone_with_its_actions_and_the_others_stay(store):
    store.create_game("mine", 1, DATA, players={ISHIDA: "alice"})
    store.create_game("other", 2, DATA, players={TOKUGAWA: "alice"})
    store.append("mine", Action("command", ISHIDA, "ishida: bid something", "b1", 0.0), 0)  # her own bid, stored
    store.append("other", Action("command", TOKUGAWA, "tokugawa: bid something", "b1", 0.0), 0)
    assert store.withdraw_open_game("mine", "alice") is True
    assert [s.id for s in store.summaries()] == ["other"]
    with pytest.raises(StoreError, match="no game"):
        store.load_game("mine")
    assert rows(store.path, "SELECT game, seq FROM actions") == [("other", 1)]
    assert store.load_game("other")[1][0].client_id == "b1"
    assert store.withdraw_open_game("mine", "alice") is False  # twice: nothing to withdraw
    sound(store.path)


def test_a_joined_game_cannot_be_withdrawn_and_a_withdrawn_one_cannot_be_joined(store):
    store.create_game("joined", 1, DATA, players={ISHIDA: "alice"})
    assert store.take_seat("joined", TOKUGAWA, "bob")
    assert store.withdraw_open_game("joined", "alice") is False
    assert store.withdraw_open_game("joined", "bob") is False
    assert store.summaries()[0].players == ("alice", "bob")

    store.create_game("gone", 2, DATA, players={TOKUGAWA: "alice"})
    assert store.withdraw_open_game("gone", "alice") is True
    assert store.take_seat("gone", ISHIDA, "bob") is False
    assert [s.id for s in store.summaries()] == ["joined"]
    sound(store.path)


def test_only_its_player_withdraws_an_open_game_and_never_one_against_the_computer_or_over(store):
    store.create_game("open", 1, DATA, players={ISHIDA: "alice"})
    store.create_game("computer", 2, DATA, players={ISHIDA: "alice", TOKUGAWA: "computer"})
    store.create_game("over", 3, DATA, players={ISHIDA: "alice"})
    store.finish("over", "tokugawa wins (resigned)")
    store.create_game("nobody", 4, DATA)  # a host's game: no players at all
    before = store.summaries()
    assert store.withdraw_open_game("open", "bob") is False  # not a player
    assert store.withdraw_open_game("open", "computer") is False
    assert store.withdraw_open_game("computer", "alice") is False
    assert store.withdraw_open_game("over", "alice") is False
    assert store.withdraw_open_game("nobody", "alice") is False
    assert store.withdraw_open_game("no-such-game", "alice") is False
    assert store.summaries() == before
    sound(store.path)


def test_a_store_that_cannot_be_written_says_so_in_one_line_and_keeps_the_game(store):
    store.create_game("open", 1, DATA, players={ISHIDA: "alice"})
    reader = Store.open(store.path, read_only=True)
    try:
        with pytest.raises(StoreError) as error:
            reader.withdraw_open_game("open", "alice")
        assert "\n" not in str(error.value) and str(error.value).startswith("cannot write the game store")
    finally:
        reader.close()
    assert [s.id for s in store.summaries()] == ["open"]
    sound(store.path)
