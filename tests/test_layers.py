"""The house's floors: dependencies point one way, nothing below the service facade imports it, and no circles.

From the ground up: ``events`` (the kernel) ← ``pbem.games`` ← ``pbem.errors``, ``pbem.instance`` ←
``pbem.table`` ← ``pbem.proof`` ← ``pbem.post`` ← ``pbem.organising``, ``pbem.bots`` ← ``pbem.service`` (the
facade) ← ``pbem.web``, ``pbem.scheduler`` ← ``cli``. A module may import its own floor's modules and any lower floor's,
never a higher one's (``docs/architecture.md`` draws the plan); imports made only for type checking count too.
A game's ``bot.py`` (its sampler and evaluation for the computer players) sits on the floor of ``pbem.bots``.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent
FORBIDDEN_IN_EVENTS = ("pbem", "cli", "flask", "werkzeug", "jinja2", "apscheduler", "click")
FLOORS = (("events",), ("pbem.games",), ("pbem.errors", "pbem.instance"), ("pbem.table",), ("pbem.proof",),
          ("pbem.post",), ("pbem.organising", "pbem.bots"), ("pbem.service",), ("pbem.web", "pbem.scheduler"),
          ("cli",))


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The project's modules a file imports, anywhere in it (at the top, in a function, for type checking); a
    ``from package import module`` names the module, not the package."""
    own = module_name(path)
    package = own if path.name == "__init__.py" else own.rsplit(".", 1)[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[:len(package.split(".")) - node.level + 1] + ([base] if base else []))
            named = {f"{base}.{a.name}" for a in node.names}
            found.update(named & modules if named <= modules else named & modules | {base})
    return {name for name in found if name.split(".")[0] in ("events", "pbem", "cli")}


def graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for folder in ("events", "pbem", "cli") for p in (ROOT / folder).rglob("*.py")}
    return {name: {m for m in imports_of(path, set(modules)) if m in modules and m != name}
            for name, path in modules.items()}


def floor_of(module: str) -> int:
    parts = module.split(".")
    if len(parts) == 4 and parts[:2] == ["pbem", "games"] and parts[3] == "bot":
        module = "pbem.bots"  # a game's bot.py (its sampler and evaluation) is its part of the bots' floor
    for floor, prefixes in enumerate(FLOORS):
        if any(module == p or module.startswith(p + ".") for p in prefixes):
            return floor
    raise AssertionError(f"{module} is on no floor of FLOORS: give it one")


def test_every_module_imports_only_its_own_floor_and_the_floors_below() -> None:
    upward = sorted(f"{m} imports {i}" for m, found in graph().items() for i in found
                    if floor_of(i) > floor_of(m) and i != "pbem")
    assert not upward, "\n".join(upward)


def test_nothing_below_the_facade_imports_it() -> None:
    below = [m for m, found in graph().items() if "pbem.service" in found and floor_of(m) < floor_of("pbem.service")]
    assert not below, below


def test_no_module_imports_itself_back_through_others() -> None:
    edges = graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles: list[list[str]] = []

    def visit(node: str) -> None:  # Tarjan's strongly connected components
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
                circles.append(sorted(part))

    sys.setrecursionlimit(10_000)
    for node in sorted(edges):
        if node not in index:
            visit(node)
    assert not circles, circles


def test_the_events_package_imports_no_delivery_code() -> None:
    for path in (ROOT / "events").rglob("*.py"):
        names = {n.split(".")[0] for n in _all_imports(path)}
        assert not names & set(FORBIDDEN_IN_EVENTS), f"{path} imports {names & set(FORBIDDEN_IN_EVENTS)}"


def _all_imports(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def test_importing_every_events_module_loads_no_delivery_code() -> None:
    # click is left out: sqlite-utils imports it for its own command line.
    forbidden = tuple(m for m in FORBIDDEN_IN_EVENTS if m != "click")
    modules = [f"events.{p.stem}" for p in (ROOT / "events").glob("*.py") if p.stem != "__init__"]
    code = (f"import sys; import {', '.join(modules)}; "
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in {forbidden!r}))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_games_import_only_the_kernel_not_delivery() -> None:
    for path in (ROOT / "pbem" / "games").rglob("*.py"):
        names = {n.split(".")[0] for n in _all_imports(path)}
        bad = names & {"flask", "werkzeug", "apscheduler", "click", "smtplib", "cli"}
        assert not bad, f"{path} imports {bad}"


def test_each_package_says_what_it_holds_and_may_import() -> None:
    for package in ("instance", "table", "proof", "post", "organising", "bots"):
        doc = ast.get_docstring(ast.parse((ROOT / "pbem" / package / "__init__.py").read_text(encoding="utf-8")))
        assert doc and "Imports" in doc, package
