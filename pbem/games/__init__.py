"""The games pbem can run, by game type.

Built-in games are imported on first use; ``register`` adds another (tests, plugins).
"""

from __future__ import annotations

import importlib
from typing import Any

from events.rules import Rules

BUILTIN = {
    "emerald": "pbem.games.emerald",
    "emerald1": "pbem.games.emerald1",
    "nanty": "pbem.games.nanty",
}

_registered: dict[str, Rules[Any]] = {}


def register(rules: Rules[Any]) -> None:
    _registered[rules.name] = rules


def unregister(name: str) -> None:
    _registered.pop(name, None)


def all_games() -> dict[str, Rules[Any]]:
    """Every available game: the built-in ones that import cleanly, and the registered ones."""
    games: dict[str, Rules[Any]] = {}
    for name, module in BUILTIN.items():
        try:
            games[name] = importlib.import_module(module).RULES
        except ModuleNotFoundError as missing:
            if missing.name != module:  # a broken game is an error, an absent one is not
                raise
    games.update(_registered)
    return games
