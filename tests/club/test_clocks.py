"""Game clocks (issue 24): the pure clock, with the time passed in. Figures
worked out by hand in each test."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from rules.sides import Side
from sekigahara_tui.hosting.clocks import (HOUR, MINUTE, PRESETS, Clocks, charged, duration, preset_named)

I, T = Side.ISHIDA, Side.TOKUGAWA
LIVE = PRESETS["live"]  # 45 min + 30 s, at most 60 min
DAILY = PRESETS["daily"]  # 24 h + 4 h, at most 72 h


def test_presets_are_rally_the_troops_and_a_live_one():
    assert [(p.name, p.initial_s / HOUR, p.increment_s / HOUR, p.cap_s / HOUR) for p in PRESETS.values()] == [
        ("live", 0.75, 30 / HOUR, 1.0), ("daily", 24, 4, 72), ("fast", 72, 12, 120), ("slow", 72, 36, 240)]
    assert not LIVE.correspondence and all(PRESETS[n].correspondence for n in ("daily", "fast", "slow"))
    assert preset_named("none") is None
    with pytest.raises(ValueError, match=r"^unknown clock 'blitz': expected one of none, live, daily, fast, slow$"):
        preset_named("blitz")


def test_only_the_deciding_side_runs():
    clocks = Clocks.start(LIVE, now=1000.0).decision({I}, now=1000.0)
    assert clocks.left(I, 1100.0) == 45 * MINUTE - 100
    assert clocks.left(T, 1100.0) == 45 * MINUTE


def test_both_run_while_both_decide_and_the_first_decision_gains_nothing():
    clocks = Clocks.start(LIVE, now=0.0).decision({I, T}, now=0.0)  # the bids (6.3)
    assert (clocks.left(I, 60.0), clocks.left(T, 60.0)) == (45 * MINUTE - 60, 45 * MINUTE - 60)


def test_a_hand_over_gives_the_increment_and_a_side_s_own_steps_do_not():
    clocks = Clocks.start(LIVE, now=0.0).decision({I}, now=0.0)
    clocks = clocks.decision({I}, now=10.0)  # a step of Ishida's own stack move
    clocks = clocks.decision({I}, now=20.0)
    assert clocks.left(I, 20.0) == 45 * MINUTE - 20
    clocks = clocks.decision({T}, now=20.0)  # handed over: Tokugawa gains 30 s
    assert clocks.left(T, 20.0) == 45 * MINUTE + 30
    assert clocks.left(I, 500.0) == 45 * MINUTE - 20  # stopped
    clocks = clocks.decision({I, T}, now=50.0)  # to both: Ishida gains, Tokugawa had it
    assert clocks.left(I, 50.0) == 45 * MINUTE - 20 + 30
    assert clocks.left(T, 50.0) == 45 * MINUTE + 30 - 30


def test_the_increment_stops_at_the_cap():
    clocks = Clocks.start(DAILY, now=0.0).decision({I}, now=0.0)
    for minute in range(1, 41):  # a quick game, a hand-over a minute: each adds 4 h, up to 72 h
        clocks = clocks.decision({T} if minute % 2 else {I}, now=minute * 60.0)
    # Ishida has gained 20 times (80 h more than his 24 h, less 20 minutes used): capped at 72 h
    # at his last hand-over; Tokugawa likewise at his, then used his minute.
    assert clocks.left(I, 40 * 60.0) == 72 * HOUR
    assert clocks.left(T, 40 * 60.0) == 72 * HOUR - 60


def test_out_of_time_is_the_running_side_with_no_time_left():
    clocks = Clocks.start(LIVE, now=0.0).decision({T}, now=0.0)
    assert clocks.out_of_time(45 * MINUTE - 1) is None
    assert clocks.out_of_time(45 * MINUTE) is T
    assert clocks.runs_out_at(T) == 45 * MINUTE and clocks.runs_out_at(I) is None


def test_down_time_and_vacation_are_not_charged():
    clocks = Clocks.start(DAILY, now=0.0).decision({I}, now=0.0)
    down = [(2 * HOUR, 5 * HOUR)]  # the server was down 3 h
    vacation = [(10 * HOUR, 34 * HOUR)]  # a day away
    excluded = {I: down + vacation}
    assert clocks.left(I, 40 * HOUR, excluded) == 24 * HOUR - (40 - 3 - 24) * HOUR
    # Charging in two parts gives the same as in one.
    assert clocks.at(20 * HOUR, excluded).left(I, 40 * HOUR, excluded) == clocks.left(I, 40 * HOUR, excluded)


def test_charged_time_ignores_overlaps_between_exclusions():
    assert charged(0, 100, [(10, 30), (20, 40), (90, 200)]) == 100 - 30 - 10
    assert charged(50, 40, []) == 0.0


@given(st.lists(st.tuples(st.floats(0, 1000), st.floats(0, 200)), max_size=6),
       st.floats(0, 1000), st.floats(0, 1000), st.floats(0, 1000))
def test_charging_in_two_parts_equals_charging_once(gaps, a, b, c):
    start, middle, end = sorted((a, b, c))
    excluded = [(x, x + w) for x, w in gaps]
    assert charged(start, middle, excluded) + charged(middle, end, excluded) == pytest.approx(charged(start, end, excluded))


def test_durations_read_in_two_units():
    assert [duration(s) for s in (0, 40, 12 * 60 + 5, 5 * HOUR + 30 * 60 + 7, 2 * 86400 + 4 * HOUR + 59, -3)] == [
        "0s", "40s", "12m 5s", "5h 30m", "2d 4h", "0s"]
