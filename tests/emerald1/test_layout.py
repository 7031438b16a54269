"""The 1st edition's folder has no import circle: no module of the game imports one that imports it back.

Every import counts, a function's own (made late, to dodge a circle) as much as a module's: an ``ast`` walk over
each file of ``pbem/games/emerald1`` finds the game modules it names, and any circle among them fails the test.
"""

from __future__ import annotations

import ast
from pathlib import Path

FOLDER = Path(__file__).parents[2] / "pbem" / "games" / "emerald1"
PACKAGE = "pbem.games.emerald1"


def imports(path: Path) -> set[str]:
    """The modules of the game (by their name in the folder) that ``path`` imports, anywhere in it."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            module = node.module if node.level == 0 else f"{PACKAGE}.{node.module}"
            found.add(module)
            found.update(f"{module}.{a.name}" for a in node.names)  # ``from package import module``
    return {name[len(PACKAGE) + 1:].split(".")[0] for name in found if name.startswith(PACKAGE + ".")}


def graph() -> dict[str, set[str]]:
    modules = {p.stem for p in FOLDER.glob("*.py")}
    return {p.stem: imports(p) & modules - {p.stem} for p in FOLDER.glob("*.py")}


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every set of modules that reach each other through imports (Tarjan's strongly connected components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(edges[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            part = []
            while True:
                top = stack.pop()
                part.append(top)
                if top == node:
                    break
            if len(part) > 1:
                out.append(sorted(part))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return out


def test_the_walk_sees_late_imports_and_package_imports() -> None:
    edges = graph()
    assert "engine" in edges["rules"] and "commands" in edges["rules"]  # ``parse`` imports commands in its body
    assert {"assassin", "cards", "moves"} <= edges["engine"]           # ``from pbem.games.emerald1 import ...``
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_module_of_the_game_imports_one_that_imports_it_back() -> None:
    assert circles(graph()) == []
