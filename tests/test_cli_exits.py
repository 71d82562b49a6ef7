"""The command line's exits: bad arguments and files are refused in one line
before Textual starts; an unexpected error leaves a crash log (issue 10)."""

from __future__ import annotations

import stat

import pytest

from rules.notation import parse_command
from rules.infra.record import load_record, new_record, position_record, save_record
from sekigahara_tui.app import SekigaharaApp
from sekigahara_tui.cli import main
from sekigahara_tui.hosting.host import GameHost
from helpers import position_text

POSITION = position_text("week2_reinforcement")


@pytest.fixture
def started(monkeypatch) -> list[SekigaharaApp]:
    """Apps the command line would run (run does nothing here)."""
    apps: list[SekigaharaApp] = []
    monkeypatch.setattr(SekigaharaApp, "run", lambda self: apps.append(self))
    return apps


def one_line(capsys) -> str:
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].isprintable() and len(lines[0]) <= 300
    return lines[0]


def test_save_dir_naming_a_file_is_refused(capsys, tmp_path, started):
    (tmp_path / "file").write_text("x")
    assert main(["--save-dir", str(tmp_path / "file")]) == 2
    assert one_line(capsys).endswith("file is not a directory")
    assert started == []


def test_selfplay_record_naming_a_file_is_refused(capsys, tmp_path):
    (tmp_path / "file").write_text("x")
    assert main(["selfplay", "--record", str(tmp_path / "file")]) == 2
    assert "--record:" in one_line(capsys)
    assert (tmp_path / "file").read_text() == "x"


def test_a_bad_save_is_refused_before_the_app_starts(capsys, tmp_path, started):
    bad = tmp_path / "bad.json"
    save_record(new_record(1).with_command(parse_command("ishida: end")), bad)
    assert main(["--load", str(bad), "--save-dir", str(tmp_path / "data")]) == 2
    assert "command 1 ('ishida: end') is illegal" in one_line(capsys)
    assert started == [] and not (tmp_path / "data").exists()


def test_a_huge_seed_is_refused(capsys, started):
    assert main(["--seed", "9" * 40]) == 2
    assert "--seed: the seed must be between" in one_line(capsys)


def test_load_position_and_seed_exclude_each_other(capsys, tmp_path):
    with pytest.raises(SystemExit) as exited:
        main(["--seed", "1", "--position", str(tmp_path / "p.toml")])
    assert exited.value.code == 2


def test_a_position_file_starts_the_app_with_it(tmp_path, started):
    path = tmp_path / "week2.toml"
    path.write_text(POSITION)
    assert main(["--position", str(path), "--save-dir", str(tmp_path / "data")]) == 0
    (app,) = started
    assert app._position == path and app.save_dir == tmp_path / "data"


@pytest.mark.parametrize("text, message", [
    ("[game\n", "not valid TOML"),
    ("[game]\nweek = 9\nphase = \"bid\"\n", "week 9"),
    ("\x1b[2J", "not valid TOML"),
])
def test_a_bad_position_file_is_refused_before_the_app_starts(capsys, tmp_path, started, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    assert main(["--position", str(path), "--save-dir", str(tmp_path / "data")]) == 2
    assert message in one_line(capsys)
    assert started == [] and not (tmp_path / "data").exists()


def test_a_missing_or_non_utf8_position_file_is_refused(capsys, tmp_path, started):
    assert main(["--position", str(tmp_path / "nope.toml")]) == 2
    assert "cannot read" in one_line(capsys)
    (tmp_path / "latin.toml").write_bytes(b"[game]\nweek = 2 # caf\xe9\n")
    assert main(["--position", str(tmp_path / "latin.toml")]) == 2
    assert "not UTF-8 text (byte 0xe9" in one_line(capsys)


def test_an_unexpected_error_in_the_app_exits_1_pointing_to_the_crash_log(capsys, tmp_path, monkeypatch):
    run = SekigaharaApp.run

    def crash_on_mount(self) -> None:
        raise RuntimeError("\x1b[2Jsomething broke")

    monkeypatch.setattr(SekigaharaApp, "on_mount", crash_on_mount)
    monkeypatch.setattr(SekigaharaApp, "run", lambda self: run(self, headless=True))
    assert main(["--save-dir", str(tmp_path)]) == 1
    line = one_line(capsys)
    assert "RuntimeError" in line and "\\x1b[2Jsomething broke" in line
    assert line.endswith(f"the details are in {tmp_path / 'crash.log'}")
    log = (tmp_path / "crash.log").read_text()
    assert "Traceback" in log and "crash_on_mount" in log


def test_an_unexpected_error_in_replay_exits_1_pointing_to_the_crash_log(capsys, tmp_path, monkeypatch):
    def broken(record):
        raise KeyError("bug")

    monkeypatch.setattr("sekigahara_tui.cli.replay", broken)
    save_record(new_record(1), tmp_path / "game.json")
    assert main(["--save-dir", str(tmp_path), "replay", str(tmp_path / "game.json")]) == 1
    assert "KeyError" in one_line(capsys)
    assert "Traceback" in (tmp_path / "crash.log").read_text()


def test_the_autosave_is_private_and_a_failed_one_keeps_the_game(tmp_path):
    autosave = tmp_path / "data" / "autosave.json"
    host = GameHost.new(1, autosave=autosave)
    assert stat.S_IMODE(autosave.stat().st_mode) == 0o600
    autosave.unlink()
    autosave.parent.rmdir()
    autosave.parent.write_text("in the way")
    host.submit(host.view(host.side_to_act()).legal[0])
    host.flush_autosave()  # written by a thread (hosting/autosaver.py): its outcome once written
    assert host.autosave_error is not None and "autosave.json failed" in host.autosave_error
    assert len(host.record.commands) == 1
    autosave.parent.unlink()
    host.submit(host.view(host.side_to_act()).legal[0])
    host.flush_autosave()
    assert host.autosave_error is None and load_record(autosave) == host.record


def test_undo_keeps_the_position(tmp_path):
    host = GameHost.from_record(position_record(POSITION), autosave=tmp_path / "autosave.json")
    side = host.side_to_act()
    host.submit(host.view(side).legal[0])
    host.undo(side)
    assert host.record == position_record(POSITION)
    assert load_record(tmp_path / "autosave.json").position == POSITION
