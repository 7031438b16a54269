"""What one seat may see, built by adding the pieces it is allowed (never copy-and-delete).

The public part (``public.public``) is made once per state and shared by every seat's view; a seat's own part
(``you``) is kept in the lineage memo under the seat's number, with the player and the containers its points are
worked out from, so it never serves another seat and is made again as soon as anything it shows may have changed.
"""

from __future__ import annotations

from typing import Any

from pbem.games.emerald1 import engine, scoring
from pbem.games.emerald1.faces import card_face
from pbem.games.emerald1.memo import memo_of
from pbem.games.emerald1.public import public
from pbem.games.emerald1.state import State

def _you(s: State, seat: int) -> dict[str, Any]:
    cat = s.cat
    p = s.players[seat]
    by_kind = scoring.breakdown(s, seat, p.side)
    return {
        "seat": seat, "identity_card": p.identity, "side": p.side,
        "hand": [card_face(cat, c) for c in p.hand], "deck_size": len(p.deck),
        "discard": [card_face(cat, c) for c in p.discard],
        "double_agents": [{"agent": a, "name": cat.cards[a].name} for a in sorted(p.double_agents)],
        "seen": [{"seat": t, "side": side} for t, side in sorted(p.seen.items())],
        "score_if_revealed": sum(by_kind.values()),
        "vp_by_kind": by_kind,
        "hand_limit": s.hand_limit(seat),
    }


def you(s: State, seat: int) -> dict[str, Any]:
    """What only ``seat`` sees of itself: kept per seat while the player and what its points depend on stay."""
    memo = memo_of(s)
    p = s.players[seat]
    deps = (s.cat, s.owner, s.royal, s.agents, s.zombies, s.war_max, s.revolution_max)
    key = ("you", seat)
    found = memo.get(key) if memo is not None else None
    if found is not None and found[0] is p and found[1] == deps:
        return dict(found[2])
    made = _you(s, seat)
    if memo is not None:
        memo[key] = (p, deps, made)
    return dict(made)


def build_view(s: State, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (None: a spectator).

    Each view gets its own top-level dict (and its own ``you``); the values below are shared between views, and
    between the views of successive states, and must be read only. At the end of the game each view gets its own
    dict per city and player too, as it adds what the end reveals to them."""
    cat = s.cat
    own = s.__dict__.setdefault("_cache", {})
    cache = own.get("public")
    if cache is None:
        cache = own["public"] = public(s)
    view = dict(cache)
    view["seat"] = seat
    over = s.phase == "over"
    if over:
        view["players"] = [dict(e) for e in cache["players"]]
        view["cities"] = [dict(e) for e in cache["cities"]]
        for i, p in enumerate(s.players):
            e = view["players"][i]
            e.update(side=p.side, identity_card=p.identity, hand=[card_face(cat, c) for c in p.hand],
                     deck=[card_face(cat, c) for c in p.deck], discard=[card_face(cat, c) for c in p.discard],
                     double_agent_counters=sorted(p.double_agents),
                     vp_by_kind=scoring.breakdown(s, i, p.side, final=True))
        for e, cid in zip(view["cities"], cat.city_ids):
            e["stack"] = [card_face(cat, c) for c in s.stacks[cid]]
        view["boxed"] = [card_face(cat, c) for c in s.boxed]
        view["outcome"] = scoring.final_scores(s).to_json()
    if seat is not None and 0 <= seat < s.n:
        view["you"] = you(s, seat)
        who = engine.acting(s)
        if who is not None and who[0] == seat:
            prompt = engine.prompts(s).get(seat)
            if prompt is not None:
                view["prompt"] = prompt.to_json()
            if who[1] == "turn" and s.step:
                view["step"] = dict(s.step)
    return view
