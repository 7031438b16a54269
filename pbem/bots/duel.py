"""Bots against bots, offline: whole games with the seats rotated and each deal replayed for every rotation.

Game ``g`` is deal ``g // k`` (its seed ``S-deal``, so the same shuffles and identities) in rotation ``g % k``,
where ``k`` is the number of seats: in rotation ``r`` the bot listed ``i``-th sits at the table's seat
``(i + r) % k``, so every listed bot plays every seat of every deal. A seat's win share is its mean result (1 for a
win, 1/k for a win shared by k, 0 for a loss); its 95 % interval is Wilson's, over the games (rotations of one deal
are counted as separate games: they differ in every move after the deal). A game still going after
``MAX_ACTIONS`` actions counts as shared by all.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from pbem.bots.games import rules_of
from pbem.bots.levels import GreedyBot, RandomBot
from pbem.bots.play import Bot
from pbem.bots.search import SearchBot
from pbem.bots.table import Table, config_for

MAX_ACTIONS = 5000
LEVELS = ("random", "greedy", "search")

Factory = Callable[[str, Table], Bot]


def level_bot(level: str, budget: float = 1.0) -> Bot:
    """A bot of one of the ``LEVELS``; ``budget`` is the search's time per move, in seconds."""
    if level == "random":
        return RandomBot()
    if level == "greedy":
        return GreedyBot()
    if level == "search":
        return SearchBot(budget=budget)
    raise ValueError(f"unknown level {level!r}: one of {', '.join(LEVELS)}")


@dataclass
class SeatRecord:
    level: str
    results: list[float] = field(default_factory=list)
    move_ms: list[float] = field(default_factory=list)


@dataclass(frozen=True)
class DuelResult:
    game_type: str
    seats: tuple[str, ...]
    games: int
    win_share: tuple[float, ...]
    ci95: tuple[tuple[float, float], ...]
    ms_per_move: tuple[Mapping[str, float], ...]
    unfinished: int
    budget_ms: float

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game_type, "seats": list(self.seats), "games": self.games,
                "win_share": [round(x, 4) for x in self.win_share],
                "ci95": [[round(lo, 4), round(hi, 4)] for lo, hi in self.ci95],
                "ms_per_move": [dict(m) for m in self.ms_per_move], "unfinished": self.unfinished,
                "budget_ms": self.budget_ms}


def wilson(mean: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson's 95 % interval for a share ``mean`` observed over ``n`` games."""
    if n == 0:
        return (0.0, 1.0)
    denominator = 1 + z * z / n
    centre = (mean + z * z / (2 * n)) / denominator
    half = z * math.sqrt(mean * (1 - mean) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-quantile (0 to 1) of ``values``, by the nearest rank."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[rank - 1]


def duel(game_type: str, seats: Sequence[str], games: int, seed: str, budget: float = 1.0,
         factory: Factory | None = None, options: Mapping[str, Any] | None = None,
         progress: Callable[[int, tuple[int, ...]], None] | None = None) -> DuelResult:
    """Play ``games`` games of ``game_type`` between the bots listed in ``seats`` (one per seat, levels by name)."""
    rules = rules_of(game_type)
    k = len(seats)
    if not rules.min_seats <= k <= rules.max_seats:
        raise ValueError(f"{rules.title} is for {rules.min_seats} to {rules.max_seats} players, not {k}")
    make = factory or (lambda level, table: level_bot(level, budget))
    config = config_for(rules, k, options)
    records = [SeatRecord(level) for level in seats]
    unfinished = 0
    for g in range(games):
        deal, rotation = divmod(g, k)
        table = Table(rules, config, f"{seed}-{deal}")
        listed = [(t - rotation) % k for t in range(k)]  # table seat t is played by the bot listed listed[t]
        bots = [make(seats[listed[t]], table) for t in range(k)]
        chance = [random.Random(f"{seed}-{deal}-{rotation}-{t}") for t in range(k)]
        actions = 0
        while actions < MAX_ACTIONS:
            seat = table.prompted()
            if seat is None:
                break
            knowledge = table.knowledge(seat)
            began = time.perf_counter()
            choice = bots[seat].choose(knowledge, chance[seat])
            records[listed[seat]].move_ms.append(1000 * (time.perf_counter() - began))
            if choice.action not in knowledge.legal:
                raise RuntimeError(f"the {choice.bot} bot chose an action that is not legal: {choice.action}")
            table.act(seat, choice.action)
            actions += 1
        won = table.winners()
        if not won:
            unfinished += 1
            won = tuple(range(k))
        for t in range(k):
            records[listed[t]].results.append(1.0 / len(won) if t in won else 0.0)
        if progress is not None:
            progress(g + 1, tuple(listed[t] for t in won))
    shares = tuple(sum(r.results) / max(1, len(r.results)) for r in records)
    return DuelResult(
        game_type=game_type, seats=tuple(seats), games=games, win_share=shares,
        ci95=tuple(wilson(s, games) for s in shares),
        ms_per_move=tuple({"p50": round(percentile(r.move_ms, 0.5), 1), "p95": round(percentile(r.move_ms, 0.95), 1)}
                          for r in records),
        unfinished=unfinished, budget_ms=1000 * budget)
