"""`sekigahara host`, `bot`, `export` and `join` as real processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from net_helpers import sekigahara
from rules.infra.record import record_from_json, replay
from sekigahara_tui.cli import main
from sekigahara_tui.net.locations import read_address_file, running_games


@pytest.fixture
def env(runtime_dir) -> dict[str, str]:
    return dict(os.environ, XDG_RUNTIME_DIR=str(runtime_dir))


def wait_until_hosting(host: subprocess.Popen, game_dir: Path, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not (game_dir / "address.json").exists():
        if host.poll() is not None:
            raise AssertionError(f"host exited {host.returncode}: {host.stderr.read()}")
        assert time.monotonic() < deadline, "the host did not start"
        time.sleep(0.05)


def export(game_dir: Path, env) -> str:
    done = subprocess.run([sys.executable, "-m", "sekigahara_tui", "export", str(game_dir)],
                          capture_output=True, text=True, env=env, timeout=30)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_hosted_game_between_two_bot_processes(tmp_path, env):
    game_dir = tmp_path / "game"
    host = sekigahara("host", str(game_dir), "--seed", "11", "--grace", "0.3", env=env)
    try:
        wait_until_hosting(host, game_dir)
        assert record_from_json(export(game_dir, env)).commands == ()  # export while the host runs
        bots = [sekigahara("bot", str(game_dir), "--seat", side, "--seed", str(n), env=env)
                for n, side in enumerate(["ishida", "tokugawa"])]
        outputs = [bot.communicate(timeout=60) for bot in bots]
        assert [bot.returncode for bot in bots] == [0, 0], outputs
        results = {out.split(": ", 1)[1].strip() for out, _ in outputs}
        assert len(results) == 1  # both saw the same end
        out, err = host.communicate(timeout=30)  # the host stops by itself
    finally:
        host.kill()
    assert host.returncode == 0, err
    assert "sekigahara join" in out and f"game over: {results.pop()}" in out
    state = replay(record_from_json(export(game_dir, env)))
    assert state.is_over and f"game over: {state.result.winner.value} wins" in out
    left = sorted(p.name for p in game_dir.iterdir() if not p.name.endswith(("-wal", "-shm")))  # SQLite's, from export
    assert left == ["game.sqlite", "host.lock", "ishida.token", "tokugawa.token"]  # no address file: the host is gone
    assert all(os.stat(game_dir / f"{side}.token").st_mode & 0o077 == 0 for side in ("ishida", "tokugawa"))
    assert os.stat(game_dir).st_mode & 0o077 == 0


def test_one_host_per_dir_and_a_killed_hosts_socket_is_replaced(tmp_path, env, runtime_dir, capsys, monkeypatch):
    game_dir = tmp_path / "game"
    first = sekigahara("host", str(game_dir), env=env)
    try:
        wait_until_hosting(first, game_dir)
        entry = read_address_file(game_dir)
        second = sekigahara("host", str(game_dir), env=env)
        _, err = second.communicate(timeout=30)
        assert second.returncode == 2 and err.strip() == f"sekigahara host: a host is already running for {game_dir}"
        # `join` with no DIR lists the running game and the seats this user can take
        monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime_dir))
        assert [(g.game_dir, g.game, [s.value for s in g.seats]) for g in running_games()] == [
            (game_dir.resolve(), entry.game, ["ishida", "tokugawa"])]
        assert main(["join"]) == 0
        assert f"sekigahara join {game_dir.resolve()} --seat tokugawa" in capsys.readouterr().out
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
    finally:
        first.kill()
    assert Path(entry.address.unix).exists()  # left behind by the killed host
    assert running_games() == []  # its lock is free: not listed
    again = sekigahara("host", str(game_dir), "--idle-timeout", "0.5", env=env)
    try:
        out, err = again.communicate(timeout=30)  # nobody comes: it stops when idle
    finally:
        again.kill()
    assert again.returncode == 0, err
    assert f"hosting game {entry.game} in {game_dir.resolve()} (resumed at version 0)" in out
    assert not Path(entry.address.unix).exists()  # removed at the end


def test_a_bot_without_a_host_fails_in_one_line(tmp_path, env):
    bot = sekigahara("bot", str(tmp_path), "--seat", "ishida", env=env)
    _, err = bot.communicate(timeout=30)
    assert bot.returncode == 2 and err.count("\n") == 1 and "no game is hosted in" in err


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        (["--listen", "nowhere"], "--listen wants HOST:PORT"),
        (["--seat", "mori=alice"], "--seat wants SIDE=USER"),
        (["--seat", "ishida=no-such-user-here"], "no Unix user 'no-such-user-here'"),
        (["--seed", "9" * 30], "--seed: the seed must be between"),
    ],
)
def test_bad_host_arguments_are_refused_in_one_line(tmp_path, runtime_dir, monkeypatch, capsys, arguments, words):
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime_dir))
    assert main(["host", str(tmp_path / "g"), *arguments]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err


def test_resuming_with_another_seed_is_refused(tmp_path, runtime_dir, monkeypatch, capsys):
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime_dir))
    assert main(["host", str(tmp_path), "--seed", "5", "--idle-timeout", "0.05"]) == 0
    assert "join with:" in capsys.readouterr().out
    assert main(["host", str(tmp_path), "--seed", "6", "--idle-timeout", "0.05"]) == 2
    refused = capsys.readouterr()
    assert "already holds a game with another seed" in refused.err
    assert refused.out == ""  # no invitation to a game it does not host
    assert main(["export", str(tmp_path)]) == 0
    assert record_from_json(capsys.readouterr().out).seed == 5


def test_joining_a_game_nobody_hosts_is_refused_in_one_line_before_the_app(tmp_path, runtime_dir, capsys):
    assert main(["join", str(tmp_path / "nowhere"), "--seat", "ishida"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no game is hosted in" in err and "sekigahara host" in err
