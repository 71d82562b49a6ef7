"""A map label is redrawn only when its key changes (widgets/map_rows.py, issue 27
item 11), so the key must hold everything a label is drawn from: over the views
of a random game, wherever two drawings of a label differ, so do its keys."""

from __future__ import annotations

import pytest
from rich.style import Style

from rules.infra.selfplay import DeadEnd, random_game
from rules.surface import BOTH_SIDES
from rules.view import view
from sekigahara_tui.map_layout import LABEL_WIDTH, load_layout
from sekigahara_tui.widgets.map_rows import MapFacts, RowDrawer

# Each role its own style, so that a label drawn legal, at the cursor or in a side's colour differs.
STYLES = {name: Style(color=f"color({i + 1})") for i, name in
          enumerate(("road", "highway", "label", "legal", "cursor", "ishida", "tokugawa"))} | {"": Style()}


def sampled_views(seed: int, steps: int = 400, every: int = 7):
    states = []
    try:
        random_game(seed, on_step=lambda before, command, after, events: states.append(after), max_decisions=steps)
    except DeadEnd:  # stopped at `steps` decisions: enough views
        pass
    return [view(state, side) for state in states[::every] for side in BOTH_SIDES]


@pytest.mark.parametrize("mode", ["short", "full"])
def test_a_labels_key_changes_whenever_its_drawing_does(mode):
    layout = load_layout()
    locations = [p.location for p in layout.placements]
    drawn: dict[tuple, str] = {}  # (side, location, key) -> the label's drawing
    for player_view in sampled_views(seed=3):
        facts = MapFacts(player_view)
        drawer = RowDrawer(facts, STYLES, mode, 0, 10_000, LABEL_WIDTH[mode], layout)
        for cursor in ("kyoto", "osaka"):
            for location in locations:
                key = (facts.side, location, facts.label_key(location, cursor))
                markup = drawer.row([("@label", location)], cursor).markup
                assert drawn.setdefault(key, markup) == markup, (location, key)
    assert len(drawn) > 5 * len(locations)  # many different labels were drawn, not one each
