"""The store: append-only actions, versions, undo in the record, commit
before anything else, read-only access while a host writes. The first tests
run on SQLite and on a real PostgreSQL (tests/conftest.py, store_location)."""

from __future__ import annotations

import os
import sqlite3
import stat

import pytest

from rules.components import default_components
from rules.infra.record import replay
from rules.infra.selfplay import random_game
from rules.sides import Side
from sekigahara_tui.hosting.host import GameHost
from sekigahara_tui.hosting.store import Action, Store, StoreError, record_of

DATA = default_components().data_version


def command(side: Side, text: str, client_id: str | None = None) -> Action:
    return Action("command", side, text, client_id, 0.0)


def undo(side: Side, client_id: str | None = None) -> Action:
    return Action("undo", side, None, client_id, 0.0)


def test_a_stored_game_replays_to_the_same_state(store_location):
    game = random_game(4)
    store = Store.open(store_location)
    store.create_game("g", 4, DATA)
    for version, line in enumerate(game.record.commands):
        side = Side(line.split(":")[0])
        assert store.append("g", command(side, line, f"id{version}"), version) == version + 1
    info, actions = store.load_game("g")
    assert len(actions) == len(game.record.commands)
    assert replay(record_of(info, actions)) == game.state
    assert GameHost.from_record(record_of(info, actions)).state == game.state


def test_an_undo_takes_back_the_last_standing_command(store_location):
    store = Store.open(store_location)
    info = store.create_game("g", 1, DATA)
    rows = [command(Side.ISHIDA, "ishida: a"), command(Side.TOKUGAWA, "tokugawa: b"), undo(Side.TOKUGAWA),
            command(Side.TOKUGAWA, "tokugawa: c"), undo(Side.TOKUGAWA), undo(Side.ISHIDA)]
    for version, row in enumerate(rows):
        store.append("g", row, version)
    _, actions = store.load_game("g")
    assert actions == rows
    assert record_of(info, actions[:2]).commands == ("ishida: a", "tokugawa: b")
    assert record_of(info, actions[:4]).commands == ("ishida: a", "tokugawa: c")
    assert record_of(info, actions).commands == ()


def test_a_version_or_client_id_taken_twice_is_refused_and_nothing_stored(store_location):
    store = Store.open(store_location)
    store.create_game("g", 1, DATA)
    store.append("g", command(Side.ISHIDA, "ishida: a", "x"), 0)
    with pytest.raises(StoreError, match="cannot write"):
        store.append("g", command(Side.ISHIDA, "ishida: b", "y"), 0)  # row 1 exists
    with pytest.raises(StoreError, match="(?i)unique"):
        store.append("g", command(Side.ISHIDA, "ishida: b", "x"), 1)  # the same seat's id
    store.append("g", command(Side.TOKUGAWA, "tokugawa: b", "x"), 1)  # ids are per seat
    assert len(store.load_game("g")[1]) == 2


def test_the_store_is_private_durable_and_readable_while_written(tmp_path):
    path = tmp_path / "game.sqlite"
    writer = Store.open(path)
    writer.create_game("g", 1, DATA)
    writer.append("g", command(Side.ISHIDA, "ishida: a"), 0)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    db.close()
    assert writer._db.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL
    reader = Store.open(path, read_only=True)
    assert len(reader.load_game("g")[1]) == 1
    writer.append("g", undo(Side.ISHIDA), 1)
    assert len(reader.load_game("g")[1]) == 2  # sees the new commit
    with pytest.raises(StoreError):
        reader.append("g", undo(Side.ISHIDA), 2)
    reader.close()
    writer.close()
    assert len(Store.open(path, read_only=True).load_game("g")[1]) == 2  # after the writer is gone


def test_missing_stores_and_games_are_one_line_errors(tmp_path):
    with pytest.raises(StoreError, match="no game store"):
        Store.open(tmp_path / "none.sqlite", read_only=True)
    (tmp_path / "junk.sqlite").write_bytes(b"not a database" * 100)
    with pytest.raises(StoreError, match="cannot open the game store"):
        Store.open(tmp_path / "junk.sqlite")
    store = Store.open(tmp_path / "game.sqlite")
    with pytest.raises(StoreError, match="no game 'nope'"):
        store.load_game("nope")
