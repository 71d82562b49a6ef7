"""The catalog following games other hosts change (catalog.py's store_says,
fed by lobby_sync.py): what is newer in the store is taken and told to its
followers once; a read older than this host's own change changes nothing
(a game only goes forward); a move made elsewhere leaves whose move unknown."""

from __future__ import annotations

from rules.sides import Side
from sekigahara_tui.hosting.catalog import Catalog
from sekigahara_tui.hosting.store import GameSummary


class Told:
    def __init__(self) -> None:
        self.changed: list[tuple] = []

    def entry_changed(self, entry) -> None:
        self.changed.append((entry.id, dict(entry.players), entry.status, entry.version, entry.to_move))

    def entry_removed(self, game_id: str) -> None:
        self.changed.append((game_id, "removed"))


def summary(players=("alice", None), status="playing", result=None, version=0) -> GameSummary:
    return GameSummary("g", players, status, result, 1.0, 1.0 + version, version)


def test_newer_is_taken_and_told_older_changes_nothing():
    catalog, told = Catalog([]), Told()
    catalog.follow(told)
    catalog.store_says(summary(), None)  # made elsewhere: a new entry
    assert catalog.get("g").open_side is Side.TOKUGAWA and len(told.changed) == 1
    catalog.store_says(summary(), None)  # the same again (this host's own change told back): nothing
    assert len(told.changed) == 1
    catalog.store_says(summary(("alice", "bob")), None)  # a seat taken elsewhere
    assert catalog.get("g").players[Side.TOKUGAWA] == "bob" and len(told.changed) == 2
    catalog.store_says(summary(), None)  # a read from before the seat was taken
    assert catalog.get("g").players[Side.TOKUGAWA] == "bob" and len(told.changed) == 2
    entry = catalog.get("g")
    entry.to_move = (Side.ISHIDA,)
    catalog.store_says(summary(("alice", "bob"), version=3), None)  # moved elsewhere
    assert (entry.version, entry.to_move, len(told.changed)) == (3, None, 3)
    catalog.store_says(summary(("alice", "bob"), "over", "alice resigned", 3), None)
    assert (entry.status, entry.result, entry.to_move, len(told.changed)) == ("over", "alice resigned", (), 4)
    catalog.store_says(summary(("alice", "bob"), version=3), None)  # a read from before the end
    assert entry.status == "over" and len(told.changed) == 4
