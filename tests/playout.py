"""Seeded random playouts through ``legal_actions`` and ``decide``, for any game on the kernel."""

from __future__ import annotations

import random
from typing import Any, Callable

from events.handling import Cause, CommandResult, Kernel
from events.replay import GameState

Check = Callable[[Kernel, CommandResult], None]


def play_random(kernel: Kernel, game_id: str, seed: int, *, max_commands: int = 2000,
                after_each: Check | None = None) -> GameState[Any]:
    """Play random legal actions for whoever is prompted until the game ends."""
    pick = random.Random(seed)
    for _ in range(max_commands):
        state = kernel.load(game_id)
        if state.ended:
            return state
        rules = kernel.rules(state)
        prompts = rules.prompts(state.game)
        assert prompts, f"game {game_id} is not over but nobody is prompted at {state.seq}"
        seat = pick.choice(sorted(prompts))
        actions = rules.legal_actions(state.game, seat)
        assert actions, f"seat {seat} is prompted but has no legal action at {state.seq}"
        result = kernel.execute(game_id, seat, pick.choice(actions), cause=Cause("test"))
        if after_each:
            after_each(kernel, result)
    raise AssertionError(f"game {game_id} did not end within {max_commands} commands")
