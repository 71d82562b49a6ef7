"""A player's own keys (issue 27, item 12): keymap.toml in the user's config
directory (platformdirs: ~/.config/sekigahara/keymap.toml on Linux) maps
binding ids to keys, as Textual's keymaps do:

    [keys]
    "game.end" = "f5"              # End with F5 instead of ctrl+e
    "game.undo" = "ctrl+z,u"       # Undo with either key

Every binding id is listed in the README ("Your own keys"). The file is read
before Textual starts: an unknown id, a value that is not a string of keys,
or text that is not TOML stops the game with one line naming the file and
the fault, and nothing else changes.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import platformdirs

KEYMAP_NAME = "keymap.toml"
_KEYS = re.compile(r"[a-z0-9_+-]+(,[a-z0-9_+-]+)*")  # Textual's key names, comma-separated


class KeymapError(Exception):
    """A keymap file that cannot be used; one line."""


def keymap_path() -> Path:
    return platformdirs.user_config_path("sekigahara", appauthor=False) / KEYMAP_NAME


def binding_ids() -> set[str]:
    """Every binding id of the app, its screens and its widgets (what a keymap may name)."""
    import importlib
    import pkgutil

    from textual.binding import Binding

    from sekigahara_tui import app, screens, widgets

    modules = [app] + [importlib.import_module(f"{package.__name__}.{info.name}")
                       for package in (screens, widgets) for info in pkgutil.iter_modules(package.__path__)]
    ids: set[str] = set()
    for module in modules:
        for value in vars(module).values():
            if isinstance(value, type):
                ids.update(b.id for b in getattr(value, "BINDINGS", ()) if isinstance(b, Binding) and b.id)
    return ids


def load_keymap(path: Path | None = None) -> dict[str, str]:
    """The keymap in `path` (the user's keymap.toml by default); {} if there is none."""
    path = keymap_path() if path is None else path
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as error:
        raise KeymapError(f"{path}: cannot be read: {getattr(error, 'strerror', None) or 'not UTF-8 text'}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise KeymapError(f"{path}: not valid TOML: {error}") from None
    unknown_tables = sorted(set(data) - {"keys"})
    if unknown_tables:
        raise KeymapError(f"{path}: unknown table or key {unknown_tables[0]!r}: the file holds one table, [keys]")
    keys = data.get("keys", {})
    if not isinstance(keys, dict):
        raise KeymapError(f"{path}: [keys] must be a table of binding id = \"keys\"")
    known = binding_ids()
    keymap: dict[str, str] = {}
    for binding_id, value in keys.items():
        if binding_id not in known:
            raise KeymapError(f"{path}: [keys] {binding_id!r} is no binding id (the README lists them)")
        if not isinstance(value, str) or not _KEYS.fullmatch(value.replace(" ", "")):
            raise KeymapError(f"{path}: [keys] {binding_id}: expected keys such as \"ctrl+e\" or \"f5,e\", not {value!r}")
        keymap[binding_id] = value.replace(" ", "")
    return keymap
