"""Group commit (hosting/group_commit.py): actions of many games that arrive
together are stored in one transaction, each on disk before its callback runs;
a row that cannot be stored fails alone."""

from __future__ import annotations

import asyncio

import pytest

from rules.sides import Side
from sekigahara_tui.hosting.database import connect
from sekigahara_tui.hosting.group_commit import GroupCommit
from sekigahara_tui.hosting.store import Action, Store, StoreError

GAMES = [f"game-{n}" for n in range(5)]


def stored(location) -> list[tuple[str, int, str]]:
    """The actions as another connection sees them."""
    db = connect(location)
    try:
        return db.execute("SELECT game, seq, client_id FROM actions ORDER BY game, seq").fetchall()
    finally:
        db.close()


@pytest.fixture
def store(store_location):
    """On SQLite and on PostgreSQL (tests/conftest.py)."""
    store = Store.open(store_location)
    for game in GAMES:
        store.create_game(game, 1, "test")
    yield store
    store.close()


def action(n: int) -> Action:
    return Action("command", Side.ISHIDA, f"ishida: bid card-{n}", f"id-{n}", 0.0)


async def test_actions_arriving_together_share_transactions_and_are_on_disk_before_their_callbacks(store):
    writer = GroupCommit(store.path)
    seen_on_disk: list[bool] = []

    async def play(game: str) -> None:
        for version in range(10):  # each game's actions one after another, as the host sends them
            key = (game, version + 1, f"id-{game}-{version}")

            def committed(new_version: int, key=key) -> None:
                assert new_version == key[1]
                seen_on_disk.append(key in stored(store.path))

            done = await writer.append(game, Action("command", Side.ISHIDA, "x", key[2], 0.0), version, committed)
            assert done == version + 1

    await asyncio.gather(*(play(game) for game in GAMES))
    await writer.close()
    assert len(stored(store.path)) == 50 and all(seen_on_disk) and len(seen_on_disk) == 50
    assert writer.transactions < 50  # games waiting together went in one commit


async def test_a_row_that_cannot_be_stored_fails_alone(store):
    store.append("game-0", action(0), 0)  # row 1 of game-0 is taken
    writer = GroupCommit(store.path)
    called: list[str] = []
    results = await asyncio.gather(
        writer.append("game-0", action(1), 0, lambda v: called.append("game-0")),  # wants row 1 again
        writer.append("game-1", action(2), 0, lambda v: called.append("game-1")),
        return_exceptions=True,
    )
    await writer.close()
    assert isinstance(results[0], StoreError) and "unique" in str(results[0]).lower()
    assert results[1] == 1 and called == ["game-1"]
    assert stored(store.path) == [("game-0", 1, "id-0"), ("game-1", 1, "id-2")]


async def test_a_callback_that_raises_fails_its_own_append_alone_and_the_writer_goes_on(store):
    """A bug after a row is on disk (its callback raises) reaches that append's
    caller; the others of its transaction still hear theirs, and later
    appends are written: nobody waits for ever."""
    writer = GroupCommit(store.path)
    heard: list[str] = []

    def committed(game: str):
        def callback(_version: int) -> None:
            if game == "game-1":
                raise RuntimeError("a bug in applying it")
            heard.append(game)
        return callback

    results = await asyncio.wait_for(
        asyncio.gather(*(writer.append(game, action(n), 0, committed(game)) for n, game in enumerate(GAMES)), return_exceptions=True),
        timeout=10,
    )
    assert [type(r).__name__ if isinstance(r, Exception) else r for r in results] == [1, "RuntimeError", 1, 1, 1]
    assert sorted(heard) == ["game-0", "game-2", "game-3", "game-4"]
    assert await asyncio.wait_for(writer.append("game-0", action(9), 1, committed("game-0")), timeout=10) == 2
    await writer.close()
    assert len(stored(store.path)) == 6


async def test_an_action_of_a_game_the_store_does_not_hold_fails_alone(store):
    """The store's foreign key: an action is stored only for a game it holds
    (one withdrawn meanwhile, say); the others of its transaction are stored."""
    writer = GroupCommit(store.path)
    results = await asyncio.gather(
        writer.append("game-0", action(0), 0, lambda _v: None),
        writer.append("no-such-game", action(1), 0, lambda _v: None),
        writer.append("game-2", action(2), 0, lambda _v: None),
        return_exceptions=True,
    )
    await writer.close()
    assert results[0] == 1 and results[2] == 1
    assert isinstance(results[1], StoreError) and "foreign key" in str(results[1]).lower()
    assert stored(store.path) == [("game-0", 1, "id-0"), ("game-2", 1, "id-2")]


async def test_an_action_arriving_while_the_club_stops_is_refused_and_leaves_no_writer_behind(store):
    """At SIGTERM the club closes the writer; a command arriving meanwhile was
    left in a writer task nobody awaited ("Task was destroyed but it is pending")."""
    writer = GroupCommit(store.path)
    first = asyncio.ensure_future(writer.append("game-0", action(0), 0, lambda version: None))
    await asyncio.sleep(0)  # the first is waiting for the writer thread
    closing = asyncio.ensure_future(writer.close())
    await asyncio.sleep(0)
    with pytest.raises(StoreError, match="the club is stopping"):
        await writer.append("game-1", action(1), 0, lambda version: None)
    await closing
    assert await first == 1  # what came before the stop is stored
    assert stored(store.path) == [("game-0", 1, "id-0")]
