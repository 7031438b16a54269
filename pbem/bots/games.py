"""Each game's part of its computer player, found beside its rules: the game folder's ``bot.py``.

A game's ``bot.py`` gives ``SKELETON`` (its sampler: a ``pbem.bots.skeleton.Skeleton`` made from a seat's
``Knowledge``), ``sample(knowledge, rng)`` (one world consistent with what the seat knows), ``evaluate(state,
seat)`` (the seat's chance of winning, estimated, from 0 to 1) and ``values(state)`` (``evaluate`` for every
seat at once, for the search); optionally ``to_act(state)`` (the seat that must decide now, or None: cheaper than
asking the rules' prompts, which also word the question).
"""

from __future__ import annotations

import importlib
import random
from typing import Any, Callable, Protocol, Sequence

from events.rules import Rules
from pbem.bots.knowledge import Knowledge
from pbem.bots.skeleton import Skeleton
from pbem.games import BUILTIN, all_games


class GameBot(Protocol):
    SKELETON: Callable[[Knowledge], Skeleton[Any]]

    def sample(self, knowledge: Knowledge, rng: random.Random) -> Any:
        ...

    def evaluate(self, state: Any, seat: int) -> float:
        ...

    def values(self, state: Any) -> Sequence[float]:
        ...


class NoBot(LookupError):
    """The game has no computer player."""


_registered: dict[str, GameBot] = {}


def register(game_type: str, bot: GameBot) -> None:
    _registered[game_type] = bot


def unregister(game_type: str) -> None:
    _registered.pop(game_type, None)


def game_bot(game_type: str) -> GameBot:
    """The bot part of ``game_type``: a registered one, or a built-in game's ``bot`` module."""
    if game_type in _registered:
        return _registered[game_type]
    module = BUILTIN.get(game_type)
    if module is None:
        raise NoBot(f"no computer player for the game {game_type!r}")
    try:
        found: GameBot = importlib.import_module(f"{module}.bot")  # type: ignore[assignment]
    except ModuleNotFoundError as missing:
        if missing.name != f"{module}.bot":
            raise
        raise NoBot(f"no computer player for the game {game_type!r}") from None
    return found


def rules_of(game_type: str) -> Rules[Any]:
    try:
        return all_games()[game_type]
    except KeyError:
        raise NoBot(f"no game {game_type!r}") from None
