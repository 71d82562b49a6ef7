"""The wheel carries data/ inside the rules package, found by importlib.resources."""

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_wheel_ships_the_component_data(tmp_path):
    pytest.importorskip("hatchling")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path)],
        check=True,
    )
    (wheel,) = tmp_path.glob("sekigahara-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for data_file in ("map.toml", "blocks.toml", "cards.toml", "setup.toml"):
        assert f"rules/data/{data_file}" in names
    assert "rules/engine.py" in names and "sekigahara_tui/cli.py" in names
