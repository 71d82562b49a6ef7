"""Shared fixtures; the missing-program rule; the daily share of the slow tests."""

from __future__ import annotations

import datetime
import os

import pytest

from helpers import fresh_game, needs_program
from pg_server import INITDB, WHAT as POSTGRESQL, PostgresServer
from rules.state import GameState


@pytest.fixture
def started() -> GameState:
    """A fresh game (seed 1) after setup, waiting for week 1's bid."""
    return fresh_game(1)


# --- the club's store: SQLite and a real PostgreSQL (issue 28) --------------------

# Each store test runs on both: PostgreSQL's skips where it is not installed,
# saying so, and fails under CI (needs_program, below).
STORES = [pytest.param("sqlite"), pytest.param("postgresql", marks=needs_program(INITDB, POSTGRESQL))]


@pytest.fixture(scope="session")
def postgres():
    """A PostgreSQL server of this test process (pg_server.py), started at its first use."""
    server = PostgresServer()
    yield server
    server.stop()


@pytest.fixture(params=STORES)
def store_location(request, tmp_path):
    """A new store's location: a SQLite file, or an empty PostgreSQL database's URL."""
    if request.param == "sqlite":
        return tmp_path / "club.sqlite"
    return request.getfixturevalue("postgres").new_database()


# --- programs the README's features rest on (helpers.needs_program) --------------


def under_ci() -> bool:
    """CI sets CI (GitHub, GitLab and .ci/run's callers do); CI=false or 0 does not count."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def missing_program(item: pytest.Item) -> str | None:
    """What `item` needs (a needs_program mark) and this machine lacks, or None."""
    for mark in item.iter_markers("needs_program"):
        path, what = mark.args
        if path is None or not os.path.exists(path):
            return what
    return None


def skip_for_missing_programs(items: list[pytest.Item]) -> None:
    """On a developer's machine a test whose program is missing is skipped,
    saying what to install (pytest -ra lists it, at the test's own line)."""
    if under_ci():
        return
    for item in items:
        if (what := missing_program(item)) is not None:
            item.add_marker(pytest.mark.skip(reason=f"{what} is missing (under CI this fails)"))


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Under CI it fails instead: a skip would leave a README feature untested
    behind a green run."""
    if under_ci() and (what := missing_program(item)) is not None:
        pytest.fail(f"{what} is missing, and under CI a missing dependency is a failure, not a skip", pytrace=False)


# --- the slow tests' daily share ----------------------------------------------------

# What each slow test costs, in seconds on one core of a busy 2-core machine
# (pytest -m slow -n 2 --durations=0), the long fuzz at .ci/run's 20 games (it
# took 662 s at 100); a test not listed counts DEFAULT_COST. Only the balance
# of the daily shares rests on these: every slow test is in exactly one share.
SLOW_COSTS = {
    "test_fuzz_long_run": 130.0,
    "test_every_level_plays_whole_games_from_both_sides_with_no_illegal_command[tokugawa-planner]": 76.0,
    "test_every_level_plays_whole_games_from_both_sides_with_no_illegal_command[ishida-planner]": 28.0,
    "test_kill_9_under_heavy_load_then_every_game_plays_to_its_end": 50.0,
    "test_the_host_killed_twice_mid_game_loses_no_acknowledged_command": 24.0,
    "test_heuristic_beats_random_from_each_side": 21.0,
    "test_sampled_states_give_exactly_the_view_at_every_decision_of_many_games": 2.0,  # each of 10 seeds
    "test_r55_the_belief_is_sound_over_many_games": 1.2,  # each of 24 games
}
DEFAULT_COST = 10.0
SLOW_DAYS = 3  # so each slow test runs every third day, about 2 minutes a day on 2 cores


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("sekigahara")
    group.addoption(
        "--slow-share", metavar="DATE", default=None,
        help="run only DATE's share of the slow tests (YYYY-MM-DD, or 'today' in UTC): the slow tests "
             "are split into --slow-days shares of about equal cost, and the day number picks one, "
             "so each slow test runs once every --slow-days days (use with -m slow)",
    )
    group.addoption("--slow-days", type=int, default=SLOW_DAYS, metavar="N", help=f"how many daily shares (default {SLOW_DAYS})")


def share_date(value: str) -> datetime.date:
    if value == "today":
        return datetime.datetime.now(datetime.timezone.utc).date()
    return datetime.date.fromisoformat(value)


def slow_cost(item: pytest.Item) -> float:
    name = getattr(item, "originalname", None) or item.name
    return SLOW_COSTS.get(item.name, SLOW_COSTS.get(name, DEFAULT_COST))


def slow_shares(items: list[pytest.Item], days: int) -> list[list[pytest.Item]]:
    """The slow tests in `days` shares: costliest first, each into the cheapest
    share so far (ties by node id), so the split is the same on every machine."""
    shares: list[list[pytest.Item]] = [[] for _ in range(days)]
    totals = [0.0] * days
    for item in sorted(items, key=lambda i: (-slow_cost(i), i.nodeid)):
        day = min(range(days), key=lambda d: (totals[d], d))
        shares[day].append(item)
        totals[day] += slow_cost(item)
    return shares


def pytest_report_header(config: pytest.Config) -> list[str]:
    lines = []
    value = config.getoption("--slow-share")
    if value is not None:
        date, days = share_date(value), config.getoption("--slow-days")
        lines.append(f"slow tests: the share of {date} (share {date.toordinal() % days + 1} of {days}); "
                     f"another day: --slow-share=YYYY-MM-DD")
    lines.append("CI: a missing program a test needs fails the run" if under_ci()
                 else "not CI: a missing program a test needs skips its tests")
    return lines


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    skip_for_missing_programs(items)
    value = config.getoption("--slow-share")
    if value is None:
        return
    days = config.getoption("--slow-days")
    slow = [item for item in items if item.get_closest_marker("slow")]
    today = set(slow_shares(slow, days)[share_date(value).toordinal() % days])
    dropped = [item for item in slow if item not in today]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for item in items if item not in dropped]
