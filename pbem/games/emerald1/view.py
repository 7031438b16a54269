"""What one seat may see, built by adding the pieces it is allowed (never copy-and-delete).

The public part (``public.public``) is made once per state and shared by every seat's view. A seat's own part
(``you``) is kept in the lineage memo in the seat's own place, with the player and what its points are worked out
from, so it never serves another seat; when the player changed, it is made again from parts (the hand's faces,
the discard pile's, the points by kind, ...) each kept while the list or dict of the player it shows is the same.
"""

from __future__ import annotations

from typing import Any

from pbem.games.emerald1 import engine, scoring
from pbem.games.emerald1.board import board_of
from pbem.games.emerald1.faces import card_face, face_table
from pbem.games.emerald1.memo import memo_of
from pbem.games.emerald1.public import public, score_deps, shared
from pbem.games.emerald1.state import State


def _pile(parts: dict[str, Any], name: str, cards: list[int], table: dict[int, dict[str, Any]]) -> Any:
    """The faces of a seat's hand or discard pile: kept while the pile is the same list (or an equal one); a pile
    that only grew keeps the faces it had."""
    found = parts.get(name)
    if found is not None and found[0] is cards:
        return found[1]
    if found is not None and found[0] == cards:
        faces = found[1]
    elif found is not None and len(found[0]) < len(cards) and cards[:len(found[0])] == found[0]:
        faces = found[1] + [table[c].copy() for c in cards[len(found[0]):]]
    else:
        faces = [table[c].copy() for c in cards]
    parts[name] = (cards, faces)
    return faces


def _you(s: State, seat: int, parts: dict[str, Any], deps: tuple[Any, ...],
         old: dict[str, Any] | None = None) -> dict[str, Any]:
    """The seat's own part of its view, from the parts kept for it in ``parts`` (the seat's own dict)."""
    cat = s.cat
    table = face_table(cat)
    p = s.players[seat]
    side = p.side
    key = (side, p.hand, p.deck, p.discard, p.yog_vp, p.hidden_necronomicons, s.phase == "over", deps)
    found = parts.get("by_kind")
    if found is not None and found[0] == key:
        by_kind, total = found[2], found[3]
    else:  # the points by kind read the scoring cards among the hand, deck and discard pile, not the piles
        mine = (side, scoring.holdings(s, seat), p.yog_vp, deps)
        if found is not None and found[1] == mine:
            by_kind, total = found[2], found[3]
        else:
            by_kind = scoring.breakdown(s, seat, side)
            total = sum(by_kind.values())
        parts["by_kind"] = (key, mine, by_kind, total)
    agents = p.double_agents
    counters = parts.get("double_agents")
    if counters is None or counters[0] is not agents:
        counters = parts["double_agents"] = (agents, [{"agent": a, "name": cat.cards[a].name}
                                                      for a in sorted(agents)])
    seen = p.seen
    told = parts.get("seen")
    if told is None or told[0] is not seen:
        told = parts["seen"] = (seen, [{"seat": t, "side": x} for t, x in sorted(seen.items())])
    g = cat.game
    limit = g["watson_hand_size"] if cat.pe_by_effect["watson"] in p.pes else g["hand_size"]
    if old is None:
        return {
            "seat": seat, "identity_card": p.identity, "side": side,
            "hand": _pile(parts, "hand", p.hand, table), "deck_size": len(p.deck),
            "discard": _pile(parts, "discard", p.discard, table),
            "double_agents": counters[1],
            "seen": told[1],
            "score_if_revealed": total,
            "vp_by_kind": by_kind,
            "hand_limit": limit,
        }
    e = old.copy()  # the same keys in the same order, for far less than a new dict
    e["identity_card"] = p.identity
    e["side"] = side
    e["hand"] = _pile(parts, "hand", p.hand, table)
    e["deck_size"] = len(p.deck)
    e["discard"] = _pile(parts, "discard", p.discard, table)
    e["double_agents"] = counters[1]
    e["seen"] = told[1]
    e["score_if_revealed"] = total
    e["vp_by_kind"] = by_kind
    e["hand_limit"] = limit
    return e


def you(s: State, seat: int, memo: dict[Any, Any] | None = None, now: tuple[Any, ...] | None = None) -> dict[str, Any]:
    """What only ``seat`` sees of itself: kept per seat while the player and what its points depend on stay.

    ``memo`` and ``now`` (``public.shared(s)``) may be given by a caller that has them already."""
    if memo is None:
        memo = memo_of(s)
    if now is None:
        now = shared(s)
    p = s.players[seat]
    kept = memo.get("you") if memo is not None else None
    if kept is None or len(kept) != len(s.players):
        kept = [None] * len(s.players)
        if memo is not None:
            memo["you"] = kept
    found = kept[seat]
    if found is not None and found[0] is p and found[1] is now:
        return found[3].copy()  # type: ignore[no-any-return]
    deps = score_deps(s, seat, board_of(s))
    parts: dict[str, Any] = found[4] if found is not None else {}
    if found is not None and found[0] is p and found[2] == deps:
        made = found[3]
    else:
        made = _you(s, seat, parts, deps, found[3] if found is not None and found[3]["seat"] == seat else None)
    kept[seat] = (p, now, deps, made, parts)
    return made.copy()  # type: ignore[no-any-return]


class _Views:
    """What every view of one state starts from (kept on the state)."""

    __slots__ = ("public", "memo", "now", "who", "step", "players", "over")

    def __init__(self, s: State) -> None:
        self.public = public(s)
        self.memo = s.__dict__.get("_memo")  # ``memo_of(s)``: ``public`` made it if it had to
        self.now = shared(s)
        self.who = engine.acting(s)
        self.step = bool(self.who is not None and self.who[1] == "turn" and s.step)
        self.players = s.players
        self.over = s.phase == "over"


def build_view(s: State, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (None: a spectator).

    Each view gets its own top-level dict (and its own ``you``); the values below are shared between views, and
    between the views of successive states, and must be read only. At the end of the game each view gets its own
    dict per city and player too, as it adds what the end reveals to them."""
    own = s.__dict__.get("_cache")
    if own is None:
        own = s.__dict__.setdefault("_cache", {})
    per: _Views | None = own.get("views")
    if per is None:
        per = own["views"] = _Views(s)
    cache = per.public
    view = cache.copy()
    view["seat"] = seat
    if per.over:
        cat = s.cat
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
    players = per.players
    if seat is not None and 0 <= seat < len(players):
        kept = per.memo.get("you") if per.memo is not None else None
        found = kept[seat] if kept is not None and len(kept) == len(players) else None
        if found is not None and found[0] is players[seat] and found[1] is per.now:
            view["you"] = found[3].copy()  # ``you``'s first answer, inline: most seats' views are this one
        else:
            view["you"] = you(s, seat, per.memo, per.now)
        who = per.who
        if who is not None and who[0] == seat:
            prompt = engine.prompt_json(s)
            if prompt is not None and prompt["seat"] == seat:
                view["prompt"] = prompt
            if per.step:
                view["step"] = dict(s.step)
    return view
