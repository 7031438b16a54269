"""A position of Nanty Narking in the game's own words (``docs/nanty-positions.md``): the whole table, every hand
and deck in order, and where the turn stands, as ``FromPosition.position`` gives it.

Areas, Random Events and personalities go by their names, cards by their printed numbers, players by seat number;
nothing is None (a position is written as TOML). ``STEP`` and ``ASK`` name the turn's record (``State.pending``) in
words; ``pbem.games.nanty.setup_position`` reads them back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.games.nanty.data import Catalog
from pbem.games.nanty.state import State

# the turn's record in words: (internal key, word)
STEP = (("plays", "cards_to_play"), ("played", "cards_played"), ("powers", "powers_used"), ("card", "card"),
        ("i", "next_symbol"), ("ask", "question"), ("event", "random_event"))
QUESTION_KINDS = {"interrupt": "interrupt", "holborn": "Holborn", "murder": "murder", "flood": "flood",
                  "subsidence": "subsidence", "discard": "Westminster"}
ASK = (("kind", "kind"), ("seat", "player"), ("area", "area"), ("agents", "agents"), ("building", "building"),
       ("event", "random_event"), ("effect", "effect"), ("next", "still_to_ask"))
EFFECT = (("type", "what"), ("seat", "by"), ("victim", "victim"), ("area", "area"), ("to", "to"))
EVENT = (("id", "name"), ("stage", "stage"), ("area", "area"), ("last", "last"), ("left", "left"),
         ("owner", "owner"), ("queue", "queue"), ("flooded", "flooded"), ("move", "move"), ("target", "target"),
         ("saved", "saved"))
PAWNS = {"grenadier": "Grenadier", "citizen": "New Citizen"}


def _area(cat: Catalog, area: str) -> str:
    return cat.areas[area].name


def _card(cat: Catalog, card: int) -> str:
    return cat.cards[card].number


def _event_name(cat: Catalog, eid: str) -> str:
    return str(cat.events[eid]["name"])


def _person(state: State, pid: str) -> str:
    return str(state.cat.personality(state.variant, pid)["name"])


def question_words(cat: Catalog, ask: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, word in ASK:
        if key not in ask:
            continue
        value = ask[key]
        if key == "kind":
            value = QUESTION_KINDS[value]
        elif key == "area":
            value = _area(cat, value)
        elif key == "event":
            value = _event_name(cat, value)
        elif key == "effect":
            value = {w: (_area(cat, value[k]) if k in ("area", "to") else value[k]) for k, w in EFFECT if k in value}
        elif key == "next":
            value = list(value)
        out[word] = value
    return out


def event_words(cat: Catalog, event: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, word in EVENT:
        if key not in event or event[key] is None:
            continue
        value = event[key]
        if key == "id":
            value = _event_name(cat, value)
        elif key in ("area", "last"):
            value = _area(cat, value)
        elif key == "flooded":
            value = [_area(cat, a) for a in value]
        elif key == "queue":
            value = [{"player": q[0], "area": _area(cat, q[1])} if isinstance(q, list) else q for q in value]
        elif key == "target":
            value = PAWNS.get(value, value)
        elif key == "saved":
            value = dict(value)
        out[word] = value
    return out


def step_words(state: State) -> dict[str, Any]:
    """``[turn]``: whose turn it is and, inside it, the turn's record in words."""
    cat = state.cat
    turn: dict[str, Any] = {"number": state.turn, "player": state.active}
    p = state.pend()
    for key, word in STEP:
        value = p.get(key)
        if value is None or (key == "i" and p.get("card") is None):
            continue
        if key == "powers":
            value = [_area(cat, a) for a in value]
        elif key == "card":
            value = _card(cat, value)
        elif key == "i":
            value = value + 1
        elif key == "ask":
            value = question_words(cat, value)
        elif key == "event":
            value = event_words(cat, value)
        turn[word] = value
    return turn


def position(state: State) -> dict[str, Any]:
    """The whole position at ``state``, in the game's own words (a game that ended gives its final table)."""
    cat = state.cat
    players = [{"seat": seat, "name": state.names[seat],
                "personality": _person(state, pl.personality) if pl.personality else "",
                "money": pl.money, "hand": [_card(cat, c) for c in pl.hand],
                "loans": [_card(cat, c) for c in pl.loans]} for seat, pl in enumerate(state.players)]
    areas: dict[str, Any] = {}
    for area, sp in zip(cat.area_ids, state.spots):
        words: dict[str, Any] = {"agents": list(sp.agents)}
        if sp.building >= 0:
            words["building"] = sp.building
        words.update(trouble=sp.trouble, grenadiers=sp.grenadiers, new_citizens=sp.citizens, power_lost=sp.disabled)
        areas[_area(cat, area)] = words
    return {"bank": state.bank, "deck": [_card(cat, c) for c in state.deck],
            "discard": [_card(cat, c) for c in state.discard],
            "random_events": [_event_name(cat, e) for e in state.event_deck],
            "random_events_done": [_event_name(cat, e) for e in state.events_done],
            "personalities_set_aside": [_person(state, pid) for pid in state.set_aside],
            "players": players, "areas": areas, "turn": step_words(state)}
