"""Fixtures for driving the real app with Textual's Pilot."""

from __future__ import annotations

import pytest

from rules.record import save_record
from sekigahara_tui.app import SekigaharaApp


@pytest.fixture
def make_app(tmp_path):
    """An app whose saves and autosave go to a temporary folder, never the user's."""

    def make(record=None, **kwargs) -> SekigaharaApp:
        """record=: the app opens that game record, saved as a file first, as a player's --load."""
        if record is not None:
            kwargs["load"] = tmp_path / "position.json"
            save_record(record, kwargs["load"])
        return SekigaharaApp(save_dir=tmp_path / "data", **kwargs)

    return make
