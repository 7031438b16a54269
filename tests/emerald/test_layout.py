"""No module of a game imports a module that imports it back: every folder under ``pbem/games/`` is an import
graph without cycles, counting imports inside functions too (a deferred import only hides a circle)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parents[2] / "pbem" / "games"
FOLDERS = sorted(p.name for p in GAMES.iterdir() if (p / "__init__.py").is_file())

# Circles known in another game's folder and being taken apart on that game's own branch: tolerated while they
# are exactly these (any other circle there fails), and the test passes once they are gone.
KNOWN_ELSEWHERE = {"emerald1": [["assassin", "cards"], ["effects", "flow", "permanent"]]}


def imports(folder: Path) -> dict[str, set[str]]:
    """Each module of the folder (``__init__`` for the package itself) and the folder's modules it imports."""
    package = f"pbem.games.{folder.name}"
    modules = {f.stem for f in folder.glob("*.py")}
    graph: dict[str, set[str]] = {}
    for path in sorted(folder.glob("*.py")):
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:  # relative: from . import x, from .x import y
                    target = package + (f".{node.module}" if node.module else "")
                else:
                    target = node.module or ""
                if target == package:
                    found.update(a.name if a.name in modules else "__init__" for a in node.names)
                elif target.startswith(package + "."):
                    found.add(target[len(package) + 1:].split(".")[0])
            elif isinstance(node, ast.Import):
                found.update(a.name[len(package) + 1:].split(".")[0] for a in node.names
                             if a.name.startswith(package + "."))
        graph[path.stem] = found & modules - {path.stem}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each sorted, in order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


def test_the_cycle_finder_finds_a_circle_of_three_and_a_deferred_import(tmp_path: Path) -> None:
    game = tmp_path / "toy"
    game.mkdir()
    (game / "__init__.py").write_text("from pbem.games.toy.rules import RULES\n")
    (game / "rules.py").write_text("from pbem.games.toy import engine\nRULES = 1\n")
    (game / "engine.py").write_text("from pbem.games.toy.flow import step\n")
    (game / "flow.py").write_text("def step():\n    from .engine import x\n")
    (game / "view.py").write_text("import pbem.games.toy.flow\nfrom pbem.games.toy import RULES\n")
    graph = imports(game)
    assert graph == {"__init__": {"rules"}, "rules": {"engine"}, "engine": {"flow"}, "flow": {"engine"},
                     "view": {"flow", "__init__"}}
    assert cycles(graph) == [["engine", "flow"]]
    (game / "engine.py").write_text("from pbem.games.toy.flow import step\nfrom pbem.games.toy import view\n")
    assert cycles(imports(game)) == [["__init__", "engine", "flow", "rules", "view"]]


def test_every_game_folder_is_checked() -> None:
    assert {"emerald", "emerald1", "nanty"} <= set(FOLDERS)


@pytest.mark.parametrize("folder", FOLDERS)
def test_no_module_of_a_game_imports_one_that_imports_it_back(folder: str) -> None:
    found = cycles(imports(GAMES / folder))
    if found and found == KNOWN_ELSEWHERE.get(folder):
        pytest.xfail(f"{folder}: known import circles, taken apart on that game's own branch")
    assert found == [], f"import circles in pbem/games/{folder}: {found}"
