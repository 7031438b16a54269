"""Fair, replayable randomness: every outcome is drawn from the game's secret seed by a counter.

Draw number ``n`` of a game is computed from ``HMAC-SHA256(seed, "n.i")`` alone, so
anyone holding the seed (revealed when the game ends) can recompute every shuffle
and die roll, and the server cannot re-roll: undoing and redoing an action draws
the same numbers again.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any, Sequence, TypeVar

T = TypeVar("T")


def new_seed() -> str:
    """A fresh secret seed: 32 random bytes as hex."""
    return secrets.token_hex(32)


def seed_commitment(seed: str) -> str:
    """The public commitment to a seed, published when the game is created."""
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def _word(seed: str, n: int, i: int) -> int:
    digest = hmac.digest(seed.encode("utf-8"), f"{n}.{i}".encode("ascii"), "sha256")
    return int.from_bytes(digest, "big")


def _below(seed: str, n: int, i: int, bound: int) -> int:
    # 256 random bits modulo a small bound: the bias is below 2**-240, nothing to see.
    return _word(seed, n, i) % bound


def compute(seed: str, n: int, op: str, args: Sequence[Any]) -> Any:
    """The outcome of draw ``n``: the one function both play and verification use."""
    if op == "randint":
        lo, hi = int(args[0]), int(args[1])
        if hi < lo:
            raise ValueError(f"randint({lo}, {hi}): empty range")
        return lo + _below(seed, n, 0, hi - lo + 1)
    if op == "shuffle":
        items = list(args)
        for i in range(len(items) - 1, 0, -1):  # Fisher-Yates
            j = _below(seed, n, i, i + 1)
            items[i], items[j] = items[j], items[i]
        return items
    raise ValueError(f"unknown random operation {op!r}")


@dataclass(frozen=True)
class Draw:
    """One recorded random outcome."""

    n: int
    op: str
    args: list[Any]
    result: Any

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n, "op": self.op, "args": self.args, "result": self.result}


class Rng:
    """Draws outcomes from the seed starting at a counter, and records each draw.

    Rules receive an ``Rng`` in ``setup`` and ``decide`` and put the outcomes they
    use into their events; the kernel records the draws themselves in a
    ``pbem.RandomDrawn`` event so that verification can recompute them.
    """

    def __init__(self, seed: str, counter: int = 0) -> None:
        self._seed = seed
        self.counter = counter
        self.draws: list[Draw] = []

    def _draw(self, op: str, args: list[Any]) -> Any:
        result = compute(self._seed, self.counter, op, args)
        self.draws.append(Draw(self.counter, op, args, result))
        self.counter += 1
        return result

    def randint(self, lo: int, hi: int) -> int:
        """A whole number from ``lo`` to ``hi``, both included."""
        return int(self._draw("randint", [lo, hi]))

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise ValueError("choice from an empty sequence")
        return items[self.randint(0, len(items) - 1)]

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A new list with the items in random order (items must be JSON values)."""
        return list(self._draw("shuffle", list(items)))


class ChanceNeeded(Exception):
    """Raised by ``NoRandomness``: the step would draw on chance."""


class NoRandomness(Rng):
    """An Rng that refuses to draw: for previews, which must not reveal a future draw."""

    def __init__(self) -> None:
        super().__init__("", 0)

    def _draw(self, op: str, args: list[Any]) -> Any:
        raise ChanceNeeded("this step draws on chance")
