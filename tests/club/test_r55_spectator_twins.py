"""R55 for spectators (issue 12): besides the events both sides see, the club
passes a spectator the count-only twins of private events (each twin says
so: rules/events.py, for_spectators, SPECTATOR_TWINS) and never the full ones. Every event class that one side
alone sees is decided; the twins name no block id and no card, by class and
over whole games; and with them a spectator's game-over screen plots each
side's VP and blocks on the map week by week, exactly the engine's figures."""

from __future__ import annotations

import asyncio
import re
import typing

import attrs
import pytest

from club_helpers import bot_plays
from rules.components import default_components
from rules.describe import describe, describe_neutral
from rules.events import BlocksMoved, BlocksPlaced, BlocksRetreated, CardsDrawn, CardSetAside, Event, OpponentEvent, PrivateEvent
from rules.infra.record import replay_steps
from rules.infra.selfplay import random_game
from rules.sides import BOTH_SIDES, Side
from rules.state import OFF_MAP
from rules.surface import EVENT_TYPES
from rules.victory import victory_points
from sekigahara_tui.app import SekigaharaApp
from rules.events import NOT_FOR_SPECTATORS, SPECTATOR_TWINS
from sekigahara_tui.hosting.spectators import public_events
from sekigahara_tui.screens.info import GameOverScreen, week_plots, weekly_figures
from sekigahara_tui.seat import game_stats
from test_spectators import ClubGameTruth
from tui.screen_text import screen_text
from tui.test_standing import plotted

ISHIDA, TOKUGAWA = Side.ISHIDA, Side.TOKUGAWA
PUBLIC = frozenset(BOTH_SIDES)
SEEDS = range(12)

C = default_components()
BLOCKS = frozenset(block.id for block in C.blocks)
CARDS = frozenset(card.id for card in C.cards)
PLACES = frozenset(C.location_ids) | OFF_MAP
PURPOSES = frozenset({"bid", "reinforcement"})  # OpponentDecided: what was chosen in secret, never which card

# Every field a twin may have, with the only type it may hold: a side, a count,
# a place, a purpose. A field holding anything else (a tuple of blocks, a card)
# would fail the class check below.
SAFE_FIELDS = {"side": Side, "count": int, "garrison": int, "place": str, "origin": str, "destination": str, "purpose": str,
               "source": str | None}  # where a stack move began: public (7.3, issue 25)
# The full event each twin is the redacted copy of (rules/events.py).
FULL_EVENT = {
    "OpponentDrewCards": CardsDrawn,
    "OpponentDecided": CardSetAside,
    "OpponentPlacedBlocks": BlocksPlaced,
    "OpponentMovedBlocks": BlocksMoved,
    "OpponentRetreated": BlocksRetreated,
}


def one_sided(cls: type) -> bool:
    return issubclass(cls, (PrivateEvent, OpponentEvent))


def test_r55_every_event_class_one_side_alone_sees_is_decided_for_spectators():
    """A new private event class fails here until it is put in one of the two lists."""
    assert all(cls.visible_to in (Event.visible_to, PrivateEvent.visible_to, OpponentEvent.visible_to) for cls in EVENT_TYPES)
    decided = SPECTATOR_TWINS | NOT_FOR_SPECTATORS
    assert not SPECTATOR_TWINS & NOT_FOR_SPECTATORS
    assert {cls for cls in EVENT_TYPES if one_sided(cls)} == decided
    assert {cls.__name__ for cls in SPECTATOR_TWINS} == set(FULL_EVENT)
    assert set(FULL_EVENT.values()) == NOT_FOR_SPECTATORS
    # a twin is what the owner's opponent sees, so its owner knows it too (from the full event)
    assert all(issubclass(cls, OpponentEvent) for cls in SPECTATOR_TWINS)
    assert not any(issubclass(cls, OpponentEvent) for cls in NOT_FOR_SPECTATORS)


def test_r55_by_class_the_twins_a_spectator_gets_hold_no_block_id_and_no_card():
    for cls in SPECTATOR_TWINS:
        hints = typing.get_type_hints(cls)
        fields = {field.name: hints[field.name] for field in attrs.fields(cls)}
        assert fields and all(SAFE_FIELDS.get(name) == kind for name, kind in fields.items()), (cls.__name__, fields)  # ==: a union is made anew
    # and each event kept from spectators names blocks or cards of a hand
    for cls in NOT_FOR_SPECTATORS:
        names = {field.name for field in attrs.fields(cls)}
        assert names & {"blocks", "cards", "card"}, cls.__name__


@pytest.mark.parametrize("seed", SEEDS)
def test_r55_over_a_whole_game_the_twins_a_spectator_gets_hold_no_block_id_and_no_card(seed):
    seen: set[str] = set()
    for _, _, events in replay_steps(random_game(seed, trusted=True).record):
        events = list(events)
        passed = public_events(events)
        assert [e for e in events if e.visible_to() == PUBLIC or type(e) in SPECTATOR_TWINS] == list(passed)
        for at, event in enumerate(events):
            if event.visible_to() == PUBLIC:
                continue
            assert len(event.visible_to()) == 1 and one_sided(type(event))
            if type(event) not in SPECTATOR_TWINS:
                assert type(event) in NOT_FOR_SPECTATORS and event not in passed
                continue
            name = type(event).__name__
            seen.add(name)
            values = attrs.asdict(event, recurse=False)
            assert all(isinstance(value, Side) or type(value) in (int, str) for value in values.values()), (name, values)
            texts = {value for value in values.values() if type(value) is str}
            assert not texts & (BLOCKS | CARDS), (name, values)
            assert texts <= PLACES | PURPOSES, (name, values)
            assert all(value >= 0 for value in values.values() if type(value) is int)
            # the twin follows the full event it redacts: its owner knows all it says
            full = events[at - 1]
            assert type(full) is FULL_EVENT[name] and full.side is event.side and event.visible_to() == {full.side.other}
            if hasattr(event, "count"):
                assert event.count == len(getattr(full, "blocks", None) or getattr(full, "cards", ()))
            for same in ("place", "origin", "destination", "purpose"):
                if hasattr(event, same):
                    assert getattr(event, same) == getattr(full, same)
    if seed == SEEDS[-1]:
        assert seen >= {"OpponentDrewCards", "OpponentDecided", "OpponentPlacedBlocks", "OpponentMovedBlocks"}


def test_r55_every_twin_class_occurs_in_the_games_checked():
    """So the whole-game check above is not vacuous for any allowed class."""
    found = {
        type(e).__name__ for seed in SEEDS for _, _, events in replay_steps(random_game(seed, trusted=True).record)
        for e in events if type(e) in SPECTATOR_TWINS
    }
    assert found == set(FULL_EVENT)


# --- the weekly plots ---------------------------------------------------------


def engine_figures(steps: list) -> tuple[int, dict, dict]:
    """The engine's VP (2.2) and blocks on the map at the end of each week: the
    state after the step that begins the next week, and the final state."""
    final = steps[-1][1]
    ends = [state for _, state, events in steps[1:] if any(type(e).__name__ == "WeekBegan" for e in events)] + [final]
    assert len(ends) == final.week
    vp = {side: [victory_points(state)[side] for state in ends] for side in BOTH_SIDES}
    blocks = {
        side: [sum(1 for b, p in zip(C.blocks, s.positions) if b.side is side and p not in OFF_MAP) for s in ends]
        for side in BOTH_SIDES
    }
    return final.week, vp, blocks


def check_plots(figures: dict, weeks: int, vp: dict, blocks: dict) -> str:
    for side in BOTH_SIDES:
        assert figures[f"vp:{side.value}"] == vp[side]
        assert figures[f"map:{side.value}"] == blocks[side]
    plots = week_plots(figures)
    assert plotted(plots, "VP at the end of the week (2.2):") == {"Ishida": vp[ISHIDA], "Tokugawa": vp[TOKUGAWA]}
    assert plotted(plots, "blocks on the map, end of week:") == {"Ishida": blocks[ISHIDA], "Tokugawa": blocks[TOKUGAWA]}
    return plots


def test_a_spectators_weekly_figures_from_seeded_games_are_the_engines():
    """The log the club gives a spectator (public_events of every step) gives
    the engine's own figures; so do the public events alone, without the twins:
    the standing is a public WeekEnded event (R55, sekigahara_tui.standing)."""
    for seed in SEEDS:
        steps = list(replay_steps(random_game(seed, trusted=True).record))
        weeks, vp, blocks = engine_figures(steps)
        log = [e for _, _, events in steps for e in public_events(list(events))]
        check_plots(weekly_figures(log, weeks), weeks, vp, blocks)
        public_only = [e for e in log if e.visible_to() == PUBLIC]
        check_plots(weekly_figures(public_only, weeks), weeks, vp, blocks)


async def test_a_spectator_of_a_club_game_gets_the_weekly_block_plots_on_the_game_over_screen(club, tmp_path):
    """Real sockets: two random bots play a club game to the end while carol
    watches; her log's weekly figures are the engine's, from the stored record,
    and her game-over screen shows them."""
    alice, bob, carol = (club.lobby_client(n) for n in ("alice", "bob", "carol"))
    made = await alice.new_game(ISHIDA, "open")
    joined = await bob.join(made.game)
    watch = await carol.watch(made.game)
    watcher = carol.watch_client(watch, stop_when_over=True)
    watching = asyncio.create_task(watcher.run())
    await watcher.wait_for(lambda c: c.view is not None, 10)
    await asyncio.gather(bot_plays(alice, made, 31), bot_plays(bob, joined, 32))
    await asyncio.wait_for(watching, 10)
    truth = ClubGameTruth(club.store, made.game)
    weeks, vp, blocks = engine_figures(truth.steps)
    view = watcher.view
    assert watcher.over and view.spectator and view.week == weeks
    plots = check_plots(weekly_figures(watcher.log, view.week), weeks, vp, blocks)

    app = SekigaharaApp(save_dir=tmp_path / "data")
    async with app.run_test(size=(160, 60)) as pilot:
        await app.push_screen(GameOverScreen(view, game_stats(watcher.log), watcher.log))
        await pilot.pause()
        text = screen_text(app)
        assert "VP at the end of the week (2.2):" in text and "blocks on the map, end of week:" in text
        for line in plots.splitlines()[-6:]:
            assert line.rstrip() in text
    for c in (alice, bob, carol):
        await c.close()


def test_a_spectators_log_lines_name_both_sides_and_never_say_you():
    """A spectator plays neither side: every line of its log (the public events
    and the twins, in describe_neutral's words, as the game screen writes them
    for a spectator) names a side, never "you"."""
    you = re.compile(r"\byou(r|rs)?\b", re.IGNORECASE)
    lines = 0
    for seed in SEEDS[:4]:
        for _, _, events in replay_steps(random_game(seed, trusted=True).record):
            for event in public_events(list(events)):
                text = describe_neutral(event)
                assert not you.search(text), (type(event).__name__, text)
                lines += 1
    assert lines > 1000
    # As a player's line, a twin of Ishida's own move does say "you" to Ishida.
    twin = next(e for _, _, events in replay_steps(random_game(0, trusted=True).record)
                for e in events if type(e).__name__ == "OpponentMovedBlocks" and e.side is ISHIDA)
    assert you.search(describe(twin, ISHIDA)) and not you.search(describe_neutral(twin))
