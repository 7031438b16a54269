"""The immutable game state, and the read-only questions the rules ask of it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")


def replace(obj: T, **changes: Any) -> T:
    """``dataclasses.replace`` without re-running ``__init__`` (ten times faster; fields are plain)."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    new.__dict__.update(changes)
    new.__dict__.pop("_public_view", None)    # a cache of the old state's public view
    new.__dict__.pop("_prompts", None)        # and of its prompts
    return new

from pbem.games.emerald.data import Catalog

LOYALIST = "loyalist"
RESTORATIONIST = "restorationist"


@dataclass(frozen=True)
class Kill:
    """An agent assassinated with a card that has a VP box: the agent lies on the card."""

    card: int
    victim: int
    vp: int
    type: str


@dataclass(frozen=True)
class Player:
    hand: tuple[int, ...] = ()
    deck: tuple[int, ...] = ()          # top first; its order is secret from everyone
    discard: tuple[int, ...] = ()
    kept: tuple[int, ...] = ()          # beside the Secret Identity card
    stock_agents: int = 0
    stock_cubes: int = 0
    limbo: int = 0
    identity: str = ""
    flipped: bool = False               # Change of Heart
    revealed: bool = False
    sanity: int = 0
    vp_neutral: int = 0
    vp_resto: int = 0
    vp_loyal: int = 0
    kills: tuple[Kill, ...] = ()
    migo: int = 0
    migo_turn: int = -1
    yog: int = 0
    black_hand: bool = False
    seen: tuple[tuple[int, str], ...] = ()   # Vladimir Burtsev: (seat, identity card)
    hidden_royalty: tuple[int, ...] = ()     # royalty cards taken with Hide Royalty (Loyalist points)

    @property
    def side(self) -> str:
        if not self.identity:
            return ""
        if self.flipped:
            return RESTORATIONIST if self.identity == LOYALIST else LOYALIST
        return self.identity


@dataclass(frozen=True)
class City:
    cubes: tuple[int, ...]
    agents: tuple[int, ...]
    zombies: tuple[int, ...]
    stack: tuple[int, ...] = ()         # top first; only the top card is face up
    royalty: int = 0                    # card in the Royalty slot, 0 if none


@dataclass(frozen=True)
class State:
    cat: Catalog
    names: tuple[str, ...]
    players: tuple[Player, ...]
    cities: tuple[City, ...]
    resto_track: int = 0
    loyal_track: int = 0
    zombie_supply: int = 0
    leopold: bool = False
    sanity_stock: int = 0
    removed: tuple[int, ...] = ()       # out of the game, face up
    boxed: tuple[int, ...] = ()         # game cards not dealt to the board (secret until the end)
    phase: str = "setup"                # setup | play | over
    active: int = 0
    first: int = 0
    turn: int = 0
    setup_queue: tuple[int, ...] = ()
    actions_done: int = 0
    pending: str = ""                   # JSON of the current action's next step, "" between actions
    interrupt: str = ""                 # JSON of an out-of-turn decision being waited for
    owed: tuple[tuple[int, int], ...] = ()   # Loyalists revealed: (seat, agents still to place)
    end_reason: str = ""
    # How this table reads the rules (the game's options, each named in ``options.OPTIONS``); the defaults here are
    # the readings of a game recorded before the option existed.
    free_after_actions: bool = True     # free actions may follow the second action
    scoring_action_kept: bool = True    # an Action card with points goes beside the identity card (ruling 1)
    cthulhu_takes_royalty: bool = False  # Cthulhu removes the Royalty card in the slot too (ruling 2)
    sherlock_stops_replacement: bool = True  # Sherlock Holmes stops Irene Adler and Vampires' action (ruling 3)
    assassination_clears_cubes: bool = True  # an agent's assassination clears the city's cubes (ruling 4)
    cthulhu_shows_cards: bool = True    # the face-down cards Cthulhu removes are shown (ruling 5)
    revision: int = 1                   # the rule fixes the game is played under (options.REVISION)

    def __getstate__(self) -> dict[str, Any]:
        """What a snapshot keeps: the fields, without the caches of the public view and the prompts."""
        kept = dict(self.__dict__)
        kept.pop("_public_view", None)
        kept.pop("_prompts", None)
        return kept

    # --- small readers -------------------------------------------------------------------

    @property
    def n(self) -> int:
        return len(self.players)

    def ci(self, city: str) -> int:
        return self.cat.city_ids.index(city)

    def city(self, city: str) -> City:
        return self.cities[self.cat.city_ids.index(city)]

    def pend(self) -> dict[str, Any]:
        return json.loads(self.pending) if self.pending else {}

    def intr(self) -> dict[str, Any]:
        return json.loads(self.interrupt) if self.interrupt else {}

    def pieces(self, city: str, seat: int) -> int:
        c = self.city(city)
        return c.cubes[seat] + c.agents[seat]

    def has_most(self, city: str, seat: int) -> bool:
        """More pieces (cubes and agents) than any other single player."""
        c = self.city(city)
        mine = c.cubes[seat] + c.agents[seat]
        return mine > 0 and all(c.cubes[s] + c.agents[s] < mine for s in range(self.n) if s != seat)

    def agents_in_cities(self, seat: int) -> int:
        return sum(c.agents[seat] for c in self.cities)

    def agents_on_board(self, seat: int) -> int:
        """Agents on the board; Mi-Go's agents count as on the board."""
        return self.agents_in_cities(seat) + self.players[seat].migo

    def cubes_on_board(self, seat: int) -> int:
        return self.players[seat].limbo + sum(c.cubes[seat] for c in self.cities)

    def track_points(self) -> int:
        return abs(self.resto_track - self.loyal_track)

    def total_vp(self, seat: int) -> int:
        p = self.players[seat]
        return p.vp_neutral + p.vp_resto + p.vp_loyal + sum(k.vp for k in p.kills) + self.track_points()

    def royalty_gained(self, seat: int) -> int:
        """Royalty cards this player took by assassination."""
        p = self.players[seat]
        return sum(1 for c in p.kept if self.cat.cards[c].kind == "royalty" and c not in p.hidden_royalty)

    # --- functional updates --------------------------------------------------------------

    def with_player(self, seat: int, **changes: Any) -> State:
        players = list(self.players)
        players[seat] = replace(players[seat], **changes)
        return replace(self, players=tuple(players))

    def with_city(self, city: str, **changes: Any) -> State:
        cities = list(self.cities)
        i = self.cat.city_ids.index(city)
        cities[i] = replace(cities[i], **changes)
        return replace(self, cities=tuple(cities))


def acting(state: State) -> tuple[int, str] | None:
    """The seat that must decide now and the kind of decision (turn, interrupt, owed, setup)."""
    if state.phase == "over":
        return None
    if state.interrupt:
        return state.intr()["seat"], "interrupt"
    if state.owed:
        return state.owed[0][0], "owed"
    if state.phase == "setup":
        return (state.setup_queue[0], "setup") if state.setup_queue else None
    return state.active, "turn"


def bump(values: tuple[int, ...], seat: int, delta: int) -> tuple[int, ...]:
    out = list(values)
    out[seat] += delta
    return tuple(out)


def without(cards: tuple[int, ...], remove: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    gone = set(remove)
    return tuple(c for c in cards if c not in gone)
