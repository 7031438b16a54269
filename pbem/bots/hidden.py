"""Placeholders for what a seat cannot see, bound to real values as the log shows them.

A game's sampler folds the log as its seat reads it. Where a payload is withheld (a shuffle, another player's
draw, a secret identity), it writes placeholders instead of the values: each placeholder stands for one value
drawn, without replacement, from a *pool* (the cards that were shuffled, the identities that were dealt). When
the log later shows a value (a card played, an identity revealed), the placeholder it came from is bound to it
and the pool loses it. What is still unbound at the end is drawn at random from what its pool has left: one
world among those consistent with everything the seat saw, as often as any other.

A pool may hold placeholders of older pools (a discard pile with cards nobody saw, shuffled into a new deck):
such a placeholder is bound, through the newer pool, when one of the values it could be is shown.
"""

from __future__ import annotations

import random
from typing import Any, Hashable, Iterable

Token = Hashable

INT_BASE = -1_000_000  # int placeholders count down from here: no card, counter or seat number is negative
STR_MARK = "\x00?"     # str placeholders start with a character no name or identity holds


class Contradiction(Exception):
    """The log cannot be explained by the pools as they stand: a value is shown that nothing could have been."""


def is_token(value: Any) -> bool:
    if isinstance(value, int) and not isinstance(value, bool):
        return value <= INT_BASE
    return isinstance(value, str) and value.startswith(STR_MARK)


class Pool:
    """Values (and older placeholders) not yet given to any of this pool's placeholders."""

    __slots__ = ("items", "tokens", "open", "left")

    def __init__(self, items: Iterable[Any]) -> None:
        self.items: list[Any] = list(items)
        self.tokens: list[Token] = []
        self.open = 0  # placeholders still unbound
        self.left: list[Token] | None = None  # which they are (worked out when needed)


class Hidden:
    """Every pool and placeholder of one sampled history, and what each placeholder has been bound to."""

    def __init__(self) -> None:
        self.pools: list[Pool] = []
        self.pool_of: dict[Token, Pool] = {}
        self.bound: dict[Token, Any] = {}  # a placeholder's value (a real value, never another placeholder)
        self._count = 0
        self._choices: dict[int, frozenset[Any]] = {}  # by pool, until the next binding
        self._open_pools: tuple[list[Pool], list[Pool]] | None = None
        self._open_stale = False

    # --- making placeholders --------------------------------------------------------------

    def pool(self, items: Iterable[Any]) -> Pool:
        """A new pool of ``items`` (real values, or placeholders of older pools), with no placeholder yet."""
        pool = Pool(items)
        self.pools.append(pool)
        return pool

    def tokens(self, pool: Pool, count: int, kind: type = int) -> list[Token]:
        """``count`` more placeholders drawn from ``pool``."""
        if pool.open + count > len(pool.items):  # every unbound placeholder needs an item of its own
            raise Contradiction(f"{count} more placeholders drawn from a pool of {len(pool.items)} left")
        made = [self._token(kind) for _ in range(count)]
        for t in made:
            self.pool_of[t] = pool
        pool.tokens = pool.tokens + made
        pool.open += count
        pool.left = None
        self._open_pools = None
        return made

    def placeholder(self, kind: type = str) -> Token:
        """A placeholder of no pool, whose value its sampler works out from others' (``draw`` leaves it out)."""
        return self._token(kind)

    def shuffle(self, items: Iterable[Any], kind: type = int) -> list[Token]:
        """A pool of ``items`` shuffled face down: one placeholder per item, in the order they lie."""
        pool = self.pool(items)
        return self.tokens(pool, len(pool.items), kind)

    def _token(self, kind: type) -> Token:
        self._count += 1
        return INT_BASE - self._count if kind is int else f"{STR_MARK}{self._count}"

    # --- what the log shows ---------------------------------------------------------------

    def value(self, item: Any) -> Any:
        """A real value, or what a placeholder is bound to (itself while unbound)."""
        return self.bound.get(item, item) if is_token(item) else item

    def could_be(self, token: Token, value: Any) -> bool:
        """Whether the unbound ``token`` could still turn out to be ``value``."""
        if token in self.bound:
            return bool(self.bound[token] == value)
        return value in self.choices(token)

    def choices(self, token: Token) -> frozenset[Any]:
        """Every value ``token`` could still turn out to be."""
        if token in self.bound:
            return frozenset((self.bound[token],))
        return self._pool_choices(self.pool_of[token])

    def _pool_choices(self, pool: Pool) -> frozenset[Any]:
        found = self._choices.get(id(pool))
        if found is None:
            values: set[Any] = set()
            for item in pool.items:
                if is_token(item):
                    values |= self.choices(item)
                else:
                    values.add(item)
            found = self._choices[id(pool)] = frozenset(values)
        return found

    def bind(self, token: Token, value: Any) -> None:
        """``token`` is shown to be ``value``. Raises ``Contradiction`` if it cannot be."""
        if token in self.bound:
            if self.bound[token] != value:
                raise Contradiction(f"a placeholder shown as {value!r} was already {self.bound[token]!r}")
            return
        self._choices.clear()
        pool = self.pool_of[token]
        items = pool.items
        for i, item in enumerate(items):  # a value the pool holds as itself first: it is certainly there
            if not is_token(item) and item == value:
                del items[i]
                break
        else:
            held = [(len(self.choices(x)), i) for i, x in enumerate(items) if is_token(x) and self.could_be(x, value)]
            if not held:
                raise Contradiction(f"{value!r} is shown where nothing could have been it")
            item = items.pop(min(held)[1])  # the likeliest to be it: the one with the fewest other values
            self.bind(item, value)
        self.bound[token] = value
        pool.open -= 1
        pool.left = None
        self._open_stale = True

    def pick(self, tokens: Iterable[Token], value: Any) -> Token:
        """Which of ``tokens`` (a player's unknown cards, say) to bind to ``value``: of those that could be it,
        the likeliest (the one with the fewest other values). Raises ``Contradiction`` if none could. Where
        several are alike, the first is as good as any: the values are drawn again at random for every world."""
        found = [(len(self.choices(t)), i, t) for i, t in enumerate(tokens)
                 if is_token(t) and t not in self.bound and self.could_be(t, value)]
        if not found:
            raise Contradiction(f"{value!r} is shown where nothing could have been it")
        return min(found)[2]

    # --- drawing a world ------------------------------------------------------------------

    def draw(self, rng: random.Random) -> dict[Token, Any]:
        """A value for every placeholder, at random among those consistent with what was shown."""
        # Only unbound placeholders are in a state or among a pool's items (a bound one is replaced at once).
        values: dict[Token, Any] = {}
        bound = self.bound
        shuffle = rng.shuffle
        for pool in self._open():  # older pools first: a pool's placeholders are only ever items of newer ones
            if pool.left is None:
                pool.left = [t for t in pool.tokens if t not in bound]
            items = [values.get(x, x) for x in pool.items]
            shuffle(items)
            values.update(zip(pool.left, items))
        return values

    def _open(self) -> list[Pool]:
        """The pools with a placeholder still unbound, in the order they were made (kept until the next change)."""
        if self._open_pools is None or len(self._open_pools[0]) != len(self.pools):
            self._open_pools = (list(self.pools), [p for p in self.pools if p.open])
        elif self._open_stale:
            self._open_pools = (self._open_pools[0], [p for p in self._open_pools[1] if p.open])
        self._open_stale = False
        return self._open_pools[1]

