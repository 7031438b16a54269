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
            override: Mapping[str, Any] | None = None, options: Mapping[str, Any] | None = None,
            recorded: Mapping[str, Any] | None = None) -> Game:
        """``options`` as a new game records them (``RULES.options``); ``recorded``: exactly these, as a game
        recorded before some option existed holds them."""
        data = RULES.load_data(override)
        chosen = RULES.options({"personalities": variant, **(options or {})}) if recorded is None else dict(recorded)
        config = GameConfig(seats=tuple(Seat(i, NAMES[i]) for i in range(players)), options=chosen, data=data)
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
                   check: Any = None, options: Mapping[str, Any] | None = None) -> Game:
    """Play random legal actions until the game ends; ``check(game, seat, legal)`` runs before each step.

    Area powers and skips are chosen less often than the rest, so that games reach their ends.
    """
    game = Game.new(players, seed=f"playout-{players}-{seed}", variant=variant, options=options)
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


# --- described positions -------------------------------------------------------------------------

class Dice(Rng):
    """An Rng whose die rolls are given in advance (faces 1-12), for scenario tests."""

    def __init__(self, *faces: int) -> None:
        super().__init__("dice")
        self.faces = list(faces)

    def randint(self, lo: int, hi: int) -> int:
        assert self.faces, "the scenario rolled more dice than it gave"
        return self.faces.pop(0)


def card(symbols: list[str], scroll: str = "", interrupt: bool = False) -> int:
    """The number of a card of the default deck with exactly these symbols (and scroll effect)."""
    from pbem.games.nanty.data import catalog, load_data
    for c in catalog(load_data(None)).cards.values():
        if list(c.symbols) == symbols and (not scroll or c.scroll == scroll):
            return c.id
    raise LookupError(symbols)


def position(players: int = 3, *, active: int = 0, hands: Mapping[int, list[int]] | None = None,
             money: Mapping[int, int] | None = None, spots: Mapping[str, Mapping[str, Any]] | None = None,
             personalities: Mapping[int, str] | None = None, events: list[str] | None = None,
             deck: list[int] | None = None, variant: str = "standard",
             options: Mapping[str, Any] | None = None, recorded: Mapping[str, Any] | None = None) -> Game:
    """A game set to a described position: an empty board but for ``spots``, the given hands and money
    (the bank holds the rest of the £120), ``active`` to play with a fresh turn; ``options`` and ``recorded`` as
    ``Game.new`` takes them."""
    from pbem.games.nanty.engine import fresh_turn
    from pbem.games.nanty.state import Spot, replace
    import json
    game = Game.new(players, seed="scenario", variant=variant, options=options, recorded=recorded)
    s = game.state
    hands = hands or {}
    used = [c for h in hands.values() for c in h]
    rest = [c for c in s.cat.cards if c not in used]
    new_spots = []
    for area in s.cat.area_ids:
        d = dict((spots or {}).get(area, {}))
        agents = [0] * players
        for seat, count in dict(d.pop("agents", {})).items():
            agents[seat] = count
        new_spots.append(Spot(agents=tuple(agents), **d))
    s = replace(s, spots=tuple(new_spots), discard=(), deck=tuple(deck if deck is not None else rest),
                event_deck=tuple(events if events is not None else s.event_deck), events_done=(),
                active=active, pending=json.dumps(fresh_turn(), sort_keys=True))
    s = replace(s, grenadiers=s.cat.game["grenadiers"] - sum(x.grenadiers for x in s.spots),
                citizens=s.cat.game["citizens"] - sum(x.citizens for x in s.spots))
    s = replace(s, events_done=tuple(e for e in s.cat.events if e not in s.event_deck))
    for seat in range(players):
        s = s.with_player(seat, hand=tuple(hands.get(seat, [])), money=(money or {}).get(seat, 10), loans=())
        if personalities and seat in personalities:
            s = s.with_player(seat, personality=personalities[seat])
    s = replace(s, bank=s.cat.game["bank"] - sum(p.money for p in s.players))
    game.state = s
    return game


def run(game: Game, text: str, dice: Dice | None = None, seat: int | None = None) -> list[Event]:
    """Act with a text command (for the prompted seat), rolling ``dice``."""
    if seat is None:
        seat = game.who()
    action = RULES.parse(game.state, text)
    return game.fold(RULES.decide(game.state, seat, action, dice or Dice()), seat_actor(seat))


def said(events: list[Event]) -> list[str]:
    """The events in words, as the spectator reads them (the turn's bookkeeping left out)."""
    return [RULES.describe(e, None) for e in events if e.type != "nanty.StepSet"]
