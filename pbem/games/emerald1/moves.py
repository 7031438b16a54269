"""The legal choices of the basic actions: influence, claims, cubes, movement, markers, discards."""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from itertools import combinations
from typing import Any

from pbem.games.emerald1.data import Catalog
from pbem.games.emerald1.state import State

Action = dict[str, Any]


def subsets(cards: list[int], lo: int = 1) -> list[tuple[int, ...]]:
    cards = sorted(cards)
    out: list[tuple[int, ...]] = []
    for k in range(lo, len(cards) + 1):
        out.extend(combinations(cards, k))
    return out


def distinct(cards: list[int], s: State, key: str) -> list[tuple[int, ...]]:
    """Sets of cards (with at least one ``key`` symbol each)."""
    return subsets([c for c in cards if getattr(s.cat.cards[c], key) > 0])


# --- influence and claims ----------------------------------------------------------------

def place_city(place: str, s: State) -> str | None:
    """The city a place belongs to (a City box or the top card of its stack); None for Permanent Effects."""
    if place.startswith("city:"):
        return place[5:]
    card = int(place[5:])
    for city, stack in s.stacks.items():
        if stack and stack[0] == card:
            return city
    return None


def influence(s: State, place: str, seat: int) -> tuple[int, int, int]:
    """(influence, agents in the city, cubes) of ``seat`` on a place."""
    cubes = s.cube_list(place)[seat]
    city = place_city(place, s)
    if city is None:
        return cubes, 0, cubes
    agents = len(s.agents_in(city, seat))
    disc = 2 if s.owner.get(city) == seat and s.has_pe(seat, "cultists") else 0
    return cubes + agents + disc, agents, cubes


def claim_targets(s: State) -> list[str]:
    out = [f"card:{s.top(c)}" for c in s.cat.city_ids if s.top(c) is not None and c not in s.destroyed]
    out += [f"card:{p}" for p in s.pe_display]
    out += [f"city:{c}" for c in s.cat.city_ids if c not in s.destroyed]
    return out


def can_claim(s: State, seat: int, place: str) -> bool:
    if place in s.blocking:
        return False
    if s.cube_list(place)[seat] < 1:  # no cube of the seat there (``mine[2]`` below): the usual answer, at once
        return False
    city = place_city(place, s)
    if place.startswith("city:"):
        if city in s.bismarck or s.owner.get(city) == seat:
            return False
    mine = influence(s, place, seat)
    if mine[2] < 1:
        return False
    if place.startswith("city:") or s.cat.cards[int(place[5:])].kind in ("agent", "game"):
        if s.discs_free(seat) < (1 if place.startswith("city:") or s.cat.cards[int(place[5:])].kind == "agent" else 0):
            return False
    if s.readings.claim_full_tie == "nobody":  # no other player may have as much, agents counted
        return all(influence(s, place, o)[:2] < mine[:2] for o in range(s.n) if o != seat)
    return all(influence(s, place, o)[:2] <= mine[:2] for o in range(s.n) if o != seat)


def placeable(s: State, seat: int) -> list[str]:
    """Where ``seat`` may put Influence cubes: face-up Game cards, displayed Permanent Effects, City boxes."""
    out = []
    for c in s.cat.city_ids:
        if c in s.destroyed:
            continue
        if s.top(c) is not None and (c not in s.bismarck or s.bismarck[c] == seat):
            out.append(f"card:{s.top(c)}")
        if c not in s.bismarck:
            out.append(f"city:{c}")
    out += [f"card:{p}" for p in s.pe_display]
    return out


def place_options(s: State, seat: int) -> list[Action]:
    avail = s.players[seat].available
    out: list[Action] = []
    places: list[str] | None = None
    for cards in distinct(s.players[seat].hand, s, "cube"):
        total = sum(s.cat.cards[c].cube for c in cards)
        if total > avail and not (len(cards) == 1 and total == 2 and avail == 1):
            continue
        if avail < 1:
            continue
        if places is None:
            places = placeable(s, seat)
        out.extend({"kind": "place", "cards": list(cards), "to": p} for p in places)
    return out


def cubes_out(s: State, seat: int) -> int:
    return s.players[seat].limbo + sum(row[seat] for row in s.cubes.values())


def retrieve_options(s: State, seat: int) -> list[Action]:
    have = cubes_out(s, seat)
    out: list[Action] = []
    if have < 1:
        return out
    for cards in distinct(s.players[seat].hand, s, "cube"):
        total = sum(s.cat.cards[c].cube for c in cards)
        if total <= have or (len(cards) == 1 and total == 2 and have == 1):
            out.append({"kind": "retrieve", "cards": list(cards)})
    return out


def take_options(s: State, seat: int) -> list[Action]:
    out: list[Action] = [{"kind": "take", "from": "limbo"}] if s.players[seat].limbo else []
    return out + [{"kind": "take", "from": p} for p, row in sorted(s.cubes.items()) if row[seat] > 0]


def first_take(s: State, seat: int) -> Action | None:
    """``take_options(s, seat)[0]`` (None if there is none), without listing them: a prompt's default."""
    if s.players[seat].limbo:
        return {"kind": "take", "from": "limbo"}
    places = [p for p, row in s.cubes.items() if row[seat] > 0]
    return {"kind": "take", "from": min(places)} if places else None


def buy_options(s: State, seat: int) -> list[Action]:
    pool = s.players[seat].pool
    out: list[Action] = []
    for cards in distinct(s.players[seat].hand, s, "gold"):
        total = sum(s.cat.cards[c].gold for c in cards)
        if total % 2 == 0 and 1 <= total // 2 <= pool:
            out.append({"kind": "buy", "cards": list(cards)})
    return out


# --- movement ----------------------------------------------------------------------------

def route_costs(s: State, seat: int, start: str) -> dict[str, int]:
    """The cheapest cost from ``start`` to every city an agent of ``seat`` may reach.

    A junction is one connection at one price between any two of its arms. No route passes
    through or into a destroyed city or another player's Bismarck city.
    """
    destroyed = frozenset(s.destroyed)
    others = frozenset(c for c, o in s.bismarck.items() if o != seat) if s.bismarck else frozenset()
    key = (start, destroyed, others)
    table = _routes(s.cat)
    found = table.get(key)
    if found is None:
        found = table[key] = _route_costs(s, seat, start, destroyed)
    return found.copy()


def _routes(cat: Catalog) -> dict[Any, dict[str, int]]:
    """Routes found, by (start, destroyed cities, other players' Bismarck cities): all they depend on."""
    found = cat.__dict__.get("_routes")
    if found is None:
        found = {}
        object.__setattr__(cat, "_routes", found)
    return found  # type: ignore[no-any-return]


def _route_costs(s: State, seat: int, start: str, destroyed: frozenset[str]) -> dict[str, int]:
    best = {start: 0}
    heap = [(0, start)]
    links = _links(s.cat)
    while heap:
        cost, city = heapq.heappop(heap)
        if cost > best.get(city, 1 << 30):
            continue
        if city != start and s.locked_against(city, seat):
            continue
        for nxt, price in links.get(city, ()):
            if nxt in destroyed:
                continue
            c = cost + price
            if c < best.get(nxt, 1 << 30):
                best[nxt] = c
                heapq.heappush(heap, (c, nxt))
    return {c: v for c, v in best.items() if c != start and not s.locked_against(c, seat)}


def _links(cat: Catalog) -> dict[str, list[tuple[str, int]]]:
    """Each city's (other city, price) over every connection it is an arm of, in the order of ``cat.edges`` (so
    that routes are found, and listed, in the same order as by walking the edges)."""
    found = cat.__dict__.get("_links")
    if found is None:
        found = {c: [(nxt, price) for arms, price in cat.edges if c in arms for nxt in arms if nxt != c]
                 for c in cat.city_ids}
        object.__setattr__(cat, "_links", found)
    return found  # type: ignore[no-any-return]


def payments(s: State, cards: list[int], cost: int) -> list[tuple[int, ...]]:
    """Sets of gold cards paying ``cost`` exactly (or one two-gold card paying a cost of one)."""
    out = []
    for combo in distinct(cards, s, "gold"):
        total = sum(s.cat.cards[c].gold for c in combo)
        if total == cost or (cost == 1 and len(combo) == 1 and total == 2):
            out.append(combo)
    return out


def can_pay(s: State, cards: list[int], cost: int) -> bool:
    """``cost == 0 or bool(payments(s, cards, cost))``, from the sums the gold cards can make."""
    return cost == 0 or cost in payable(s, cards)


def payable(s: State, cards: list[int]) -> frozenset[int]:
    """Every cost some of ``cards`` pay (``payments``): the sum of the gold of any set of cards with gold, and
    one if a single card has two."""
    table = s.cat.cards
    golds = [table[c].gold for c in cards if table[c].gold > 0]
    sums: set[int] = set()
    for g in golds:
        sums |= {x + g for x in sums}
        sums.add(g)
    if 2 in golds:
        sums.add(1)
    return frozenset(sums)


def move_options(s: State, seat: int, step: dict[str, Any] | None = None) -> list[Action]:
    return list(iter_move_options(s, seat, step))


def iter_move_options(s: State, seat: int, step: dict[str, Any] | None = None) -> Iterator[Action]:
    """The moves (then, during a move, the payments) one at a time: a prompt's default needs only the first."""
    hand = s.players[seat].hand
    moved = set(step["moved"]) if step else set()
    spent = step["cost"] if step else 0
    paid: frozenset[int] | None = None  # what the hand can pay (``can_pay``), once asked
    for key in sorted(s.controlled(seat)):
        if key in moved:
            continue
        for city, cost in route_costs(s, seat, s.agents[key]["city"]).items():
            if spent + cost != 0:
                if paid is None:
                    paid = payable(s, hand)
                if spent + cost not in paid:
                    continue
            yield {"kind": "move", "agent": key, "to": city}
    if step:
        for c in payments(s, hand, spent):
            yield {"kind": "pay", "cards": list(c)}


# --- markers and discards ----------------------------------------------------------------

def marker_options(s: State, seat: int) -> list[Action]:
    cards = [c for c in s.players[seat].hand if s.cat.cards[c].arrows]
    top = s.cat.game["track_top"]
    out: list[Action] = []

    def walk(i: int, chosen: list[list[int]], war: int, rev: int) -> None:
        if i == len(cards):
            if chosen:
                out.append({"kind": "markers", "plays": [list(x) for x in chosen]})
            return
        walk(i + 1, chosen, war, rev)
        for j, (track, steps) in enumerate(s.cat.cards[cards[i]].arrows):
            cur = war if track == "war" else rev
            to = max(0, min(top, cur + steps))
            if to == cur:
                continue
            walk(i + 1, chosen + [[cards[i], j]], to if track == "war" else war, to if track == "revolution" else rev)

    cards.sort()
    walk(0, [], s.war, s.revolution)
    return out


def discard_options(s: State, seat: int) -> list[Action]:
    out: list[Action] = []
    for cards in subsets(s.players[seat].hand):
        for shown in cards:
            out.append({"kind": "discard", "cards": list(cards), "shown": shown})
    return out
