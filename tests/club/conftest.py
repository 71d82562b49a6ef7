from __future__ import annotations

import shutil

import pytest

from club_helpers import Club, short_tmp, start_club


@pytest.fixture
def data_dir(monkeypatch):
    """A short DATA_DIR (AF_UNIX paths are short) and a private runtime dir."""
    directory = short_tmp()
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(directory))
    yield directory / "club"
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
async def club(data_dir) -> Club:
    club = await start_club(data_dir)
    yield club
    await club.stop()
