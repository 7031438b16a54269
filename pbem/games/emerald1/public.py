"""The public part of a view: what every seat and a spectator see alike, made once per state.

A state shares with the one before it every container the event between them did not write, so most of the
public part of a view is what it was a moment ago. The parts (a city's entry, a player's entry, the displayed
Permanent Effects, the removed cards) are kept in the state's lineage memo (``memo.memo_of``) with the containers
they were made from, and made again only when one of those is no longer the same: a city's entry when its stack,
its cubes, its agents, ... changed (found by comparing the containers with those of the last time), a player's
entry when the player or a container its points or discs depend on changed.

Everything here is public: no part depends on a seat. The parts are shared between views and between states,
and must be read only.
"""

from __future__ import annotations

from typing import Any

from pbem.games.emerald1 import engine, scoring
from pbem.games.emerald1.data import Catalog
from pbem.games.emerald1.faces import agent_entry, card_face, place_entry, static_view
from pbem.games.emerald1.memo import memo_of
from pbem.games.emerald1.state import State

CITY_DEPS = ("stacks", "royal", "owner", "bismarck", "destroyed", "cubes", "blocking", "agents", "zombies")


class _Cities:
    """The city entries of a state, and what they were made from (to find which cities changed since)."""

    __slots__ = ("cat", "names", "refs", "entries", "tops", "on_board")

    def __init__(self, s: State, entries: dict[str, dict[str, Any]], on_board: dict[str, list[str]]) -> None:
        self.cat, self.names = s.cat, s.names
        self.refs = {name: getattr(s, name) for name in CITY_DEPS}
        self.entries = entries
        self.tops = {c: (st[0] if st else None) for c, st in s.stacks.items()}
        self.on_board = on_board


def _on_board(s: State) -> dict[str, list[str]]:
    on_board: dict[str, list[str]] = {}
    for k, a in s.agents.items():
        if a["where"] == "board":
            on_board.setdefault(a["city"], []).append(k)
    return on_board


def _city(s: State, cid: str, on_board: dict[str, list[str]]) -> dict[str, Any]:
    cat = s.cat
    fixed = static_view(cat)["cities"][cid]
    top = s.top(cid)
    royal = s.royal.get(cid)
    place = f"city:{cid}"
    return {
        **fixed,
        "royal": {**fixed["royal"], "taken_by": royal[0] if royal else None, "how": royal[1] if royal else None},
        "owner": s.owner.get(cid), "bismarck": s.bismarck.get(cid), "destroyed": cid in s.destroyed,
        "cubes": list(s.cube_list(place)), "blocked": place in s.blocking,
        "top": ({**card_face(cat, top), **place_entry(s, f"card:{top}"),
                 "agent_on_card": str(top) in s.agents and s.agents[str(top)]["where"] == "card"}
                if top is not None else None),
        "cards_left": len(s.stacks[cid]),
        "agents": [agent_entry(s, k) for k in sorted(on_board.get(cid, ()))],
        "zombies": list(s.zombies[cid])}


def _changed(s: State, old: _Cities) -> set[str] | None:
    """The cities whose entry may differ from ``old``'s (None: all of them)."""
    if s.cat is not old.cat or s.names is not old.names:
        return None
    refs = old.refs
    dirty: set[str] = set()
    if s.stacks is not refs["stacks"]:
        was = refs["stacks"]
        dirty.update(c for c, st in s.stacks.items() if was.get(c) != st)
        dirty.update(c for c in was if c not in s.stacks)
    for name in ("royal", "owner", "bismarck"):
        now, was = getattr(s, name), refs[name]
        if now is not was:
            dirty.update(c for c in now.keys() | was.keys() if now.get(c) != was.get(c))
    if s.destroyed is not refs["destroyed"]:
        dirty.update(set(s.destroyed) ^ set(refs["destroyed"]))
    if s.zombies is not refs["zombies"]:
        was = refs["zombies"]
        dirty.update(c for c in s.zombies.keys() | was.keys() if s.zombies.get(c) != was.get(c))
    places: set[str] = set()
    if s.cubes is not refs["cubes"]:
        was = refs["cubes"]
        places.update(p for p in s.cubes.keys() | was.keys() if s.cubes.get(p) != was.get(p))
    if s.blocking is not refs["blocking"]:
        places.update(set(s.blocking) ^ set(refs["blocking"]))
    if s.agents is not refs["agents"]:
        was = refs["agents"]
        for k in s.agents.keys() | was.keys():
            a, b = s.agents.get(k), was.get(k)
            if a is b or a == b:
                continue
            places.add(f"card:{k}")  # its counter may lie on the top card of a stack
            for rec in (a, b):
                if rec is not None and rec["where"] == "board":
                    dirty.add(rec["city"])
    if places:
        for c, st in s.stacks.items():
            if f"city:{c}" in places or (st and f"card:{st[0]}" in places):
                dirty.add(c)
    return dirty


def cities(s: State, memo: dict[Any, Any] | None) -> list[dict[str, Any]]:
    """Each city's entry, in the catalog's order: those of the last state where nothing they show changed."""
    old = memo.get("cities") if memo is not None else None
    dirty = _changed(s, old) if isinstance(old, _Cities) else None
    if dirty is None:
        on_board = _on_board(s)
        entries = {c: _city(s, c, on_board) for c in s.cat.city_ids}
    else:
        on_board = _on_board(s) if s.agents is not old.refs["agents"] else old.on_board  # type: ignore[union-attr]
        entries = dict(old.entries)  # type: ignore[union-attr]
        for c in dirty:
            if c in entries:
                entries[c] = _city(s, c, on_board)
    if memo is not None:
        memo["cities"] = _Cities(s, entries, on_board)
    return [entries[c] for c in s.cat.city_ids]


# --- players -----------------------------------------------------------------------------

def _player(s: State, i: int) -> dict[str, Any]:
    cat = s.cat
    p = s.players[i]
    e: dict[str, Any] = {
        "seat": i, "name": s.names[i], "vp": scoring.public_score(s, i), "known": p.known,
        "revealed": p.revealed, "available": p.available, "pool": p.pool, "limbo": p.limbo, "mad": p.mad,
        "hand_size": len(p.hand), "deck_size": len(p.deck), "discard_size": len(p.discard),
        "discard_top": card_face(cat, p.discard[-1]) if p.discard else None,
        "permanent_effects": [card_face(cat, c) for c in p.pes],
        "double_agents": len(p.double_agents), "main_agent_dead": p.main_dead,
        "kills": [agent_entry(s, k) | {"from": o} for k, o in p.kills],
        "sacrificed": len(p.yog), "mi_go": [agent_entry(s, k) for k in sorted(s.migo) if s.agents[k]["owner"] == i],
        "discs_left": s.discs_free(i), "change_of_heart": p.flipped}
    if p.revealed:
        e["side"] = p.side
    return e


def players(s: State, memo: dict[Any, Any] | None) -> list[dict[str, Any]]:
    """Each player's entry: the last one made while the player, and everything their points, discs, kills and
    Mi-go agents are worked out from, were the same."""
    out = []
    shared = (s.cat, s.names, s.owner, s.royal, s.agents, s.migo, s.zombies, s.war_max, s.revolution_max)
    for i, p in enumerate(s.players):
        key = ("player", i)
        found = memo.get(key) if memo is not None else None
        if found is not None and found[0] is p and found[1] == shared:
            out.append(found[2])
            continue
        e = _player(s, i)
        if memo is not None:
            memo[key] = (p, shared, e)
        out.append(e)
    return out


# --- the rest ----------------------------------------------------------------------------

def _kept(memo: dict[Any, Any] | None, key: str, deps: Any, make: Any) -> Any:
    found = memo.get(key) if memo is not None else None
    if found is not None and found[0] == deps:
        return found[1]
    value = make()
    if memo is not None:
        memo[key] = (deps, value)
    return value


def public(s: State) -> dict[str, Any]:
    """The public view of ``s`` (cached on the state: every seat's view starts from it)."""
    cat: Catalog = s.cat
    memo = memo_of(s)
    static = static_view(cat)
    display = s.pe_display
    rows = tuple((s.cubes.get(f"card:{c}"), f"card:{c}" in s.blocking) for c in display)
    return {
        "game": "emerald1", "phase": s.phase, "turn": s.turn, "active": s.active,
        "actions_done": s.actions_done, "actions": cat.game["actions"], "free_used": s.free_used,
        "tracks": {"war": s.war, "revolution": s.revolution, "war_max": s.war_max,
                   "revolution_max": s.revolution_max, "top_space": cat.game["track_top"],
                   "vp_spaces": static["vp_spaces"]},
        "victory_target": cat.game["victory_target"][str(s.n)],
        "cities": cities(s, memo), "players": players(s, memo),
        "map": static["map"],
        "permanent_effects_on_display": _kept(
            memo, "display", (cat, list(display), rows),
            lambda: [{**card_face(cat, c), **place_entry(s, f"card:{c}")} for c in display]),
        "permanent_effects_left": len(s.pe_deck),
        "removed": _kept(memo, "removed", (cat, list(s.removed)), lambda: [card_face(cat, c) for c in s.removed]),
        "removed_face_down": s.removed_hidden,
        "sanity_left": len(s.sanity_pool), "double_agents_left": len(s.da_pool),
        "double_agents_revealed": list(s.da_revealed),
        "zombies_left": cat.game["zombies"] - sum(sum(r) for r in s.zombies.values()),
        "society_of_leopold": s.leopold, "safe_counters_left": cat.game["safe_counters"] - s.safe_used,
        "blocking_discs_left": cat.game["blocking_discs"] - len(s.blocking),
        "asked": ({"seat": s.window["asking"][0], "text": engine.window_text(s)} if s.window else None),
        "end_reason": s.end_reason or None,
        "assumed": static["assumed"],
    }
