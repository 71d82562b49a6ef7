"""A club's server holds the place indexes of its resident games (issue 23,
item 11), though a process of one game holds fewer (issue 25)."""

from __future__ import annotations

from club_helpers import start_club
from rules import places


async def test_a_club_server_holds_the_indexes_of_hundreds_of_games(data_dir, monkeypatch):
    monkeypatch.setattr(places, "MAX_INDEXES", 512)
    club = await start_club(data_dir)
    try:
        assert places.MAX_INDEXES == places.CLUB_INDEXES
    finally:
        await club.stop()
