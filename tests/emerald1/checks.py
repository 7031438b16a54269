"""Invariants checked during playouts: conservation, hidden information, parse/format, refusal."""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest

from events.rng import Rng
from events.rules import ActionError
from pbem.games.emerald1 import RULES
from pbem.games.emerald1.state import State


def conserved(s: State) -> None:
    """Every cube, card, counter and piece is in exactly one place."""
    cat, g = s.cat, s.cat.game
    for seat, p in enumerate(s.players):
        cubes = p.available + p.pool + p.limbo + sum(row[seat] for row in s.cubes.values())
        assert cubes == g["cubes"], (seat, "cubes", cubes)
        assert min(p.available, p.pool, p.limbo) >= 0
        assert s.discs_used(seat) <= g["discs"], (seat, "discs")
    places: list[int] = []
    for stack in s.stacks.values():
        places.extend(stack)
    for p in s.players:
        places.extend(p.hand + p.deck + p.discard + p.pes)
    places.extend(s.removed + s.removed_secret + s.boxed + s.pe_deck + s.pe_display)
    places.extend(int(k) for k in s.migo)
    counts = Counter(places)
    assert all(v == 1 for v in counts.values()), [k for k, v in counts.items() if v > 1]
    expected = {cid for cid, c in cat.cards.items()
                if c.kind != "initial" or cid // 100 <= s.n}
    city_deck = {cid for cid in expected if cat.cards[cid].kind == "city"} - set(counts)
    assert set(counts) | city_deck == expected, expected ^ (set(counts) | city_deck)
    for city, cid in cat.city_card.items():
        assert (cid in city_deck) == (city not in s.owner or cid in s.removed) or cid in s.removed, city
    da = len(s.da_pool) + len(s.da_revealed) + sum(len(p.double_agents) for p in s.players)
    assert da == g["double_agents"]
    sanity = len(s.sanity_pool) + len(s.sanity_out) + sum(p.mad for p in s.players)
    assert sanity == g["sanity_sane"] + g["sanity_mad"]
    assert sum(sum(r) for r in s.zombies.values()) <= g["zombies"]
    assert all(min(r) >= 0 for r in s.zombies.values())
    assert len(s.blocking) <= g["blocking_discs"] and len(set(s.blocking)) == len(s.blocking)
    assert s.war <= g["track_top"] and s.revolution <= g["track_top"]


def _ids(value: Any, out: set[int]) -> None:
    if isinstance(value, dict):
        if {"id", "number", "name"} <= value.keys():
            out.add(value["id"])
        for v in value.values():
            _ids(v, out)
    elif isinstance(value, list):
        for v in value:
            _ids(v, out)


def no_leaks(s: State) -> None:
    """No view names a card hidden from its reader, nor another player's side or counters."""
    if s.phase == "over":
        return
    hidden_all = set(s.boxed) | set(s.pe_deck) | set(s.removed_secret)
    for st in s.stacks.values():
        hidden_all |= set(st[1:])
    for p in s.players:
        hidden_all |= set(p.deck)
    for seat in [None, *range(s.n)]:
        view = RULES.view(s, seat)
        ids: set[int] = set()
        _ids(view, ids)
        hidden = set(hidden_all)
        for other, p in enumerate(s.players):
            if other != seat:
                hidden |= set(p.hand)
                hidden |= set(p.discard[:-1])
        assert not ids & hidden, (seat, ids & hidden)
        for other, entry in enumerate(view["players"]):
            if other == seat:
                continue
            assert "hand" not in entry and "identity_card" not in entry
            assert ("side" in entry) == s.players[other].revealed
        text = json.dumps(view)
        assert "da_pool" not in text and "sanity_pool" not in text
        if seat is not None:
            assert view["you"]["identity_card"] == s.players[seat].identity


def accepts_listed(s: State, seat: int, legal: list[dict[str, Any]], rnd: random.Random) -> None:
    for a in rnd.sample(legal, min(3, len(legal))):
        RULES.decide(s, seat, a, Rng("probe"))


def refuses_unlisted(s: State, seat: int, legal: list[dict[str, Any]]) -> None:
    others = [o for o in range(s.n) if o != seat]
    for o in others[:1]:
        with pytest.raises(ActionError):
            RULES.decide(s, o, legal[0], Rng("probe"))
    for bad in ({"kind": "claim", "target": "city:atlantis"}, {"kind": "card", "card": 999},
                {"kind": "place", "cards": [999], "to": "city:berlin"}):
        if bad not in legal:
            with pytest.raises(ActionError):
                RULES.decide(s, seat, bad, Rng("probe"))


def round_trip(s: State, actions: list[dict[str, Any]]) -> None:
    for a in actions:
        text = RULES.format(s, a)
        assert RULES.parse(s, text) == a, (a, text)
