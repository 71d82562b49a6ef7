"""R58 in a host of many games: the network host keeps only the steps undo
may go back to (GameHost(keep_states=False)) and the events of the others,
packed (hosting/past_events.py), and plays exactly as a host that keeps them
all, undos and logs included."""

from __future__ import annotations

import random

import pytest

from rules.engine import legal_commands
from rules.sides import BOTH_SIDES
from sekigahara_tui.hosting.host import GameHost


def play_side_by_side(seed: int) -> tuple[GameHost, GameHost, int]:
    """A whole random game on a full host and a lean one, with undos wherever
    R58 allows one (a third of the time): returns both hosts and the undos made."""
    full, lean = GameHost.new(seed), GameHost.new(seed)
    lean = GameHost.from_record(lean.record, keep_states=False)
    chooser = random.Random(seed)
    undos = 0
    while not full.is_over:
        side = next(s for s in BOTH_SIDES if legal_commands(full.state, s))
        assert full.why_no_undo(side) == lean.why_no_undo(side)
        if full.why_no_undo(side) is None and chooser.random() < 1 / 3:
            assert full.undo(side) == lean.undo(side)
            undos += 1
        else:
            command = chooser.choice(legal_commands(full.state, side))
            full.accept(full.propose_listed(command))
            lean.accept(lean.propose_listed(command))
        assert lean.state == full.state
        assert lean._steps == full._steps[last_final(full) :]
        assert lean.step_count == full.step_count
    return full, lean, undos


@pytest.mark.parametrize("seed", [3, 8])
def test_R58_a_lean_host_plays_and_undoes_exactly_as_a_full_host(seed):
    full, lean, undos = play_side_by_side(seed)
    assert undos > 0
    assert lean.record == full.record
    for viewer in (*BOTH_SIDES, None):
        for since in (0, 1, 63, 64, 65, 130, lean.step_count - 1, lean.step_count):
            assert lean.step_events(viewer, since) == full.step_events(viewer, since)
        assert lean.events_for(viewer) == full.events_for(viewer)
    # Only the last final step (the game is over: the last step) is held.
    assert len(lean._steps) == 1


def test_R58_a_lean_host_loaded_mid_game_holds_the_states_since_the_last_final_step():
    host = GameHost.new(5)
    chooser = random.Random(5)
    while host.step_count < 120:
        side = next(s for s in BOTH_SIDES if legal_commands(host.state, s))
        host.accept(host.propose_listed(chooser.choice(legal_commands(host.state, side))))
    lean = GameHost.from_record(host.record, keep_states=False)
    assert lean._steps == host._steps[last_final(host) :]
    assert lean.step_events(None) == host.step_events(None)
    assert lean.state == host.state


def last_final(host: GameHost) -> int:
    """The last step R58 forbids undoing (a full host's)."""
    return max(n for n, step in enumerate(host._steps) if step.final is not None)


def test_issue_23_a_lean_host_grows_by_little_more_than_its_record_per_command():
    """Issue 23, item 11: a lean host's memory grows, per command, by its
    record (the game record's commands, ~75 bytes each here), the packed events
    of its steps (past_events.py, ~20 bytes a step), and the steps since the
    last final one (R58), which do not grow with the game but differ between
    steps 150 and 400 of this game. Bound: 3 times the record's size per
    command; measured 193 bytes (2.6 times), and 542 bytes (7.4 times) when
    every old step kept its Step, events and reason as objects. One fixed
    game in one process, the bounded caches emptied: the same figure each run."""
    import gc
    import tracemalloc

    from memory_sizes import deep_size, empty_bounded_caches

    host = GameHost.from_record(GameHost.new(5).record, keep_states=False)
    chooser = random.Random(5)
    sizes: dict[int, int] = {}
    while host.step_count <= 400:
        if host.step_count in (150, 400):
            empty_bounded_caches()  # bounded caches, not the games' memory
            gc.collect()
            if host.step_count == 150:
                tracemalloc.start()
            sizes[host.step_count] = tracemalloc.get_traced_memory()[0]
        side = next(s for s in BOTH_SIDES if legal_commands(host.state, s))
        host.accept(host.propose_listed(chooser.choice(legal_commands(host.state, side))))
    tracemalloc.stop()
    grown = (sizes[400] - sizes[150]) / 250
    record = deep_size(host.record.commands, set()) / len(host.record.commands)
    print(f"grown {grown:.0f} B/command, record {record:.0f} B/command")
    assert grown <= 3 * record
