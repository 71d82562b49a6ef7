"""`sekigahara member vacation` (issue 24): a member's days away, within the
administrator's yearly cap, stored for the clocks; a refusal is one line
and stores nothing. The real command, in a process of its own."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import sekigahara_tui
from club_helpers import fake_key
from sekigahara_tui.hosting import members
from sekigahara_tui.hosting.clock_store import DAY, ClockStore


def member(*args: str) -> subprocess.CompletedProcess:
    env = os.environ | {"PYTHONPATH": str(Path(sekigahara_tui.__file__).parents[1])}  # the code under test
    return subprocess.run([sys.executable, "-m", "sekigahara_tui", "member", *args], capture_output=True, text=True, timeout=60, env=env)


def test_vacation_days_within_the_yearly_cap(tmp_path):
    data = members.prepare_data_dir(tmp_path / "club")
    members.add(data, "alice", fake_key())
    ok = member("vacation", "alice", "--days", "10", "--data", str(data))
    assert ok.returncode == 0 and ok.stdout.startswith("alice: on vacation until ")
    over = member("vacation", "alice", "--days", "5", "--data", str(data))
    assert over.returncode == 1 and over.stderr.strip() == "sekigahara member vacation: alice has 4 of 14 vacation days left this year, not 5"
    for args in (("vacation", "zed", "--days", "2"), ("vacation", "alice", "--days", "0")):
        refused = member(*args, "--data", str(data))
        assert refused.returncode == 1 and len(refused.stderr.strip().splitlines()) == 1
    more = member("vacation", "alice", "--days", "4", "--data", str(data))
    assert more.returncode == 0
    store = ClockStore(data / members.STORE_FILE)
    (first, second) = store.vacations("alice")
    store.close()
    assert first[1] - first[0] == 10 * DAY and second == (first[1], first[1] + 4 * DAY)  # the second follows the first
