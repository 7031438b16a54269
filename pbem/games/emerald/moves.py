"""Enumerating the standard actions: which sets of cards pay for what, without overpaying."""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from typing import Any

from pbem.games.emerald.state import State

Action = dict[str, Any]


def subsets(items: list[int]) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    for k in range(1, len(items) + 1):
        out.extend(combinations(sorted(items), k))
    return out


def minimal_payments(cards: list[int], value: Callable[[int], int], cap: int) -> list[tuple[int, tuple[int, ...]]]:
    """Card sets whose symbols give ``min(total, cap)`` uses, where no card could be left out
    without losing a use (no deliberate overpaying). Returns (uses, cards) pairs."""
    out: list[tuple[int, tuple[int, ...]]] = []
    if cap <= 0:
        return out
    for combo in subsets(cards):
        total = sum(value(c) for c in combo)
        uses = min(total, cap)
        if uses <= 0:
            continue
        if all(min(total - value(c), cap) < uses for c in combo):
            out.append((uses, combo))
    return out


def hand_with(state: State, seat: int, symbol: str) -> list[int]:
    return [c for c in state.players[seat].hand if state.cat.cards[c].sym(symbol) > 0]


def place_options(state: State, seat: int) -> list[Action]:
    stock = state.players[seat].stock_cubes
    cat = state.cat
    pays = minimal_payments(hand_with(state, seat, "cube"), lambda c: cat.cards[c].sym("cube"), stock)
    return [{"kind": "place", "city": city, "count": uses, "cards": list(cards)}
            for uses, cards in pays for city in cat.city_ids]


def claimable_cities(state: State, seat: int, need_cube: bool = True) -> list[str]:
    out = []
    for city in state.cat.city_ids:
        c = state.city(city)
        if c.stack and state.has_most(city, seat) and (c.cubes[seat] > 0 or not need_cube):
            out.append(city)
    return out


def claim_options(state: State, seat: int) -> list[Action]:
    cities = claimable_cities(state, seat)
    if not cities:
        return []
    cat = state.cat
    cards = hand_with(state, seat, "claim")
    out = []
    for combo in subsets(cards):
        total = sum(cat.cards[c].sym("claim") for c in combo)
        for k in range(1, min(total, len(cities)) + 1):
            if not all(total - cat.cards[c].sym("claim") < k for c in combo):
                continue
            for chosen in combinations(cities, k):
                out.append({"kind": "claim", "cities": list(chosen), "cards": list(combo)})
    return out


def retrieve_options(state: State, seat: int) -> list[Action]:
    cat = state.cat
    pays = minimal_payments(hand_with(state, seat, "retrieve"), lambda c: cat.cards[c].sym("retrieve"),
                            state.cubes_on_board(seat))
    return [{"kind": "retrieve", "count": uses, "cards": list(cards)} for uses, cards in pays]


def move_options(state: State, seat: int) -> list[Action]:
    cat = state.cat
    pays = minimal_payments(hand_with(state, seat, "move"), lambda c: cat.cards[c].sym("move"),
                            state.agents_in_cities(seat))
    return [{"kind": "move", "count": uses, "cards": list(cards)} for uses, cards in pays]


def marker_options(state: State, seat: int) -> list[Action]:
    cat = state.cat
    cards = [c for c in state.players[seat].hand if cat.cards[c].sym("resto") or cat.cards[c].sym("loyal")]
    top = cat.game["track_max"]

    def result(resto: list[int], loyal: list[int]) -> tuple[int, int]:
        return (min(top, state.resto_track + sum(cat.cards[c].sym("resto") for c in resto)),
                min(top, state.loyal_track + sum(cat.cards[c].sym("loyal") for c in loyal)))

    out: list[Action] = []

    def walk(i: int, resto: list[int], loyal: list[int]) -> None:
        if i == len(cards):
            if not resto and not loyal:
                return
            final = result(resto, loyal)
            for c in resto:
                if result([x for x in resto if x != c], loyal) == final:
                    return
            for c in loyal:
                if result(resto, [x for x in loyal if x != c]) == final:
                    return
            out.append({"kind": "markers", "resto": sorted(resto), "loyal": sorted(loyal)})
            return
        c = cards[i]
        walk(i + 1, resto, loyal)
        if cat.cards[c].sym("resto"):
            walk(i + 1, resto + [c], loyal)
        if cat.cards[c].sym("loyal"):
            walk(i + 1, resto, loyal + [c])

    walk(0, [], [])
    return out


def discard_options(state: State, seat: int) -> list[Action]:
    return [{"kind": "discard", "cards": list(c)} for c in subsets(list(state.players[seat].hand))]


def bomb_value(state: State, seat: int, city: str, card: int) -> int:
    c = state.cat.cards[card]
    if c.text == "fenians":
        return state.city(city).agents[seat]   # each agent counts twice: one extra point per agent
    return c.sym("bomb")


def assassination_options(state: State, seat: int) -> list[Action]:
    cat = state.cat
    hand = state.players[seat].hand
    assassins = [c for c in hand if cat.cards[c].sym("assassinate")]
    if not assassins:
        return []
    out: list[Action] = []
    for city in cat.city_ids:
        c = state.city(city)
        if c.agents[seat] == 0 or not state.has_most(city, seat):
            continue
        targets: list[tuple[Any, int]] = []
        if c.royalty:
            targets.append(("royalty", cat.cards[c.royalty].defence))
        for other in range(state.n):
            if other != seat and c.agents[other] > 0:
                targets.append((other, cat.city_defence[city]))
        if not targets:
            continue
        base = c.agents[seat]
        for a in assassins:
            support = [x for x in hand if x != a and bomb_value(state, seat, city, x) > 0]
            by_def: dict[int, list[tuple[int, ...]]] = {}
            for defence in sorted({d for _, d in targets}):
                pays: list[tuple[int, ...]] = []
                if base >= defence:
                    pays.append(())
                else:
                    for combo in subsets(support):
                        total = base + sum(bomb_value(state, seat, city, x) for x in combo)
                        if total >= defence and all(total - bomb_value(state, seat, city, x) < defence
                                                    for x in combo):
                            pays.append(combo)
                by_def[defence] = pays
            for target, defence in targets:
                for combo in by_def[defence]:
                    out.append({"kind": "assassinate", "city": city, "target": target, "card": a,
                                "bombs": list(combo)})
    return out
