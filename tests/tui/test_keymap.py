"""A player's own keys (issue 27, item 12): keymap.toml maps binding ids to keys."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from sekigahara_tui.keymap import KeymapError, binding_ids, load_keymap
from sekigahara_tui.screens.game import GameScreen
from tui.driving import take_seat
from tui.positions import record_from_position

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_readme_lists_every_binding_id_with_its_default_keys():
    listed = dict(re.findall(r"^\| `([a-z_]+\.[a-z_]+)` \| `([^`]+)` \|", README.read_text(encoding="utf-8"), re.M))
    assert set(listed) == binding_ids()


def test_a_keymap_file_is_read(tmp_path):
    path = tmp_path / "keymap.toml"
    path.write_text('[keys]\n"game.end" = "f5"\n"game.undo" = "ctrl+z, u"\n')
    assert load_keymap(path) == {"game.end": "f5", "game.undo": "ctrl+z,u"}
    assert load_keymap(tmp_path / "none.toml") == {}


@pytest.mark.parametrize("text, fault", [
    ('[keys]\n"game.nothing" = "f5"\n', "'game.nothing' is no binding id (the README lists them)"),
    ('[keys]\n"game.end" = 5\n', 'game.end: expected keys such as "ctrl+e" or "f5,e", not 5'),
    ('[keys]\n"game.end" = "f5;rm"\n', "game.end: expected keys"),
    ('[keys\n', "not valid TOML"),
    ('[other]\nx = 1\n', "unknown table or key 'other'"),
])
def test_a_bad_keymap_is_one_line_naming_the_file(tmp_path, text, fault):
    path = tmp_path / "keymap.toml"
    path.write_text(text)
    with pytest.raises(KeymapError) as error:
        load_keymap(path)
    assert str(error.value).startswith(f"{path}: ") and fault in str(error.value) and "\n" not in str(error.value)


def test_a_bad_keymap_stops_the_game_before_it_starts(tmp_path):
    config = tmp_path / "config" / "sekigahara"
    config.mkdir(parents=True)
    (config / "keymap.toml").write_text('[keys]\n"game.nothing" = "f5"\n')
    result = subprocess.run([sys.executable, "-m", "sekigahara_tui", "--save-dir", str(tmp_path / "saves"), "--seed", "1"],
                            capture_output=True, text=True, timeout=60,
                            env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "config"),
                                 "PYTHONPATH": ":".join(sys.path)})
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1 and "'game.nothing' is no binding id" in result.stderr
    assert not (tmp_path / "saves").exists()  # nothing was written


async def test_a_remapped_key_acts_and_the_old_one_does_not(make_app):
    app = make_app(record_from_position("tokugawa_chooses_movement"), keymap={"game.help": "f1"})
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await take_seat(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        assert pilot.app.screen is screen  # ? no longer opens the help
        await pilot.press("f1")
        await pilot.pause()
        assert not isinstance(pilot.app.screen, GameScreen)  # the decision's help
