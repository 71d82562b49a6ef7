"""Analysis of a finished game (issue 25, section 3): `sekigahara analyse
RECORD` refuses a game in progress in one line, and gives the same analysis
for the same record and seed, in separate processes whatever their hash seed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import attrs

import sekigahara_tui
from rules.infra.record import save_record
from sekigahara_tui.analysis import AnalysisRefused, analyse
from sekigahara_tui.cli import main
from tui.positions import finished_game

SRC = Path(sekigahara_tui.__file__).parents[1]  # the worktree's src, for the processes


def test_a_game_in_progress_is_refused_in_one_line_and_nothing_is_printed(capsys, tmp_path):
    game = finished_game()
    in_progress = attrs.evolve(game, commands=game.commands[:-1])  # one step before Tokugawa's overrun (7.4)
    save_record(in_progress, tmp_path / "playing.json")
    assert main(["analyse", str(tmp_path / "playing.json"), "--budget", "1"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == ["sekigahara analyse: the game is still in progress: only a finished game is "
                                         "analysed (the analysis sees every hidden block and card)"]
    try:
        analyse(in_progress, 1)
    except AnalysisRefused:
        pass
    else:
        raise AssertionError("a game in progress was analysed")


def run_analyse(path: Path, hash_seed: str, *options: str) -> str:
    env = dict(os.environ, PYTHONPATH=str(SRC), PYTHONHASHSEED=hash_seed)
    done = subprocess.run([sys.executable, "-m", "sekigahara_tui", "analyse", str(path), *options],
                          env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_analysis_of_a_record_and_seed_is_the_same_in_any_process(tmp_path):
    save_record(finished_game(), tmp_path / "short-war.json")
    first = run_analyse(tmp_path / "short-war.json", "1", "--budget", "2", "--seed", "5")
    again = run_analyse(tmp_path / "short-war.json", "2", "--budget", "2", "--seed", "5")
    assert first == again
    # What it says: Tokugawa won in week 2 (2.1); the chance by half-turn, the swings, the plots.
    assert "Tokugawa won (ishida-mitsunari-eliminated); 2 playouts a half-turn, seed 5." in first
    assert "  week 1: A Tokugawa " in first and "  week 2: A Tokugawa " in first
    assert "largest swings:\n1. Week 2 turn A, Tokugawa's half-turn: Ishida " in first and "-> 0%" in first
    assert "level 2 would have" in first
    lines = first.splitlines()
    plot = lines.index("chance to win as the week's first half-turn began, % (analysis):")
    assert lines[plot + 1].startswith("Ishida") and lines[plot + 2].startswith("Tokugawa")
    assert "VP at the end of the week (2.2):" in lines[:plot]
