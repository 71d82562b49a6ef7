"""Fixtures for networked play: a real host on a real Unix socket, in this
process (GameServer) or as a `sekigahara host` subprocess."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from net_helpers import Hosted, start_hosted


@pytest.fixture
def runtime_dir(monkeypatch) -> Path:
    """A private, short XDG_RUNTIME_DIR (AF_UNIX paths are short; tmp_path is long)."""
    directory = Path(tempfile.mkdtemp(prefix="sk", dir="/tmp"))
    os.chmod(directory, 0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(directory))
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
async def hosted(tmp_path, runtime_dir) -> Hosted:
    """A fresh game (seed 1) served in this process on a Unix socket."""
    hosted = await start_hosted(tmp_path, runtime_dir, seed=1)
    yield hosted
    await hosted.stop()
