"""Type-ahead on the map at 80x24 (issue 27, a newcomer's play-test): after any
jump the cursor's label is in view, even when the lines under the map take
another row for the place jumped to; and a letter that goes on from no match
begins a new search ("e" then "g" is Gifu, not "eg", which names nothing).

Ishida has moved his stack from Gifu to Iwamura (tests/tui/position_files/
ishida_moves_from_osaka.toml); his Movement Phase goes on."""

from __future__ import annotations

import pytest
from rules.surface import default_components
from sekigahara_tui.widgets.map_panel import MapPanel
from tui.driving import take_seat
from tui.positions import record_from_position
from tui.screen_text import screen_text

MOVED = ("ishida: movement full mori-plain-9 uesugi-swords-3", "ishida: move gifu", "ishida: select mori-2-2",
         "ishida: select ukita-gun-2", "ishida: step iwamura", "ishida: done")


@pytest.fixture
def app(make_app):
    return make_app(record_from_position("ishida_moves_from_osaka", *MOVED))


def shown_on_screen(app, panel: MapPanel, location: str) -> bool:
    """The label's cells on the screen (not only in the panel's scroll range) show its short name."""
    short = next(p.short for p in panel.layout_data.placements if p.location == location)
    label = panel.label_region(location)
    view = panel.scrollable_content_region
    on_screen = label.translate(view.offset - panel.scroll_offset)
    if not view.contains_region(on_screen):
        return False
    row = screen_text(app).split("\n")[on_screen.y]
    return row[on_screen.x:on_screen.right].startswith(short)


async def test_after_every_jump_the_cursor_s_label_is_in_view_and_the_line_under_the_map_names_it(app):
    c = default_components()
    names = {loc: c.location(loc).name for loc in c.location_ids}
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        panel = screen.query_one(MapPanel)
        panel.focus()
        await pilot.press("g", "escape", "e")  # the play-test's keys
        await pilot.pause()
        assert panel.cursor == "edo" and shown_on_screen(app, panel, "edo")
        for letter in "aeghikmnostuwy":  # every letter some place begins with; Hakone's lines take a row more
            await pilot.press("escape", letter)
            await pilot.pause()
            assert names[panel.cursor].lower().startswith(letter)
            assert shown_on_screen(app, panel, panel.cursor), (letter, panel.cursor)
            under = screen_text(app).split("\n")[screen.query_one("#map-info").region.y:][:5]
            assert any(names[panel.cursor] in row for row in under), (panel.cursor, under)


async def test_a_letter_that_goes_on_from_no_match_begins_a_new_search(app):
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        panel = screen.query_one(MapPanel)
        panel.focus()
        await pilot.press("e")
        assert (panel.cursor, panel.border_subtitle) == ("edo", "jump: e")
        await pilot.press("g")  # "eg" names nothing: "g" alone
        assert (panel.cursor, panel.border_subtitle) == ("gifu", "jump: g")
        await pilot.press("i")  # "gi" goes on
        assert (panel.cursor, panel.border_subtitle) == ("gifu", "jump: gi")
        await pilot.press("x")  # neither "gix" nor "x": said, and the cursor stays
        assert (panel.cursor, panel.border_subtitle) == ("gifu", "jump: no place begins with 'x'")
        await pilot.press("o")  # a new search
        assert (panel.cursor, panel.border_subtitle) == ("okazaki", "jump: o")
        await pilot.press("backspace")  # nothing left to jump to: the cursor stays
        assert (panel.cursor, panel.border_subtitle) == ("okazaki", "jump: ")
        await pilot.pause()
        assert "jump: no place begins with 'x'" not in screen_text(app)
