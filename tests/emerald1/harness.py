"""Play the 1st edition through RULES directly: NewEvents become Events, folded with evolve."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from events.envelope import Event, NewEvent, seat_actor
from events.rng import Rng
from events.rules import GameConfig, Seat
from pbem.games.emerald1 import RULES
from pbem.games.emerald1.state import State

NAMES = ("ann", "bob", "cat", "dan", "eve")


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
    def new(cls, players: int = 3, seed: str = "seed", override: Mapping[str, Any] | None = None,
            options: Mapping[str, Any] | None = None, recorded: Mapping[str, Any] | None = None) -> Game:
        """A new game as the kernel makes one: ``options`` chosen, the others' defaults, the current revision; or,
        with ``recorded``, a game whose record holds exactly those options (``{}``: one recorded before any)."""
        config = GameConfig(seats=tuple(Seat(i, NAMES[i]) for i in range(players)),
                            options=dict(recorded) if recorded is not None else RULES.options(options or {}),
                            data=RULES.load_data(override))
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

    def who(self) -> int:
        return sorted(RULES.prompts(self.state))[0]

    def act(self, seat: int, action: Mapping[str, Any]) -> list[Event]:
        return self.fold(RULES.decide(self.state, seat, action, self.rng), seat_actor(seat))

    def do(self, text: str, seat: int | None = None) -> list[Event]:
        seat = self.who() if seat is None else seat
        return self.act(seat, RULES.parse(self.state, text))

    def legal(self, seat: int | None = None) -> list[dict[str, Any]]:
        return RULES.legal_actions(self.state, self.who() if seat is None else seat)

    def replay(self) -> State:
        state = RULES.initial_state(self.config)
        for ev in self.events:
            state = RULES.evolve(state, ev)
        return state

    def types(self, events: list[Event]) -> list[str]:
        return [e.type.split(".", 1)[1] for e in events]

    def start(self, cities: list[str] | None = None) -> None:
        """Place every Main Agent (in ``cities`` by seat, else Paris) and begin turn 1."""
        while self.state.phase == "setup":
            seat = self.who()
            self.act(seat, {"kind": "start", "city": (cities or ["paris"] * 5)[seat]})


Check = Callable[[Game, int, list[dict[str, Any]]], None]


def random_playout(players: int, seed: int, max_steps: int = 6000, check: Check | None = None,
                   options: Mapping[str, Any] | None = None) -> Game:
    game = Game.new(players, seed=f"playout-{players}-{seed}", options=options)
    pick = random.Random(seed)
    for _ in range(max_steps):
        if game.state.phase == "over":
            return game
        seat = game.who()
        legal = RULES.legal_actions(game.state, seat)
        assert legal, f"seat {seat} is prompted but has no legal action"
        if check:
            check(game, seat, legal)
        doing = [a for a in legal if a["kind"] not in ("pass", "discard")] or legal
        game.act(seat, pick.choice(doing))
    raise AssertionError(f"the game did not end within {max_steps} steps")
