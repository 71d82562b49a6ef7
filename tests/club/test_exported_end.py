"""Issue 25: a resigned club game's exported record holds its end, so
`sekigahara analyse` analyses it (instead of refusing it as in progress) and
`sekigahara replay` shows it over; the lobby's get_record (the web download
and the SSH export's source) gives the same record."""

from __future__ import annotations

import json

from club_helpers import resigned_game
from sekigahara_tui.cli import main


async def test_a_resigned_club_game_is_exported_with_its_end_and_analysed(club, data_dir, tmp_path, capsys):
    game = await resigned_game(club, private=False)
    path = tmp_path / "game.json"
    assert main(["export", game, str(path), "--data", str(data_dir)]) == 0
    record = json.loads(path.read_text())
    assert record["end"] == {"cause": "resigned", "winner": "tokugawa", "seat": "ishida"}
    bob = club.lobby_client("bob")
    try:
        assert json.loads(await bob.record(game)) == record  # the lobby's (web, SSH): the same file
    finally:
        await bob.close()
    capsys.readouterr()
    assert main(["analyse", str(path), "--budget", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Analysis of {path}: Tokugawa won (resigned);"), out
    assert main(["replay", str(path)]) == 0
    assert "resigned" in capsys.readouterr().out
