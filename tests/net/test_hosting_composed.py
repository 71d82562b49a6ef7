"""The hosting layer is composed, not inherited (issue 22): no class of
src/sekigahara_tui/hosting subclasses another class of that package and
overrides its underscore methods. The club is the game server plus its
subscribers and its doors, not a game server with its hooks overridden.

An AST walk: every class of the package, its bases resolved through the
module's own classes and its `from sekigahara_tui.hosting... import`s."""

from __future__ import annotations

import ast
from pathlib import Path

import sekigahara_tui.hosting

HOSTING = Path(sekigahara_tui.hosting.__file__).parent
PACKAGE = "sekigahara_tui.hosting"


def protected(name: str) -> bool:
    """A protected (underscore) method's name: not a dunder such as __init__."""
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def classes_of(sources: dict[str, str]) -> dict[tuple[str, str], tuple[list[tuple[str, str]], set[str]]]:
    """(module, class) -> (its bases that are classes of these modules, its methods' names).
    `sources` maps a module's dotted name to its text."""
    found: dict[tuple[str, str], tuple[list[tuple[str, str]], set[str]]] = {}
    for module, text in sources.items():
        tree = ast.parse(text, module)
        imported: dict[str, tuple[str, str]] = {}  # local name -> (module, class)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(PACKAGE):
                for alias in node.names:
                    imported[alias.asname or alias.name] = (node.module, alias.name)
        local = {node.name for node in tree.body if isinstance(node, ast.ClassDef)}
        for node in tree.body:
            if not isinstance(node, ast.ClassDef):
                continue
            bases = []
            for base in node.bases:
                if isinstance(base, ast.Name) and base.id in local:
                    bases.append((module, base.id))
                elif isinstance(base, ast.Name) and base.id in imported:
                    bases.append(imported[base.id])
                elif isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name) and base.value.id in imported:
                    bases.append((f"{imported[base.value.id][0]}.{imported[base.value.id][1]}", base.attr))
            methods = {
                item.name for item in node.body if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
            }
            found[(module, node.name)] = (bases, methods)
    return found


def overridden_protected_methods(sources: dict[str, str]) -> dict[str, list[str]]:
    """'module.Class' -> the underscore methods it overrides of a class of the package it subclasses."""
    classes = classes_of(sources)

    def inherited(key: tuple[str, str], seen: frozenset = frozenset()) -> set[str]:
        if key not in classes or key in seen:
            return set()
        bases, methods = classes[key]
        names = set(methods)
        for base in bases:
            names |= inherited(base, seen | {key})
        return names

    offenders = {}
    for key, (bases, methods) in classes.items():
        from_bases = set().union(*(inherited(base) for base in bases)) if bases else set()
        clash = sorted(name for name in methods & from_bases if protected(name))
        if clash:
            offenders[f"{key[0]}.{key[1]}"] = clash
    return offenders


def hosting_sources() -> dict[str, str]:
    return {f"{PACKAGE}.{path.stem}": path.read_text() for path in sorted(HOSTING.glob("*.py")) if path.stem != "__init__"}


def test_no_hosting_class_overrides_the_protected_methods_of_another():
    sources = hosting_sources()
    assert f"{PACKAGE}.game_server" in sources and f"{PACKAGE}.club_server" in sources
    assert overridden_protected_methods(sources) == {}


def test_the_walk_finds_an_override_across_modules_and_within_one():
    planted = {
        f"{PACKAGE}.base": "class Server:\n    def _hook(self):\n        pass\n    def public(self):\n        pass\n",
        f"{PACKAGE}.club": (
            f"from {PACKAGE}.base import Server\n"
            "class Club(Server):\n    def __init__(self):\n        pass\n    def _hook(self):\n        pass\n"
            "    def public(self):\n        pass\n"
            "class Deeper(Club):\n    def _hook(self):\n        pass\n"
        ),
        f"{PACKAGE}.other": "class Apart:\n    def _hook(self):\n        pass\n",
    }
    assert overridden_protected_methods(planted) == {
        f"{PACKAGE}.club.Club": ["_hook"],
        f"{PACKAGE}.club.Deeper": ["_hook"],
    }
