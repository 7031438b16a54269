"""What one seat may see, built by adding the pieces it is allowed (never copy-and-delete).

The public part (``public.public``) is made once per state and shared by every seat's view; a seat's own part
(``you``) is kept in the lineage memo under the seat's number, with the player and the containers its points are
worked out from, so it never serves another seat and is made again as soon as anything it shows may have changed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pbem.games.emerald1 import engine, scoring
from pbem.games.emerald1.faces import card_face
from pbem.games.emerald1.memo import memo_of
from pbem.games.emerald1.board import board_of
from pbem.games.emerald1.public import public, score_deps, shared
from pbem.games.emerald1.state import State

def _faces(s: State, memo: dict[Any, Any] | None, key: tuple[str, int], cards: list[int]) -> list[dict[str, Any]]:
    """The faces of a seat's hand or discard pile, kept per seat: a pile that only grew keeps the faces it had."""
    found = memo.get(key) if memo is not None else None
    if found is not None and (found[0] is cards or found[1] == cards):
        faces: list[dict[str, Any]] = found[2]
    elif found is not None and len(found[1]) < len(cards) and cards[:len(found[1])] == found[1]:
        faces = found[2] + [card_face(s.cat, c) for c in cards[len(found[1]):]]
    else:
        faces = [card_face(s.cat, c) for c in cards]
    if memo is not None and (found is None or found[0] is not cards):
        memo[key] = (cards, list(cards), faces)
    return faces


def _kept(memo: dict[Any, Any] | None, key: tuple[str, int], source: Any, make: Callable[[], Any]) -> Any:
    """``make()``, kept per seat while ``source`` (a list or dict of the player, replaced when it changes) is the
    same object or equal."""
    found = memo.get(key) if memo is not None else None
    if found is not None and (found[0] is source or found[1] == source):
        return found[2]
    value = make()
    if memo is not None:
        memo[key] = (source, type(source)(source), value)
    return value


def _by_kind(s: State, seat: int, memo: dict[Any, Any] | None, deps: tuple[Any, ...]) -> dict[str, int]:
    """``breakdown`` of the seat's points on its side, kept per seat while nothing it is worked out from changed:
    its side, its scoring cards, its sacrifices and ``deps`` (``public.score_deps``)."""
    p = s.players[seat]
    mine = (p.side, scoring.holdings(s, seat), p.yog_vp, deps)
    found = memo.get(("by_kind", seat)) if memo is not None else None
    if found is not None and found[0] == mine:
        return found[1]  # type: ignore[no-any-return]
    value = scoring.breakdown(s, seat, p.side)
    if memo is not None:
        memo[("by_kind", seat)] = (mine, value)
    return value


def _you(s: State, seat: int, memo: dict[Any, Any] | None, deps: tuple[Any, ...]) -> dict[str, Any]:
    cat = s.cat
    p = s.players[seat]
    by_kind = _by_kind(s, seat, memo, deps)
    return {
        "seat": seat, "identity_card": p.identity, "side": p.side,
        "hand": _faces(s, memo, ("hand", seat), p.hand), "deck_size": len(p.deck),
        "discard": _faces(s, memo, ("discard", seat), p.discard),
        "double_agents": _kept(memo, ("double_agents", seat), p.double_agents,
                               lambda: [{"agent": a, "name": cat.cards[a].name} for a in sorted(p.double_agents)]),
        "seen": _kept(memo, ("seen", seat), p.seen,
                      lambda: [{"seat": t, "side": side} for t, side in sorted(p.seen.items())]),
        "score_if_revealed": sum(by_kind.values()),
        "vp_by_kind": by_kind,
        "hand_limit": s.hand_limit(seat),
    }


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
    if found is not None and found[0] is p and found[2] == deps:
        made = found[3]
    else:
        made = _you(s, seat, memo, deps)
    kept[seat] = (p, now, deps, made)
    return made.copy()


class _Views:
    """What every view of one state starts from (kept on the state)."""

    __slots__ = ("public", "memo", "now", "who", "step")

    def __init__(self, s: State) -> None:
        self.public = public(s)
        self.memo = memo_of(s)
        self.now = shared(s)
        self.who = engine.acting(s)
        self.step = bool(self.who is not None and self.who[1] == "turn" and s.step)


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
    if s.phase == "over":
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
    if seat is not None and 0 <= seat < len(s.players):
        view["you"] = you(s, seat, per.memo, per.now)
        who = per.who
        if who is not None and who[0] == seat:
            prompt = engine.prompts(s).get(seat)
            if prompt is not None:
                view["prompt"] = prompt.to_json()
            if per.step:
                view["step"] = dict(s.step)
    return view
