"""The immutable game state, and the read-only questions the rules ask of it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Mapping, TypeVar

from pbem.games.nanty.data import Catalog
from pbem.games.nanty.readings import Readings

T = TypeVar("T")
BANK = -1   # the bank, where money moves between a seat and the bank


def replace(obj: T, **changes: Any) -> T:
    """``dataclasses.replace`` without re-running ``__init__`` (fields are plain values)."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    new.__dict__.update(changes)
    new.__dict__.pop("_public_view", None)
    if "pending" in changes:
        new.__dict__.pop("_pend", None)
    return new


@dataclass(frozen=True)
class Player:
    hand: tuple[int, ...] = ()
    money: int = 0
    personality: str = ""            # secret: only its owner sees it before the end
    loans: tuple[int, ...] = ()      # loan cards kept in front of the player


@dataclass(frozen=True)
class Spot:
    """One area of the board."""

    agents: tuple[int, ...]
    building: int = -1               # the seat owning the building, -1 if none
    trouble: bool = False
    grenadiers: int = 0
    citizens: int = 0
    disabled: bool = False           # Inigo Jones: the area's power is lost for the game

    @property
    def pawns(self) -> int:
        return sum(self.agents) + self.grenadiers + self.citizens


@dataclass(frozen=True)
class State:
    cat: Catalog
    names: tuple[str, ...]
    variant: str                     # "standard" | "classic" personalities
    players: tuple[Player, ...]
    spots: tuple[Spot, ...]
    bank: int = 0
    deck: tuple[int, ...] = ()       # top first; the order is secret from everyone
    discard: tuple[int, ...] = ()    # face up, newest last
    event_deck: tuple[str, ...] = ()  # top first; secret
    events_done: tuple[str, ...] = ()
    set_aside: tuple[str, ...] = ()  # personalities not dealt; secret
    grenadiers: int = 0              # in the supply
    citizens: int = 0                # in the supply
    phase: str = "setup"             # setup | play | over
    active: int = 0
    turn: int = 0
    pending: str = ""                # JSON: the turn's bookkeeping (see engine.fresh_turn)
    end_reason: str = ""
    winners: tuple[int, ...] = ()
    grenadiers_disable: bool = True  # rules option: a Grenadier disables its area's power (GUIDE C2-3)
    readings: Readings = Readings()  # the contested rulings' readings and the rules' revision (options)

    def __getstate__(self) -> dict[str, Any]:
        """What a snapshot keeps: the fields, without the cache of the public view."""
        kept = dict(self.__dict__)
        kept.pop("_public_view", None)
        kept.pop("_pend", None)
        return kept

    # --- small readers -------------------------------------------------------------------

    @property
    def n(self) -> int:
        return len(self.players)

    def pend(self) -> Mapping[str, Any]:
        """The turn's bookkeeping, to read (never to change: it is decoded once per ``pending`` text and shared by
        every state that keeps it; ``pend_to_change`` gives a copy of one's own)."""
        found: Mapping[str, Any] | None = self.__dict__.get("_pend")
        if found is None:
            found = self.__dict__["_pend"] = self.pend_to_change()
        return found

    def pend_to_change(self) -> dict[str, Any]:
        return json.loads(self.pending) if self.pending else {}

    def ai(self, area: str) -> int:
        return self.cat.area_ids.index(area)

    def spot(self, area: str) -> Spot:
        return self.spots[self.cat.area_ids.index(area)]

    def agents_on_board(self, seat: int) -> int:
        return sum(s.agents[seat] for s in self.spots)

    def agents_in_stock(self, seat: int) -> int:
        return int(self.cat.game["agents"]) - self.agents_on_board(seat)

    def buildings_of(self, seat: int) -> list[str]:
        return [a for a, s in zip(self.cat.area_ids, self.spots) if s.building == seat]

    def buildings_in_stock(self, seat: int) -> int:
        return int(self.cat.game["buildings"]) - len(self.buildings_of(seat))

    def areas_with_agent(self, seat: int) -> list[str]:
        return [a for a, s in zip(self.cat.area_ids, self.spots) if s.agents[seat] > 0]

    def trouble_count(self) -> int:
        return sum(1 for s in self.spots if s.trouble)

    def neighbours(self, area: str) -> frozenset[str]:
        return self.cat.areas[area].neighbours

    def power_owner(self, area: str) -> int:
        """The seat holding the area's City Area card (its building's owner), -1 if nobody."""
        return self.spot(area).building

    def power_works(self, area: str) -> bool:
        """The area's power is not disabled by Inigo Jones, nor by a Grenadier (rules option)."""
        s = self.spot(area)
        return not s.disabled and not (self.grenadiers_disable and s.grenadiers > 0)

    # --- functional updates --------------------------------------------------------------

    def with_player(self, seat: int, **changes: Any) -> State:
        players = list(self.players)
        players[seat] = replace(players[seat], **changes)
        return replace(self, players=tuple(players))

    def with_spot(self, area: str, **changes: Any) -> State:
        spots = list(self.spots)
        i = self.cat.area_ids.index(area)
        spots[i] = replace(spots[i], **changes)
        return replace(self, spots=tuple(spots))


def bump(values: tuple[int, ...], seat: int, delta: int) -> tuple[int, ...]:
    out = list(values)
    out[seat] += delta
    return tuple(out)


def without(items: tuple[Any, ...], remove: Any) -> tuple[Any, ...]:
    """``items`` less one occurrence of each of ``remove``."""
    out = list(items)
    for x in remove:
        out.remove(x)
    return tuple(out)
