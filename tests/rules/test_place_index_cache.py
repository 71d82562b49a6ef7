"""The place index cache fits a club's resident games (issue 23, item 11): with
600 games' positions asked in turn, each index is built once, not once a
command, and the cache stays bounded."""

from __future__ import annotations

from rules import places
from rules.engine import start_game


def test_six_hundred_games_asked_in_turn_build_each_index_once():
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
