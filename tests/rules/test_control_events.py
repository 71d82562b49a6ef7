"""Control is public (4.3, R55): every change of a castle's or resource's
controller is told by a ControlChanged event in the step that makes it, so a
log (a player's, a spectator's) can follow the VP without the state."""

from __future__ import annotations

import pytest

from rules.events import ControlChanged
from rules.infra.selfplay import random_game


@pytest.mark.parametrize("seed", range(1, 21))
def test_4_3_every_change_of_control_is_told_by_an_event(seed):
    changed_steps = 0

    def on_step(before, command, after, events) -> None:
        nonlocal changed_steps
        was = dict(before.castle_control) | dict(before.resource_control)
        now = dict(after.castle_control) | dict(after.resource_control)
        changed = {place: side for place, side in now.items() if was.get(place) is not side}
        told = {e.location: e.side for e in events if isinstance(e, ControlChanged)}
        assert changed == {place: side for place, side in told.items() if place in changed}, (command, changed, told)
        assert set(changed) == set(told), (command, changed, told)
        changed_steps += bool(changed)

    random_game(seed, on_step=on_step, trusted=True)
    assert changed_steps > 0
