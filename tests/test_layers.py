"""Dependencies point one way: events/ imports nothing from pbem/ or cli/, and no Flask."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent
FORBIDDEN_IN_EVENTS = ("pbem", "cli", "flask", "werkzeug", "jinja2", "apscheduler", "click")


def imported_modules(folder: Path) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in folder.rglob("*.py"):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module.split(".")[0])
        found[str(path.relative_to(ROOT))] = names
    return found


def test_the_events_package_imports_no_delivery_code() -> None:
    for path, names in imported_modules(ROOT / "events").items():
        assert not names & set(FORBIDDEN_IN_EVENTS), f"{path} imports {names & set(FORBIDDEN_IN_EVENTS)}"


def test_importing_every_events_module_loads_no_delivery_code() -> None:
    # click is left out: sqlite-utils imports it for its own command line.
    forbidden = tuple(m for m in FORBIDDEN_IN_EVENTS if m != "click")
    modules = [f"events.{p.stem}" for p in (ROOT / "events").glob("*.py") if p.stem != "__init__"]
    code = (f"import sys; import {', '.join(modules)}; "
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in {forbidden!r}))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_games_import_only_the_kernel_not_delivery() -> None:
    for path, names in imported_modules(ROOT / "pbem" / "games").items():
        bad = names & {"flask", "werkzeug", "apscheduler", "click", "smtplib", "cli"}
        assert not bad, f"{path} imports {bad}"
        assert "pbem.service" not in (ROOT / path).read_text(encoding="utf-8"), path


def test_the_service_s_helpers_take_a_narrow_interface_not_the_service() -> None:
    # The service imports these; they take what they use of it (a Protocol, or the store and the kernel), so no
    # import circle, not even one for types: the service satisfies each Protocol by its shape.
    for name in ("post/notify", "proof/replay", "table/undo_requests"):
        source = (ROOT / "pbem" / f"{name}.py").read_text(encoding="utf-8")
        assert "pbem.service" not in source and "Service " not in source.replace("ServiceError", ""), name
