"""Play Nanty Narking through RULES directly: NewEvents become Events, folded with evolve."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from events.envelope import Event, NewEvent, seat_actor
from events.rng import Rng
from events.rules import GameConfig, Seat
from pbem.games.nanty import RULES
from pbem.games.nanty.state import State

NAMES = ("ann", "bob", "cat", "dan")


def make_event(seq: int, ne: NewEvent, actor: str = "system") -> Event:
    return Event(game_id="g", seq=seq, type=ne.type, version=1, payload=dict(ne.payload),
                 actor=ne.actor or actor, visibility=ne.visibility, reveals=ne.reveals,
                 recorded_at="2026-01-01T00:00:00Z", cause={}, prev_hash="0" * 64, hash=f"{seq:064x}")


@dataclass
class Game:
    """A game in progress: config, live state, and every event so far."""

    config: GameConfig
    state: State
    rng: Rng
    events: list[Event] = field(default_factory=list)

    @classmethod
    def new(cls, players: int = 3, seed: str = "seed", variant: str = "standard",
            override: Mapping[str, Any] | None = None) -> Game:
        data = RULES.load_data(override)
        config = GameConfig(seats=tuple(Seat(i, NAMES[i]) for i in range(players)),
                            options={"personalities": variant}, data=data)
        rng = Rng(seed)
        game = cls(config, RULES.initial_state(config), rng)
        game.fold(RULES.setup(config, rng))
        return game

    def fold(self, new: list[NewEvent], actor: str = "system") -> list[Event]:
        out = []
        for ne in new:
            ev = make_event(len(self.events) + 1, ne, actor)
            self.events.append(ev)
            self.state = RULES.evolve(self.state, ev)
            out.append(ev)
        return out

    def act(self, seat: int, action: Mapping[str, Any]) -> list[Event]:
        return self.fold(RULES.decide(self.state, seat, action, self.rng), seat_actor(seat))

    def do(self, text: str, seat: int | None = None) -> list[Event]:
        if seat is None:
            seat = self.who()
        return self.act(seat, RULES.parse(self.state, text))

    def who(self) -> int:
        prompts = RULES.prompts(self.state)
        assert len(prompts) == 1, prompts
        return next(iter(prompts))

    def replay(self) -> State:
        state = RULES.initial_state(self.config)
        for ev in self.events:
            state = RULES.evolve(state, ev)
        return state

    @staticmethod
    def types(events: list[Event]) -> list[str]:
        return [e.type.split(".", 1)[1] for e in events]


def random_playout(players: int, seed: int, variant: str = "standard", max_steps: int = 5000,
                   check: Any = None) -> Game:
    """Play random legal actions until the game ends; ``check(game, seat, legal)`` runs before each step.

    Area powers and skips are chosen less often than the rest, so that games reach their ends.
    """
    game = Game.new(players, seed=f"playout-{players}-{seed}", variant=variant)
    chooser = random.Random(seed)
    for _ in range(max_steps):
        if game.state.phase == "over":
            return game
        prompts = RULES.prompts(game.state)
        assert prompts, "nobody is prompted in a game that is not over"
        seat = chooser.choice(sorted(prompts))
        legal = RULES.legal_actions(game.state, seat)
        assert legal, f"seat {seat} is prompted but has no legal action"
        if check is not None:
            check(game, seat, legal)
        game.act(seat, chooser.choice(legal))
    raise AssertionError(f"playout {players}/{seed} did not end in {max_steps} steps")
