"""Arrange a described position: a started game whose state a test sets up piece by piece."""

from __future__ import annotations

from typing import Any

from pbem.games.emerald1.state import LOYALIST, RESTORATIONIST, State
from tests.emerald1.harness import Game

L, R = LOYALIST, RESTORATIONIST


def started(players: int = 3, seed: str = "pos", cities: list[str] | None = None,
            options: dict[str, Any] | None = None, recorded: dict[str, Any] | None = None) -> Game:
    """A game after setup with every Main Agent placed (in Paris unless said) and seat 0 to play, under ``options``
    (a new game's defaults and revision unless said; ``recorded``: exactly the options a record holds)."""
    game = Game.new(players, seed=seed, options=options, recorded=recorded)
    game.start(cities)
    s = game.state.clone()
    s.active, s.first, s.turn = 0, 0, 1
    game.state = s
    return game


def unplace(s: State, card: int) -> None:
    """Take a card from wherever it is (so the test can put it somewhere)."""
    for p in s.players:
        for pile in (p.hand, p.deck, p.discard, p.pes):
            if card in pile:
                pile.remove(card)
    for stack in s.stacks.values():
        if card in stack:
            stack.remove(card)
    for pile in (s.boxed, s.pe_deck, s.pe_display, s.removed):
        if card in pile:
            pile.remove(card)


def hand(s: State, seat: int, cards: list[int]) -> None:
    """The seat's hand becomes exactly ``cards``; the cards it held go to the bottom of its deck."""
    p = s.players[seat]
    old = [c for c in p.hand if c not in cards]
    for c in cards:
        unplace(s, c)
    p.hand = list(cards)
    p.deck = [c for c in p.deck if c not in old] + old


def top(s: State, city: str, card: int, below: list[int] | None = None) -> None:
    """``card`` is the face-up top card of ``city``'s stack (with ``below`` under it)."""
    for c in [card, *(below or [])]:
        unplace(s, c)
    old = s.stacks[city]
    for c in old:
        s.boxed.append(c)
        if str(c) in s.agents and s.agents[str(c)]["where"] == "card":
            del s.agents[str(c)]
    s.stacks[city] = [card, *(below or [])]
    if s.cat.cards[card].kind == "agent":
        s.agents[str(card)] = {"owner": None, "where": "card", "city": city, "vampire": False, "main": False}


def agent(s: State, key: str | int, seat: int | None, city: str, vampire: bool = False) -> None:
    key = str(key)
    main = key.startswith("m")
    if not main:
        unplace_counter = s.agents.get(key)
        if unplace_counter and unplace_counter["where"] == "card":
            pass
    s.agents[key] = {"owner": seat, "where": "board", "city": city, "vampire": vampire, "main": main}


def side(s: State, seat: int, identity: str) -> None:
    s.players[seat].identity = identity


def cubes(s: State, place: str, seat: int, n: int) -> None:
    row = list(s.cube_list(place))
    p = s.players[seat]
    p.pool -= n - row[seat]
    row[seat] = n
    s.cubes[place] = row


def pe(s: State, seat: int, effect: str) -> int:
    card = s.cat.pe_by_effect[effect]
    unplace(s, card)
    s.players[seat].pes.append(card)
    return card


def display(s: State, effect: str) -> int:
    card = s.cat.pe_by_effect[effect]
    unplace(s, card)
    s.pe_display.append(card)
    return card


def sanity(s: State, *results: str) -> None:
    """The next Sanity counters drawn, in order (the rest of the pool stays below)."""
    s.sanity_pool = list(results) + s.sanity_pool[len(results):]


def sanity_next(s: State, *results: str) -> None:
    """The next Sanity counters drawn, in order, by reordering the pool (so that every counter stays counted)."""
    pool = list(s.sanity_pool)
    for i, result in enumerate(results):
        j = pool.index(result, i)
        pool[i], pool[j] = pool[j], pool[i]
    s.sanity_pool = pool


def arrange(game: Game, **changes: Any) -> State:
    s = game.state.clone()
    for k, v in changes.items():
        setattr(s, k, v)
    game.state = s
    return s


def kinds(events: list[Any]) -> list[str]:
    return [e.type.split(".", 1)[1] for e in events]


def payloads(events: list[Any], kind: str) -> list[dict[str, Any]]:
    return [dict(e.payload) for e in events if e.type == "emerald1." + kind]
