"""Turning estimated final scores into chances of winning, for the games' evaluations."""

from __future__ import annotations

import math
from typing import Sequence


def shares(scores: Sequence[float], spread: float) -> tuple[float, ...]:
    """Each player's chance of the best score, when each score may still move by about ``spread`` points."""
    top = max(scores)
    weights = [math.exp((v - top) / spread) for v in scores]
    total = sum(weights)
    return tuple(w / total for w in weights)


def shares_with_sides(scores: Sequence[float], sides: Sequence[str], spread: float, first_out: str) -> tuple[float, ...]:
    """As ``shares``, where the side of the lowest score is out of the running (``first_out``'s on a tie), when
    both sides are at the table: a player wins only if their side is not out and their score is the best of those
    left. Each player's chance of the lowest score counts against their side."""
    if len(set(sides)) < 2:
        return shares(scores, spread)
    low = min(scores)
    weights = [math.exp((low - v) / spread) for v in scores]
    total = sum(weights)
    out = {side: 0.0 for side in sides}
    for w, side in zip(weights, sides):
        out[side] += w / total
    top = max(scores)
    alive = [(1.0 - out[side]) * math.exp((v - top) / spread) for v, side in zip(scores, sides)]
    total = sum(alive)
    if total <= 0:
        return tuple(1.0 / len(scores) for _ in scores)
    return tuple(a / total for a in alive)
