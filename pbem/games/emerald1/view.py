"""Views: stub."""
from __future__ import annotations
from typing import Any
from pbem.games.emerald1.state import State


def build_view(s: State, seat: int | None) -> dict[str, Any]:
    return {"game": "emerald1", "phase": s.phase}
