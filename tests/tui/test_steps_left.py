"""The steps left under the map say what the rules give for each kind of road
(issue 27 play-test, item 8). 7.3.3: +1 only for a move made entirely along a
highway, so a road step loses it. The engine counts it right; the line under
the map gave the highway figure alone, and at Kanazawa, where no highway
leaves, promised 2 steps to a stack that had 1: after one road step it read 0."""

from __future__ import annotations

from pathlib import Path

from rules.infra.record import save_record
from rules.surface import Step
from sekigahara_tui.local import LocalTable
from sekigahara_tui.widgets.location_info import movement_lines
from tui.positions import record_from_position

MAEDA = ("maeda-leader", "maeda-2-1", "maeda-2-2", "maeda-gun-1", "maeda-cav-1")


def seat_at(tmp_path: Path, name: str, *commands: str):
    save_record(record_from_position(name, *commands), tmp_path / "game.json")
    table = LocalTable.load(tmp_path / "game.json", autosave=tmp_path / "autosave.json")
    return next(seat for seat in table.seats.values() if seat.view.legal)


def test_7_3_3_at_kanazawa_no_highway_leaves_so_a_stack_of_5_with_leadership_has_1_step(tmp_path):
    """Tokugawa's five Maeda blocks at Kanazawa, his castle (leadership, 7.3.4):
    1 base +1 leadership -1 for 5 blocks (7.3.5) = 1; no highway leaves Kanazawa."""
    seat = seat_at(tmp_path, "tokugawa_moves_in_week_2", "tokugawa: movement minimal", "tokugawa: move kanazawa")
    assert movement_lines(seat.view)[0] == "Steps left: 2 for each block"  # a block alone: 1 +1
    for block in MAEDA:
        seat.submit(f"select {block}")
    assert movement_lines(seat.view)[0] == "Steps left: 1 for Maeda leader, Maeda 2-mon, Maeda 2-mon, Maeda gun, Maeda cavalry"
    seat.submit("step toyama")
    assert movement_lines(seat.view)[0] == "Steps left: 0 for Maeda leader, Maeda 2-mon, Maeda 2-mon, Maeda gun, Maeda cavalry"
    assert not any(isinstance(c, Step) for c in seat.view.legal)  # the engine agrees: no second step


def test_7_3_3_where_a_highway_leaves_both_figures_and_a_road_step_leaves_the_road_s(tmp_path):
    """Ukita 2-mon alone at Osaka, Ishida's castle: 1 +1 leadership, +1 while
    on highways only (the Osaka-Kyoto highway); by the road to Himeji, 2."""
    seat = seat_at(tmp_path, "ishida_moves_from_osaka", "ishida: movement full mori-plain-9 uesugi-swords-3",
                   "ishida: move osaka", "ishida: select ukita-2-1")
    assert movement_lines(seat.view)[0] == "Steps left: 3 (2 by road) for Ukita 2-mon"
    seat.submit("step himeji")
    assert movement_lines(seat.view)[0] == "Steps left: 1 for Ukita 2-mon"
    assert any(isinstance(c, Step) for c in seat.view.legal)
