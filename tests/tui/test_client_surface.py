"""The app is a client (issue 11): it imports from `rules` only the client
surface (rules.surface), the notation and the log describer. Only the parts
that own a whole game (the hot-seat table, the host, the CLI's replay and
self-play) may reach the engine."""

from __future__ import annotations

import ast
from pathlib import Path

import sekigahara_tui

PACKAGE = Path(sekigahara_tui.__file__).parent
# rules.untrusted reads untrusted bytes (bounded JSON, printable excerpts): it
# knows nothing of a game, and the wire needs it.
CLIENT_SURFACE = {"rules.surface", "rules.notation", "rules.describe", "rules.untrusted"}

# Modules that own a whole game (its GameState and record), by design.
GAME_OWNERS = {
    "host.py",  # GameHost: the engine, the record, the autosave
    "local.py",  # hot seat: both seats over one GameHost in this process
    "cli.py",  # replay, selfplay, and starting hosts
    "replay_model.py",  # the replay screen's frames: replays a whole record (a finished game's, or the CLI's file)
    "net/server.py",  # the networked host
    "net/store.py",  # the networked host's SQLite store
    "club/server.py",  # the club's host of many games: a spectator's events picked by the engine (R55)
    "bots/play.py",  # the referee of local bot games (the bots themselves see views only)
    "bots/sampler.py",  # builds whole states consistent with a bot's view, for its playouts
    "bots/planner.py",  # level 2: plays out states it sampled itself (never the game's)
}


def rules_imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "rules":
            found.add(node.module if node.module != "rules" else f"rules.{node.names[0].name}")
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names if alias.name.split(".")[0] == "rules"}
    return found


def client_modules() -> list[Path]:
    return [p for p in sorted(PACKAGE.rglob("*.py")) if p.relative_to(PACKAGE).as_posix() not in GAME_OWNERS]


def test_the_app_imports_only_the_client_surface_from_the_rules():
    modules = client_modules()
    assert any(p.name == "game.py" for p in modules) and any(p.name == "battle.py" for p in modules)
    offenders = {
        p.relative_to(PACKAGE).as_posix(): sorted(rules_imports(p) - CLIENT_SURFACE)
        for p in modules
        if rules_imports(p) - CLIENT_SURFACE
    }
    assert offenders == {}


def test_the_check_finds_an_engine_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text("from rules.engine import apply\nimport rules.state\nfrom rules.surface import Side\n")
    assert rules_imports(sample) - CLIENT_SURFACE == {"rules.engine", "rules.state"}
