"""Hints (issue 25, section 3): level 2's move and a one-line reason, worked
out from the seat's view and its own log only (R55). The no-cheat test of
test_bots.py, for the hint: a state and its hidden variant give the same
hint. (What crosses to the worker process: tests/tui/test_hint_key.py.)"""

from __future__ import annotations

import random

from rules.engine import apply_trusted, legal_commands, start_game
from rules.sides import BOTH_SIDES
from rules.view import view
from sekigahara_tui.bots.hints import hint_for
from sekigahara_tui.bots.planner import BIG

from bots.test_bots import hidden_variant, visible

PLAYOUTS = 2  # fixed: the hint must not depend on the machine's speed


def test_no_cheat_a_hint_is_the_same_whatever_the_opponent_hides():
    seed = 17
    chooser = random.Random(seed)
    state, events = start_game(seed)
    history = {side: visible(side, events) for side in BOTH_SIDES}
    compared, searched = 0, 0
    for decisions in range(900):
        if state.is_over:
            break
        side = sorted(state.decision.sides)[0]
        seen = view(state, side)
        # The planner's own search (its big decisions) is where a leak would show; every 9th other one too.
        if (seen.decision.kind in BIG and len(seen.legal) > 1 and compared < 10) or decisions % 9 == 0:
            variant = hidden_variant(state, side.other)
            if variant is not None and variant != state:
                assert view(variant, side) == seen  # the premise: the seat cannot tell them apart
                hints = [hint_for(side, seed, 2.0, shown, history[side], fixed_playouts=PLAYOUTS)
                         for shown in (seen, view(variant, side))]
                assert hints[0] == hints[1]
                assert hints[0].reason and "\n" not in hints[0].reason
                compared += 1
                searched += "playouts" in hints[0].reason
        command = chooser.choice(legal_commands(state, side))
        state, events = apply_trusted(state, command)
        for each in BOTH_SIDES:
            history[each] += visible(each, events)
    assert compared >= 15 and searched >= 5, (compared, searched)
