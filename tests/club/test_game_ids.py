"""A game's id is typed after options (`chat list --game`, `export`), so it
never starts with "-" (hosting/game_ids.py). A clean-clone CI run once drew
an id starting with "-" (1 in 64 games) and `chat list --game ID` failed with
argparse's "expected one argument"."""

from __future__ import annotations

import asyncio
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from club_helpers import TIMEOUT, close_all, start_club
from rules.sides import Side
from sekigahara_tui.hosting.game_ids import new_game_id

SRC = Path(__file__).resolve().parents[2] / "src"


def test_a_game_id_starts_with_a_letter_or_a_digit_even_when_the_random_text_starts_with_a_dash(monkeypatch):
    monkeypatch.setattr(secrets, "token_urlsafe", lambda n: "-" + "A" * (4 * n // 3 - 1))
    made = new_game_id()
    assert made[0].isalnum() and made[1:] == "A" * 11


def test_game_ids_are_12_url_safe_characters_and_differ():
    ids = [new_game_id() for _ in range(2000)]
    assert all(len(i) == 12 and i[0].isascii() and i[0].isalnum() for i in ids)
    assert all(c.isalnum() or c in "-_" for i in ids for c in i)
    assert len(set(ids)) == 2000


@pytest.fixture
def dashed_random_text(monkeypatch):
    """Every random text drawn starts with "-", as 1 in 64 do."""
    real = secrets.token_urlsafe
    monkeypatch.setattr(secrets, "token_urlsafe", lambda n=None: "-" + real(n)[1:])


async def test_a_club_game_s_id_is_taken_by_the_command_line(data_dir, dashed_random_text):
    club = await start_club(data_dir)
    lobby = club.lobby_client("alice")
    made = await lobby.new_game(Side.ISHIDA, "open")
    assert made.game[0].isalnum()
    env = dict(os.environ, PYTHONPATH=str(SRC))
    listed = await asyncio.to_thread(
        subprocess.run, [sys.executable, "-m", "sekigahara_tui", "chat", "list", "--game", made.game, "--data", str(club.data_dir)],
        capture_output=True, text=True, env=env, timeout=TIMEOUT)
    assert listed.returncode == 0, listed.stderr
    await close_all([], [], [lobby])
    await club.stop()


def test_every_maker_of_a_game_id_uses_new_game_id():
    # club games, tournament boards and the two-terminal host
    package = SRC / "sekigahara_tui"
    makers = [p.relative_to(package).as_posix() for p in package.rglob("*.py")
              if "new_game_id()" in p.read_text(encoding="utf-8") and p.name != "game_ids.py"]
    assert sorted(makers) == ["hosting/club_games.py", "hosting/tournaments.py", "net/host_command.py"]
