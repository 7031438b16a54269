"""Seeded positions of every game for the bot tests: games played offline by a cheap policy, kept at some moves."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Iterator

from events.envelope import Event
from events.rules import GameConfig, Rules
from pbem.bots.knowledge import Knowledge, knowledge_of
from pbem.bots.play import by_kind
from pbem.bots.table import Table, config_for
from pbem.games import all_games

GAMES = ("nanty", "emerald", "emerald1")


@dataclass(frozen=True)
class Position:
    """A game at one moment: its config, its log and the rules' state, and the seat that must act."""

    rules: Rules[Any]
    config: GameConfig
    events: tuple[Event, ...]
    state: Any
    seat: int

    def knowledge(self, seat: int | None = None, state: Any = None) -> Knowledge:
        """What ``seat`` (default: the one to act) may know; ``state`` stands in for the true state if given."""
        return knowledge_of(self.rules, self.rules.version, self.config, self.events,
                            self.state if state is None else state, self.seat if seat is None else seat)


def positions(game: str, players: int, seed: int, every: int, until: int) -> Iterator[Position]:
    """The positions of one seeded game at every ``every``-th move up to move ``until`` (each kind of action as
    likely as another, so games reach shuffles, reveals and the end)."""
    rules = all_games()[game]
    table = Table(rules, config_for(rules, players), f"bots-{game}-{players}-{seed}")
    pick = random.Random(seed)
    for move in range(until):
        seat = table.prompted()
        if seat is None:
            return
        if move % every == every - 1:
            yield Position(rules, table.config, tuple(table.events), table.state, seat)
        table.act(seat, by_kind(pick, rules.legal_actions(table.state, seat)))


def plain(value: Any) -> Any:
    """A view as JSON would carry it (tuples as lists), to compare two views."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    return value
