"""Fixtures for driving the real app with Textual's Pilot."""

from __future__ import annotations

import pytest

from sekigahara_tui.app import SekigaharaApp


@pytest.fixture
def make_app(tmp_path):
    """An app whose saves and autosave go to a temporary folder, never the user's."""

    def make(**kwargs) -> SekigaharaApp:
        return SekigaharaApp(save_dir=tmp_path / "data", **kwargs)

    return make
