"""The autosave is written by a thread, off the key's path (hosting/autosaver.py,
issue 27, item 11): a process killed in the middle of a write leaves the
previous autosave whole; the last command accepted is on disk when the game
ends, when the game screen goes, and when the app quits."""

from __future__ import annotations

import signal
import subprocess
import sys
import threading

import pytest
from attrs import evolve

from rules.infra.record import load_record
from rules.sides import Side
from sekigahara_tui.hosting import autosaver
from sekigahara_tui.hosting.host import GameHost
from tui.driving import take_seat, type_command
from tui.positions import finished_game, ishida_moves_from_osaka

# A game autosaving after every command; its N-th write after the first (argv[2])
# writes half of the text, then the process kills itself (SIGKILL: no cleanup).
# Every way of opening a file for writing in the autosave's folder is caught: a writer in place (open,
# Path.write_text) as well as save_record's temporary file (os.fdopen, which calls io.open).
KILLED_MID_WRITE = """
import builtins, io, os, signal, sys
from pathlib import Path
from sekigahara_tui.hosting.host import GameHost

host = GameHost.new(5, autosave=Path(sys.argv[1]))
kill_at, writes = int(sys.argv[2]), [0]

class Dying:
    def __init__(self, file):
        self.file = file
    def write(self, text):
        self.file.write(text[: len(text) // 2])
        self.file.flush()
        os.kill(os.getpid(), signal.SIGKILL)
    def __getattr__(self, name):
        return getattr(self.file, name)
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        return self.file.__exit__(*exc)

def dying(opener):
    def opened(file, mode="r", *args, **kwargs):
        handle = opener(file, mode, *args, **kwargs)
        name = os.readlink(f"/proc/self/fd/{file}") if isinstance(file, int) else os.path.abspath(file)
        if "w" in mode and os.path.dirname(name) == os.path.dirname(os.path.abspath(sys.argv[1])):
            writes[0] += 1
            if writes[0] == kill_at:
                return Dying(handle)
        return handle
    return opened

builtins.open = io.open = dying(io.open)  # os.fdopen opens through io.open
for _ in range(kill_at + 3):
    side = host.side_to_act()
    host.submit(host.view(side).legal[0])
    host.flush_autosave()  # one write a command, in order: the N-th write is the N-th command's
print("never killed")
"""


def played(commands: int):
    """The record after the first `commands` of the script's game."""
    host = GameHost.new(5)
    for _ in range(commands):
        side = host.side_to_act()
        host.submit(host.view(side).legal[0])
    return host.record


@pytest.mark.parametrize("kill_at", [1, 4, 9])
def test_a_process_killed_in_the_middle_of_an_autosave_leaves_the_previous_one_whole(tmp_path, kill_at):
    path = tmp_path / "autosave.json"
    child = subprocess.run([sys.executable, "-c", KILLED_MID_WRITE, str(path), str(kill_at)],
                           capture_output=True, text=True, timeout=120)
    assert child.returncode == -signal.SIGKILL, child.stdout + child.stderr
    # The kill came while the kill_at-th command was written: the one before it is saved, whole.
    assert load_record(path) == played(kill_at - 1)


@pytest.fixture
def held_until_flushed(monkeypatch):
    """The writer thread writes only once someone waits for it (Autosaver.flush):
    a write nobody waits for is not on disk when the test looks, however fast
    the disk."""
    gate = threading.Event()
    write, flush = autosaver.save_record, autosaver.Autosaver.flush

    def held(record, path):
        gate.wait()
        write(record, path)

    def flushing(self):
        gate.set()
        flush(self)

    def hold():
        monkeypatch.setattr(autosaver, "save_record", held)
        monkeypatch.setattr(autosaver.Autosaver, "flush", flushing)

    yield hold
    gate.set()  # nothing left held (the process's exit flushes every autosaver)


def test_the_command_that_ends_the_game_is_on_disk_when_it_returns(tmp_path, held_until_flushed):
    whole = finished_game()
    path = tmp_path / "autosave.json"
    host = GameHost.from_record(evolve(whole, commands=whole.commands[:-1]), autosave=path)
    held_until_flushed()
    assert not host.is_over
    side, text = whole.commands[-1].split(": ", 1)
    host.submit_text(text, Side(side))
    assert host.is_over
    assert load_record(path) == whole  # no flush asked for: the end flushes
    host.close()


async def test_the_last_command_is_in_the_autosave_when_the_app_quits(make_app, held_until_flushed):
    app = make_app(record=ishida_moves_from_osaka())
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        held_until_flushed()  # the game's first autosave is written
        await type_command(pilot, "move osaka")
        assert screen.table.host.record.commands[-1] == "ishida: move osaka"
        assert load_record(app.autosave_path).commands[-1] != "ishida: move osaka"  # handed, held
        await pilot.press("ctrl+q")
    assert load_record(app.autosave_path).commands[-1] == "ishida: move osaka"
