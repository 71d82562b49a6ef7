"""The place index cache fits a club's resident games (issue 23, item 11): with
600 games' positions asked in turn, each index is built once, not once a
command, and the cache stays bounded. A process of one game holds fewer
(issue 25: every index held is walked by the garbage collector)."""

from __future__ import annotations

from rules import places
from rules.engine import start_game


def test_six_hundred_games_asked_in_turn_build_each_index_once(monkeypatch):
    monkeypatch.setattr(places, "MAX_INDEXES", places.MAX_INDEXES)  # restored after the test
    places.hold_indexes(places.CLUB_INDEXES)  # as a club's server does
    state, _ = start_game(5)
    games = [tuple(list(state.positions)) for _ in range(600)]  # 600 distinct tuples, as 600 games hold
    for positions in games:
        places.place_index(positions)
    built = places.BUILT[0]
    for _ in range(5):  # every game asked again, round after round, as commands come
        for positions in games:
            places.place_index(positions).at("osaka")
    assert places.BUILT[0] == built


def test_the_cache_stays_bounded_and_keeps_the_newest():
    state, _ = start_game(5)
    newest = None
    for _ in range(places.MAX_INDEXES * 2 + 10):
        newest = tuple(list(state.positions))
        places.place_index(newest)
    assert len(places._INDEXES) <= places.MAX_INDEXES
    built = places.BUILT[0]
    places.place_index(newest)
    assert places.BUILT[0] == built  # the newest survived the evictions


def test_one_game_holds_fewer_and_holding_never_shrinks(monkeypatch):
    # From one game's holding (a club test earlier in this process may have raised it: it never shrinks).
    monkeypatch.setattr(places, "MAX_INDEXES", places.ONE_GAME_INDEXES)
    assert places.MAX_INDEXES < places.CLUB_INDEXES
    places.hold_indexes(places.CLUB_INDEXES)
    places.hold_indexes(10)
    assert places.MAX_INDEXES == places.CLUB_INDEXES
