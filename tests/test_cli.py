"""The `sekigahara` command line: replay and selfplay."""

import json

from rules.infra.record import new_record, record_to_json, save_record
from helpers import peaceful_game
from sekigahara_tui.cli import main


def test_selfplay_prints_a_line_per_game_and_a_total(capsys, tmp_path):
    assert main(["selfplay", "--games", "3", "--seed", "1", "--record", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines[:3]] == ["seed 1", "seed 2", "seed 3"]
    assert all("decisions" in line and " ms" in line and ("winner" in line or "stopped in week" in line) for line in lines[:3])
    assert lines[3].startswith("total: 3 games, ishida ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game-1.json", "game-2.json", "game-3.json"]


def test_replay_summarises_the_final_position(capsys, tmp_path):
    game = peaceful_game(5)
    save_record(game.record, tmp_path / "g.json")
    assert main(["replay", str(tmp_path / "g.json")]) == 0
    out = capsys.readouterr().out
    vp = game.state.result.vp
    assert "week 7, turn B, phase over" in out
    assert f"VP: ishida {vp.ishida}, tokugawa {vp.tokugawa}" in out
    assert f"winner: {game.state.result.winner.value}" in out


def test_replay_of_a_bad_record_fails_naming_the_first_illegal_command(capsys, tmp_path):
    record = json.loads(record_to_json(peaceful_game(6).record))
    record["commands"][2] = "tokugawa: first ishida"
    (tmp_path / "bad.json").write_text(json.dumps(record))
    assert main(["replay", str(tmp_path / "bad.json")]) == 1
    assert "command 3 ('tokugawa: first ishida') is illegal" in capsys.readouterr().err


def test_replay_of_a_missing_file_fails_cleanly(capsys, tmp_path):
    assert main(["replay", str(tmp_path / "nope.json")]) == 1
    assert "cannot read" in capsys.readouterr().err


def test_no_subcommand_runs_the_app_with_the_given_save_and_seed(monkeypatch, tmp_path):
    from sekigahara_tui.app import SekigaharaApp

    started = []
    monkeypatch.setattr(SekigaharaApp, "run", lambda self: started.append((self.save_dir, self._load, self._seed)))
    save = tmp_path / "game.json"
    save_record(new_record(1), save)
    assert main(["--load", str(save), "--save-dir", str(tmp_path)]) == 0
    assert main(["--seed", "9", "--save-dir", str(tmp_path)]) == 0
    assert started == [(tmp_path, save, None), (tmp_path, None, 9)]


def test_load_of_a_missing_save_fails_before_the_app_starts(capsys, tmp_path):
    assert main(["--load", str(tmp_path / "nope.json")]) == 2
    assert "no such save file" in capsys.readouterr().err
