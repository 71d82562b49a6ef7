"""Sizes of objects in memory, for the memory tests (issue 23, item 11)."""

from __future__ import annotations

import gc
import sys

from rules.sides import Side


def deep_size(objects, seen: set[int]) -> int:
    """Bytes of the objects and all they hold (classes, enum members shared by all games left out)."""
    total, stack = 0, list(objects)
    while stack:
        item = stack.pop()
        if id(item) in seen or isinstance(item, (type, Side)):
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        stack.extend(gc.get_referents(item))
    return total


def empty_bounded_caches() -> None:
    """Empty the caches of a bounded size, which are not any game's memory: the
    place indexes (rules/places.py), the notation of commands sent
    (net/state_encoding.py), what the chairs share (rules/view.py) and the
    texts of the state last encoded (hosting/chairs.py, SHARED_TEXTS, one
    state's), the musters by Recruitment Box contents and by a daimyo's blocks
    there (rules/muster.py, 4,096 entries each), the movement choices by
    hand (rules/movement.py, 4,096 entries), a box's blocks by daimyo
    (1,024), the engine's last legal list (rules/engine.py, one entry), each
    side's last stack-move sources (rules/stack_sources.py, two entries), and the commands and progress made once and
    shared (issue 25: rules/command_tables.py, and the tables of stack_moves, stack_sources,
    movement, mori_box, muster and state, bounded by the components' numbers,
    filled as the games first ask them)."""
    import rules.command_tables
    import rules.engine
    import rules.mori_box
    import rules.movement
    import rules.muster
    import rules.places
    import rules.stack_moves
    import rules.stack_sources
    import rules.state
    import rules.view
    import sekigahara_tui.hosting.chairs as chairs
    import sekigahara_tui.net.state_encoding as state_encoding

    rules.places._INDEXES.clear()
    state_encoding._NOTATION.clear()
    state_encoding._JSON_OF.clear()
    state_encoding._TEXT_OF.clear()
    rules.view._SHARED.clear()
    rules.muster._same_kind_choices.cache_clear()
    rules.muster._musters_at.cache_clear()
    rules.muster._daimyo_musters.cache_clear()
    rules.muster._by_daimyo.cache_clear()
    rules.stack_sources._KNOWN.clear()
    rules.movement._choices.cache_clear()
    rules.engine._last = (None, None, ())
    for made_once in (
        rules.command_tables.begin_moves, rules.command_tables.stack_commands, rules.stack_moves._starts,
        rules.stack_sources._begin_options,
        rules.stack_moves._roads, rules.movement._choice, rules.mori_box._entries, rules.mori_box._entrants,
        rules.muster._one_block_musters, rules.state.deciding,
        rules.muster._recruiting, rules.muster._sites, rules.movement._choice_tables,
    ):
        made_once.cache_clear()
    chairs.SHARED_TEXTS.of(None)
