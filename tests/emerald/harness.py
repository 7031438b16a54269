"""Play A Study in Emerald through RULES directly: NewEvents become Events, folded with evolve."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from events.envelope import Event, NewEvent, seat_actor
from events.rng import Rng
from events.rules import GameConfig, Seat
from pbem.games.emerald import RULES
from pbem.games.emerald.state import State, City, Player, bump, without

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
            options: Mapping[str, Any] | None = None) -> Game:
        """A new game: its options completed as the kernel records them (a new game's defaults unless chosen)."""
        data = RULES.load_data(override)
        config = GameConfig(seats=tuple(Seat(i, NAMES[i]) for i in range(players)),
                            options=RULES.options(dict(options or {})), data=data)
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
        """Act with a text command for the seat that must decide (or ``seat``)."""
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

    def types(self, events: list[Event]) -> list[str]:
        return [e.type.split(".", 1)[1] for e in events]


def random_playout(players: int, seed: int, max_steps: int = 4000, check: Any = None,
                   options: Mapping[str, Any] | None = None) -> Game:
    """Play random legal actions until the game ends; ``check(game, seat, legal)`` runs before each step."""
    game = Game.new(players, seed=f"playout-{players}-{seed}", options=options)
    chooser = random.Random(seed)
    for _ in range(max_steps):
        prompts = RULES.prompts(game.state)
        if not prompts:
            return game
        seat = next(iter(prompts))
        legal = RULES.legal_actions(game.state, seat)
        if check is not None:
            check(game, seat, legal)
        # prefer doing something over passing, so that games end in a sensible number of steps
        options = [a for a in legal if a["kind"] not in ("pass", "discard")] or legal
        game.act(seat, chooser.choice(options))
    raise AssertionError(f"game with {players} players, seed {seed} did not end in {max_steps} steps")


# --- building positions for scenario tests -----------------------------------------------------



INSANE = {"sanity_die": {"faces": ["insane"] * 6}}
SANE = {"sanity_die": {"faces": ["blank"] * 6}}


def started(players: int = 3, seed: str = "scenario", first: int | None = None,
            override: Mapping[str, Any] | None = None, die: str = "",
            options: Mapping[str, Any] | None = None) -> Game:
    """A game after setup, every setup agent placed in Berlin, then an empty board and empty hands.

    The board keeps its dealt Game Card spaces; hands, decks and discards are emptied into the box so
    each test can hand out exactly the cards it needs (``give``). Seat ``first`` (default 0) is to play.
    """
    if die:
        override = {**(override or {}), **(INSANE if die == "insane" else SANE)}
    game = Game.new(players, seed=seed, override=override, options=options)
    while game.state.phase == "setup":
        game.act(game.who(), {"kind": "place_agent", "city": "berlin"})
    s = game.state
    g = s.cat.game
    boxed = list(s.boxed)
    players_ = []
    for p in s.players:
        boxed.extend(p.hand + p.deck + p.discard)
        players_.append(replace(p, hand=(), deck=(), discard=(), stock_agents=g["agents"],
                                stock_cubes=g["cubes"] - g["cubes_in_limbo"], limbo=g["cubes_in_limbo"]))
    zeros = tuple(0 for _ in range(players))
    cities = tuple(replace(c, cubes=zeros, agents=zeros, zombies=zeros) for c in s.cities)
    game.state = replace(s, players=tuple(players_), cities=cities, boxed=tuple(boxed),
                         active=0 if first is None else first)
    return game


def _take_out(s: State, card: int) -> State:
    """Remove a card from wherever it is."""
    cities = tuple(replace(c, stack=without(c.stack, (card,)), royalty=0 if c.royalty == card else c.royalty)
                   for c in s.cities)
    players = tuple(replace(p, hand=without(p.hand, (card,)), deck=without(p.deck, (card,)),
                            discard=without(p.discard, (card,)), kept=without(p.kept, (card,))) for p in s.players)
    return replace(s, cities=cities, players=players, removed=without(s.removed, (card,)),
                   boxed=without(s.boxed, (card,)))


def give(game: Game, seat: int, *cards: int, where: str = "hand") -> None:
    """Put cards into a seat's hand (or deck, top first / discard / kept)."""
    s = game.state
    for c in cards:
        s = _take_out(s, c)
    p = s.players[seat]
    s = s.with_player(seat, **{where: getattr(p, where) + tuple(cards)})
    game.state = s


def to_box(game: Game, *cards: int) -> None:
    s = game.state
    for c in cards:
        s = _take_out(s, c)
    game.state = replace(s, boxed=s.boxed + tuple(cards))


def put(game: Game, city: str, seat: int, cubes: int = 0, agents: int = 0, zombies: int = 0) -> None:
    """Add pieces of a seat to a city, from its stock."""
    s = game.state
    c = s.city(city)
    s = s.with_city(city, cubes=bump(c.cubes, seat, cubes), agents=bump(c.agents, seat, agents),
                    zombies=bump(c.zombies, seat, zombies))
    p = s.players[seat]
    s = s.with_player(seat, stock_cubes=p.stock_cubes - cubes, stock_agents=p.stock_agents - agents)
    game.state = replace(s, zombie_supply=s.zombie_supply - zombies)


def top(game: Game, city: str, *cards: int) -> None:
    """Make ``cards`` the top of a Game Card space (the first is face up)."""
    s = game.state
    for c in cards:
        s = _take_out(s, c)
    game.state = s.with_city(city, stack=tuple(cards) + s.city(city).stack)


def clear_stack(game: Game, city: str) -> None:
    to_box(game, *game.state.city(city).stack)


def slot(game: Game, city: str, card: int) -> None:
    s = _take_out(game.state, card) if card else game.state
    old = s.city(city).royalty
    if old:
        s = replace(s, boxed=s.boxed + (old,))
    game.state = s.with_city(city, royalty=card)


def set_player(game: Game, seat: int, **changes: Any) -> None:
    game.state = game.state.with_player(seat, **changes)


def set_state(game: Game, **changes: Any) -> None:
    game.state = replace(game.state, **changes)


def card_id(game: Game, name: str) -> int:
    found = [c.id for c in game.state.cat.cards.values() if c.name == name and c.kind != "start"]
    assert len(found) == 1, (name, found)
    return found[0]


def start_card(seat: int, number: str) -> int:
    return 100 * (seat + 2) + int(number[1:])


__all__ = ["City", "Game", "Player", "give", "put", "random_playout", "slot", "started", "top"]
