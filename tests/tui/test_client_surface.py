"""The app is a client (issue 11): it imports from `rules` only the client
surface (rules.surface), the notation and the log describer. Only the parts
that own a whole game (the hot-seat table, the host, the CLI's replay and
self-play) may reach the engine."""

from __future__ import annotations

import ast
from pathlib import Path

import sekigahara_tui

PACKAGE = Path(sekigahara_tui.__file__).parent
# rules.infra.untrusted reads untrusted bytes (bounded JSON, printable excerpts): it
# knows nothing of a game, and the wire needs it.
CLIENT_SURFACE = {"rules.surface", "rules.notation", "rules.describe", "rules.infra.untrusted"}

# Modules that own a whole game (its GameState and record), by design.
GAME_OWNERS = {
    "hosting/host.py",  # GameHost: the engine, the record, the autosave
    "hosting/autosaver.py",  # GameHost's autosave, written by a thread: the game record
    "local.py",  # hot seat: both seats over one GameHost in this process
    "cli.py",  # replay, selfplay, and starting hosts
    "replay_model.py",  # the replay screen's frames: replays a whole record (a finished game's, or the CLI's file)
    "analysis.py",  # a finished game's analysis: plays on from its revealed states (refuses a game in progress)
    "hosting/game_server.py",  # the networked host
    "hosting/store.py",  # the networked host's SQLite store
    "hosting/store_records.py",  # the store's: a stored game's record from its rows
    "hosting/chairs.py",  # the networked host's views of a game's state, one per chair
    "hosting/spectators.py",  # the club's spectators: their events picked by the engine (R55)
    "hosting/past_events.py",  # a hosted game's old steps' events, packed (issue 23, item 11)
    "hosting/stats_file.py",  # the club server's count of place indexes built, for the soak benchmark
    "bots/play.py",  # the referee of local bot games (the bots themselves see views only)
    "bots/sampler.py",  # builds whole states consistent with a bot's view, for its playouts
    "bots/planner.py",  # level 2: plays out states it sampled itself (never the game's)
    "bots/search.py",  # level 3: searches a tree over states it sampled itself (never the game's)
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


# --- the hosting layer (issue 22): no Textual, no app -------------------------------

HOSTING = PACKAGE / "hosting"
APP_PARTS = ("sekigahara_tui.app", "sekigahara_tui.screens", "sekigahara_tui.widgets")


def imported_modules(path: Path) -> set[str]:
    """Every module `path` imports, at the top or inside a function."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
    return found


def module_path(name: str) -> Path | None:
    """The file of a sekigahara_tui module (or package), if it is one."""
    if not name.startswith("sekigahara_tui"):
        return None
    base = PACKAGE.parent.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def reached_from(paths: list[Path]) -> dict[str, Path]:
    """Every module the files import, and what those import in turn, with the
    file of ours that first imported each."""
    seen: dict[str, Path] = {}
    todo = list(paths)
    done: set[Path] = set()
    while todo:
        path = todo.pop()
        if path in done:
            continue
        done.add(path)
        for name in imported_modules(path):
            seen.setdefault(name, path)
            if (inner := module_path(name)) is not None:
                todo.append(inner)
    return seen


def test_the_hosting_package_imports_no_textual_and_nothing_of_the_app():
    reached = reached_from(sorted(HOSTING.glob("*.py")))
    assert "sekigahara_tui.bots.base" in reached  # the walk follows our own imports (computer_seat -> bots.driver -> ...)
    offenders = {
        name: reached[name].relative_to(PACKAGE).as_posix()
        for name in reached
        if name.split(".")[0] in ("textual", "textual_serve") or name.startswith(APP_PARTS)
    }
    assert offenders == {}


def test_the_app_reaches_hosting_only_through_its_seats_and_the_wire():
    # Screens and widgets show a Seat's view; a game is hosted in local.py,
    # versus.py and replay_model.py (this process) or across the wire.
    app_files = [PACKAGE / "app.py", *sorted((PACKAGE / "screens").glob("*.py")), *sorted((PACKAGE / "widgets").glob("*.py"))]
    direct = {
        path.relative_to(PACKAGE).as_posix(): sorted(n for n in imported_modules(path) if n.startswith("sekigahara_tui.hosting"))
        for path in app_files
    }
    assert {name: found for name, found in direct.items() if found} == {}


def test_the_hosting_check_finds_a_planted_textual_import(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text("def later():\n    from textual.app import App\n")
    assert "textual.app" in reached_from([planted])
