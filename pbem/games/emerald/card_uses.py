"""What each card's text allows now (its options), and where a card goes after its text is used."""

from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any

from pbem.games.emerald import moves
from pbem.games.emerald.state import State

Action = dict[str, Any]

FREE = ("free action", "one-use free action")
ACTION = ("action", "one-use action", "one-use action or interrupt")


def is_free(state: State, card: int) -> bool:
    return state.cat.cards[card].text_type in FREE


def has_vp(state: State, card: int) -> bool:
    c = state.cat.cards[card]
    return any(c.sym(k) for k in ("vp_neutral", "vp_resto", "vp_loyal"))


PLACED_BY_TEXT = ("mi_go", "yog_sothoth", "black_hand", "change_of_heart", "hide_royalty")


def destination(state: State, card: int) -> str:
    """Where a card goes after its text is used (docs/emerald-rulings.md, 1).

    Cards whose text places them beside the Secret Identity card (Mi-Go, Yog-Sothoth, Change of Heart, Hide
    Royalty, The Black Hand) go there. A one-use card with victory points goes there too, and so, where the table
    reads "Card action" that way, does an Action card with points; other one-use cards leave play, and the rest go
    to the discard pile.
    """
    c = state.cat.cards[card]
    if c.text in PLACED_BY_TEXT or keeps_points(state, card, c.one_use):
        return "kept"
    return "removed" if c.one_use else "discard"


def keeps_points(state: State, card: int, one_use: bool) -> bool:
    """Whether a card with victory points, just used for a text that is (or is not) one-use, goes beside the Secret
    Identity card: always when one-use; an Action card (or an interrupt) only where the table reads ruling 1 so."""
    return has_vp(state, card) and (one_use or state.scoring_action_kept)


def _agents_of_others(state: State, seat: int, cities: list[str] | None = None) -> list[tuple[int, str]]:
    out = []
    for city in cities or state.cat.city_ids:
        c = state.city(city)
        for v in range(state.n):
            if v != seat and c.agents[v] > 0:
                out.append((v, city))
    return out


def options(state: State, seat: int, card: int, free: bool) -> list[Action]:
    """The ways to use ``card``'s text now (only free ones if ``free``, else only actions)."""
    cdef = state.cat.cards[card]
    text = cdef.text
    if not text or cdef.text_type not in (FREE if free else ACTION):
        return []
    if text in ("zombies", "vampires") and state.leopold:
        return []
    pl = state.players[seat]
    base: Action = {"kind": "play", "card": card}
    cities = list(state.cat.city_ids)
    if text in ("golovinski", "draw_two", "peoples_will", "black_hand", "change_of_heart", "holy_brotherhood",
                "freud", "leopold", "zombies"):
        return [base]
    if text in ("mrs_hudson", "freemasons"):
        others = [c for c in pl.hand if c != card]
        return [{**base, "discard": []}] + [{**base, "discard": list(s)} for s in moves.subsets(others)]
    if text == "third_section":
        return [{**base, "city": c} for c in cities if state.city(c).stack]
    if text == "mi_go":
        mine = [c for c in cities if state.city(c).agents[seat] > 0]
        out = [{**base, "from": [c]} for c in mine]
        for a, b in combinations_with_replacement(mine, 2):
            if a != b or state.city(a).agents[seat] >= 2:
                out.append({**base, "from": sorted([a, b])})
        return out
    if text == "pinkerton":
        return [{**base, "city": c} for c in cities] if pl.stock_agents else []
    if text == "cthulhu":
        return [{**base, "city": c} for c in cities]
    if text == "duchess":
        return [{**base, "city": c} for c in moves.claimable_cities(state, seat, need_cube=False)]
    if text == "hide_royalty":
        return [{**base, "city": c} for c in cities if state.city(c).royalty and state.has_most(c, seat)]
    if text == "lestrade":
        return [{**base, "player": v, "city": c} for c in cities for v in range(state.n)
                if state.city(c).cubes[v] > 0]
    if text == "irene_adler":
        if not pl.stock_agents:
            return []
        return [{**base, "player": v, "city": c} for v, c in _agents_of_others(state, seat)]
    if text == "vampires":
        if not pl.stock_agents:
            return []
        mine = [c for c in cities if state.city(c).agents[seat] > 0]
        return [{**base, "player": v, "city": c} for v, c in _agents_of_others(state, seat, mine)] if mine else []
    if text == "shoggoth":
        return [{**base, "player": v, "city": c} for v, c in _agents_of_others(state, seat)]
    if text == "okhrana":
        spots = [(v, c) for c in cities for v in range(state.n) if state.city(c).cubes[v] > 0]
        out = [{**base, "cubes": [[v, c]]} for v, c in spots]
        for i, (v, c) in enumerate(spots):
            for w, d in spots[i:]:
                if (w, d) != (v, c) or state.city(c).cubes[v] >= 2:
                    out.append({**base, "cubes": sorted([[v, c], [w, d]])})
        return out
    if text in ("terrors", "burtsev"):
        return [{**base, "player": v} for v in range(state.n) if v != seat]
    if text == "yog_sothoth":
        return [base] if state.agents_in_cities(seat) else []
    return []
