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


async def test_a_on_the_game_over_screen_shows_the_analysis_worked_out_in_a_worker(tmp_path, monkeypatch):
    """At 80x24: a loaded finished game, its game over screen, `a`: the
    analysis comes from a worker process, the same as the command line's."""
    from sekigahara_tui.app import SekigaharaApp
    from sekigahara_tui.screens import analysis as analysis_screen
    from sekigahara_tui.screens.analysis import AnalysisScreen
    from sekigahara_tui.screens.info import GameOverScreen
    from tui.driving import until
    from tui.screen_text import screen_text

    monkeypatch.setattr(analysis_screen, "PLAYOUTS", 2)
    monkeypatch.setattr(analysis_screen, "SEED", 5)
    save_record(finished_game(), tmp_path / "finished.json")
    app = SekigaharaApp(save_dir=tmp_path / "data", load=tmp_path / "finished.json")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, GameOverScreen), "the game over screen")
        await until(pilot, lambda: "a Analyse" in screen_text(app).splitlines()[-1], "the key in the Footer")
        await pilot.press("a")
        assert isinstance(app.screen, AnalysisScreen)
        await until(pilot, lambda: app.screen.done, "the analysis")
        shown = str(app.screen.query_one("#analysis").render()).rstrip()
        printed = run_analyse(tmp_path / "finished.json", "3", "--budget", "2", "--seed", "5").rstrip()
        # The same but for the first line's name of the record (the command line's file).
        assert shown.split("\n", 1)[1] == printed.split("\n", 1)[1] and "largest swings" in shown
        assert "Analysis: Tokugawa won" in screen_text(app)
        await pilot.press("escape")
        assert isinstance(app.screen, GameOverScreen)


def test_a_club_game_ended_outside_the_rules_is_analysed_with_that_end():
    """A resigned club game's record holds only its commands (the resignation is
    the club's result, hosting/results.py): given that end, it is analysed as
    won by the other side; cancelled, won by nobody."""
    from rules.sides import Side

    game = finished_game()
    resigned = attrs.evolve(game, commands=game.commands[:-1])  # Ishida resigned before Tokugawa's overrun
    analysis = analyse(resigned, 1, ended=(Side.TOKUGAWA, "resigned"))
    assert (analysis.winner, analysis.cause) == (Side.TOKUGAWA, "resigned")
    cancelled = analyse(resigned, 1, ended=(None, "cancelled"))
    assert (cancelled.winner, cancelled.cause) == (None, "cancelled")
    try:
        analyse(resigned, 1, ended=(Side.TOKUGAWA, "vp"))  # not an end outside the rules
    except ValueError:
        pass
    else:
        raise AssertionError("a cause of the rules was taken for an end outside them")
