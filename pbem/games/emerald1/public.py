"""The public part of a view: what every seat and a spectator see alike, made once per state.

A state shares with the one before it every container the event between them did not write, so most of the
public part of a view is what it was a moment ago. The parts (a city's entry, a player's entry, the displayed
Permanent Effects, the removed cards) are kept in the state's lineage memo (``memo.memo_of``) with what they were
made from, and made again only when that changed: a city's entry when its stack, its cubes, its agents, ... are no
longer what they were (found by comparing the containers with those of the last time), a player's entry when the
player, or what their points, discs, kills or Mi-go agents are worked out from, changed.

Everything here is public: no part depends on a seat. The parts are shared between views and between states,
and must be read only.
"""

from __future__ import annotations

from operator import is_
from typing import Any

from pbem.games.emerald1 import engine, scoring
from pbem.games.emerald1.board import Board, board_of
from pbem.games.emerald1.data import Catalog
from pbem.games.emerald1.faces import agent_entry, card_face, place_entry, static_view
from pbem.games.emerald1.memo import memo_of
from pbem.games.emerald1.state import State

Memo = dict[Any, Any]


# --- cities ------------------------------------------------------------------------------

class _Cities:
    """The city entries of a state (in the catalog's order), and what they were made from."""

    __slots__ = ("cat", "names", "stacks", "royal", "owner", "bismarck", "destroyed", "cubes", "blocking",
                 "agents", "zombies", "entries", "top_place", "on_board")

    def __init__(self, s: State, entries: list[dict[str, Any]], top_place: dict[str, str],
                 on_board: dict[str, list[str]]) -> None:
        self.cat, self.names, self.stacks, self.royal, self.owner = s.cat, s.names, s.stacks, s.royal, s.owner
        self.bismarck, self.destroyed, self.cubes, self.blocking = s.bismarck, s.destroyed, s.cubes, s.blocking
        self.agents, self.zombies = s.agents, s.zombies
        self.entries, self.top_place, self.on_board = entries, top_place, on_board


def _on_board(s: State) -> dict[str, list[str]]:
    on_board: dict[str, list[str]] = {}
    for k, a in s.agents.items():
        if a["where"] == "board":
            on_board.setdefault(a["city"], []).append(k)
    return on_board


def _top_place(s: State) -> dict[str, str]:
    """``card:<n>`` of each stack's top card -> its city."""
    return {f"card:{st[0]}": c for c, st in s.stacks.items() if st}


def _city_places(cat: Catalog) -> tuple[dict[str, str], dict[str, int]]:
    """``city:<id>`` -> city, and each city's position in the catalog's order (once per catalog)."""
    found = cat.__dict__.get("_city_places")
    if found is None:
        found = ({f"city:{c}": c for c in cat.city_ids}, {c: i for i, c in enumerate(cat.city_ids)})
        object.__setattr__(cat, "_city_places", found)
    return found  # type: ignore[no-any-return]


def _city(s: State, cid: str, on_board: dict[str, list[str]], old: dict[str, Any] | None = None) -> dict[str, Any]:
    """A city's entry; its parts that show the same as in ``old`` (the entry before) are taken from it."""
    cat = s.cat
    fixed = static_view(cat)["cities"][cid]
    stack = s.stacks[cid]
    top = stack[0] if stack else None
    royal = s.royal.get(cid)
    taken_by, how = (royal[0], royal[1]) if royal else (None, None)
    place = f"city:{cid}"
    if old is not None and old["royal"]["taken_by"] == taken_by and old["royal"]["how"] == how:
        royal_part = old["royal"]
    else:
        royal_part = {**fixed["royal"], "taken_by": taken_by, "how": how}
    top_part = None
    if top is not None:
        where = f"card:{top}"
        cubes = s.cubes.get(where) or [0] * s.n
        blocked = where in s.blocking
        counter = s.agents.get(str(top))
        on_card = counter is not None and counter["where"] == "card"
        was = old["top"] if old is not None else None
        if (was is not None and was["number"] == top and was["cubes"] == cubes and was["blocked"] == blocked
                and was["agent_on_card"] == on_card):
            top_part = was
        else:
            top_part = {**card_face(cat, top), "cubes": list(cubes), "blocked": blocked, "agent_on_card": on_card}
    keys = sorted(on_board.get(cid, ()))
    agents = s.agents
    was_agents = old["agents"] if old is not None else None
    agents_part = None
    if was_agents is not None and len(was_agents) == len(keys):
        agents_part = was_agents
        for e, k in zip(was_agents, keys):
            a = agents[k]
            if e["key"] != k or e["owner"] is not a["owner"] or e["vampire"] is not a["vampire"]:
                agents_part = None
                break
    if agents_part is None:
        agents_part = [agent_entry(s, k) for k in keys]
    cubes_here = s.cubes.get(place) or [0] * s.n
    if old is None:
        return {
            **fixed,
            "royal": royal_part,
            "owner": s.owner.get(cid), "bismarck": s.bismarck.get(cid), "destroyed": cid in s.destroyed,
            "cubes": list(cubes_here), "blocked": place in s.blocking,
            "top": top_part,
            "cards_left": len(stack),
            "agents": agents_part,
            "zombies": list(s.zombies[cid])}
    e = old.copy()  # the same keys in the same order, for far less than a new dict
    e["royal"] = royal_part
    e["owner"] = s.owner.get(cid)
    e["bismarck"] = s.bismarck.get(cid)
    e["destroyed"] = cid in s.destroyed
    if old["cubes"] != cubes_here:
        e["cubes"] = list(cubes_here)
    e["blocked"] = place in s.blocking
    e["top"] = top_part
    e["cards_left"] = len(stack)
    e["agents"] = agents_part
    if old["zombies"] != s.zombies[cid]:
        e["zombies"] = list(s.zombies[cid])
    return e


def _differ(now: dict[str, Any], was: dict[str, Any]) -> list[str]:
    """The keys whose values differ between two dicts (a value the same object is the same)."""
    keys = list(now)
    if len(keys) == len(was) and keys == list(was):  # the same keys in the same order: compare in place
        same = list(map(is_, now.values(), was.values()))
        out: list[str] = []
        if all(same):
            return out
        news, olds = list(now.values()), list(was.values())
        i = same.index(False)
        while True:  # only where the values are not the very same objects
            if olds[i] != news[i]:
                out.append(keys[i])
            try:
                i = same.index(False, i + 1)
            except ValueError:
                return out
    out = [k for k, v in now.items() if (w := was.get(k, now)) is not v and w != v]
    out += [k for k in was if k not in now]
    return out


def _changed(s: State, old: _Cities, top_place: dict[str, str]) -> set[str]:
    """The cities whose entry may differ from the one ``old`` holds."""
    dirty: set[str] = set()
    if s.stacks is not old.stacks:
        dirty.update(_differ(s.stacks, old.stacks))
    if s.royal is not old.royal:
        dirty.update(_differ(s.royal, old.royal))
    if s.owner is not old.owner:
        dirty.update(_differ(s.owner, old.owner))
    if s.bismarck is not old.bismarck:
        dirty.update(_differ(s.bismarck, old.bismarck))
    if s.destroyed is not old.destroyed:
        dirty.update(set(s.destroyed) ^ set(old.destroyed))
    if s.zombies is not old.zombies:
        dirty.update(_differ(s.zombies, old.zombies))
    places: list[str] = []
    if s.cubes is not old.cubes:
        places += _differ(s.cubes, old.cubes)
    if s.blocking is not old.blocking:
        places += set(s.blocking) ^ set(old.blocking)
    if s.agents is not old.agents:
        for k in _differ(s.agents, old.agents):
            places.append(f"card:{k}")  # its counter may lie on the top card of a stack
            for rec in (s.agents.get(k), old.agents.get(k)):
                if rec is not None and rec["where"] == "board":
                    dirty.add(rec["city"])
    if places:
        city_place = _city_places(s.cat)[0]
        for p in places:
            c = city_place.get(p) or top_place.get(p)
            if c is not None:
                dirty.add(c)
    return dirty


def cities(s: State, memo: Memo | None) -> list[dict[str, Any]]:
    """Each city's entry, in the catalog's order: those of the last state where nothing they show changed."""
    old = memo.get("cities") if memo is not None else None
    if old is None or old.cat is not s.cat or old.names is not s.names:
        on_board = _on_board(s)
        entries = [_city(s, c, on_board) for c in s.cat.city_ids]
        top_place = _top_place(s)
    else:
        top_place = old.top_place if s.stacks is old.stacks else _top_place(s)
        dirty = _changed(s, old, top_place)
        on_board = old.on_board if s.agents is old.agents else _on_board(s)
        entries = old.entries
        if dirty:
            entries = list(entries)
            index = _city_places(s.cat)[1]
            for c in dirty:
                i = index.get(c)
                if i is not None:
                    entries[i] = _city(s, c, on_board, entries[i])
    if memo is not None:
        memo["cities"] = _Cities(s, entries, top_place, on_board)
    return entries


# --- players -----------------------------------------------------------------------------

def _same(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    """Whether two tuples hold the very same objects."""
    return len(a) == len(b) and all(map(is_, a, b))


def shared(s: State) -> tuple[Any, ...]:
    """The containers of ``s`` that any seat's points, discs, kills or Mi-go agents may be worked out from
    (kept on the state). While they are all the same objects the very same tuple is handed on from state to
    state, so that whether anything in it changed is one ``is``."""
    own = s.__dict__.setdefault("_cache", {})
    found: tuple[Any, ...] | None = own.get("shared")
    if found is None:
        found = (s.cat, s.names, s.owner, s.royal, s.agents, s.migo, s.zombies, s.war_max, s.revolution_max)
        memo = memo_of(s)
        if memo is not None:
            last = memo.get("shared")
            if last is not None and _same(last, found):
                found = last
            else:
                memo["shared"] = found
        own["shared"] = found
    return found


def score_deps(s: State, i: int, board: Board) -> tuple[Any, ...]:
    """What a seat's points (of any side) are worked out from, but the player: the cities and royal persons taken,
    the seat's agents' Restorationist VP and vampires, the zombies, the tracks."""
    return (s.cat, s.owner, s.royal, board.rvp[i], board.vampires[i], board.zombies_out, s.war_max,
            s.revolution_max)


def vp(s: State, i: int, board: Board, memo: Memo | None) -> int:
    """``scoring.public_score``: from the tallies while the player is not revealed, else kept per seat while the
    player's side, scoring cards and sacrifices, and what else points are worked out from (``score_deps``), stay
    the same."""
    p = s.players[i]
    if not p.revealed:  # ``scoring.total`` of the public score, from the tallies
        return (board.city_vp[i] + board.assassinated[i] + board.hidden[i]
                + s.cat.game["necronomicon_vp"] * scoring.necronomicons(s, i))
    mine = (p.side, scoring.holdings(s, i), p.yog_vp, score_deps(s, i, board))
    found = memo.get(("vp", i)) if memo is not None else None
    if found is not None and found[0] == mine:
        return found[1]  # type: ignore[no-any-return]
    value = scoring.public_score(s, i)
    if memo is not None:
        memo[("vp", i)] = (mine, value)
    return value


def _player(s: State, i: int, board: Board, memo: Memo | None, old: dict[str, Any] | None,
            parts: dict[str, Any]) -> dict[str, Any]:
    """A player's entry: ``old`` (the entry before) copied and brought up to date, which costs far less than a
    new dict; the lists in it are kept in ``parts`` (the seat's own) while the player's list is the same."""
    cat = s.cat
    p = s.players[i]
    # ``s.discs_free(i)``, from the counts worked out once for every seat
    discs = cat.game["discs"] - (1 + (1 if p.known else 0) + board.cities[i] + board.discs[i] + board.royals[i])
    top = p.discard[-1] if p.discard else None
    pes = p.pes
    found = parts.get("pes")
    if found is None or found[0] is not pes:
        found = parts["pes"] = (pes, [card_face(cat, c) for c in pes])
    effects = found[1]
    kills = p.kills
    records = tuple([s.agents.get(k) for k, _ in kills]) if kills else ()
    found = parts.get("kills")
    if found is None or found[0] is not kills or found[1] != records:
        found = parts["kills"] = (kills, records, [agent_entry(s, k) | {"from": o} for k, o in kills])
    killed = found[2]
    migo = board.in_migo[i]
    found = parts.get("mi_go")
    if found is None or found[0] != migo:
        found = parts["mi_go"] = (migo, [agent_entry(s, k) for k, _ in migo])
    in_migo = found[1]
    if old is None:
        e: dict[str, Any] = {
            "seat": i, "name": s.names[i], "vp": vp(s, i, board, memo), "known": p.known,
            "revealed": p.revealed, "available": p.available, "pool": p.pool, "limbo": p.limbo, "mad": p.mad,
            "hand_size": len(p.hand), "deck_size": len(p.deck), "discard_size": len(p.discard),
            "discard_top": card_face(cat, top) if top is not None else None,
            "permanent_effects": effects,
            "double_agents": len(p.double_agents), "main_agent_dead": p.main_dead,
            "kills": killed,
            "sacrificed": len(p.yog), "mi_go": in_migo,
            "discs_left": discs, "change_of_heart": p.flipped}
    else:
        e = old.copy()
        e["name"] = s.names[i]
        e["vp"] = vp(s, i, board, memo)
        e["known"] = p.known
        e["revealed"] = p.revealed
        e["available"] = p.available
        e["pool"] = p.pool
        e["limbo"] = p.limbo
        e["mad"] = p.mad
        e["hand_size"] = len(p.hand)
        e["deck_size"] = len(p.deck)
        e["discard_size"] = len(p.discard)
        was = old["discard_top"]
        if top is None:
            e["discard_top"] = None
        elif was is None or was["number"] != top:
            e["discard_top"] = card_face(cat, top)
        e["permanent_effects"] = effects
        e["double_agents"] = len(p.double_agents)
        e["main_agent_dead"] = p.main_dead
        e["kills"] = killed
        e["sacrificed"] = len(p.yog)
        e["mi_go"] = in_migo
        e["discs_left"] = discs
        e["change_of_heart"] = p.flipped
    if p.revealed:
        e["side"] = p.side
    else:
        e.pop("side", None)
    return e


def players(s: State, memo: Memo | None) -> list[dict[str, Any]]:
    """Each player's entry: the last one made while the player, and everything their points, discs, kills and
    Mi-go agents are worked out from, were the same."""
    now = shared(s)
    last = memo.get("players") if memo is not None else None
    if last is None or len(last) != s.n:
        last = [None] * s.n
    kept = []
    out = []
    board: Board | None = None
    for i, p in enumerate(s.players):
        found = last[i]
        if found is not None and found[0] is p and found[1] is now:
            kept.append(found)
            out.append(found[3])
            continue
        if board is None:
            board = board_of(s)
        kills = p.kills
        deps = (score_deps(s, i, board), board.cities[i], board.royals[i], board.discs[i], board.in_migo[i],
                tuple([s.agents.get(k) for k, _ in kills]) if kills else ())
        if found is not None and found[0] is p and found[2] == deps:
            e = found[3]
            parts = found[4]
        else:
            parts = found[4] if found is not None and found[5] is s.cat and found[6] is s.names else {}
            e = _player(s, i, board, memo, found[3] if parts else None, parts)
        kept.append((p, now, deps, e, parts, s.cat, s.names))
        out.append(e)
    if memo is not None:
        memo["players"] = kept
    return out


# --- the rest ----------------------------------------------------------------------------

def _display(s: State, memo: Memo | None) -> list[dict[str, Any]]:
    cat = s.cat
    key = (s.pe_display, s.cubes, s.blocking)
    found = memo.get("display") if memo is not None else None
    if found is not None and _same(found[0], key):  # the same containers: nothing shown can differ
        return found[2]  # type: ignore[no-any-return]
    cubes, blocking = s.cubes, s.blocking
    places = found[3] if found is not None and found[0][0] is s.pe_display else [f"card:{c}" for c in s.pe_display]
    rows = tuple((cubes.get(place), place in blocking) for place in places)
    if found is not None and found[1] == (list(s.pe_display), rows):
        value = found[2]
    else:
        value = [{**card_face(cat, c), **place_entry(s, f"card:{c}")} for c in s.pe_display]
    if memo is not None:
        memo["display"] = (key, (list(s.pe_display), rows), value, places)
    return value


def _removed(s: State, memo: Memo | None) -> list[dict[str, Any]]:
    found = memo.get("removed") if memo is not None else None
    if found is not None and found[0] == s.removed:
        return found[1]  # type: ignore[no-any-return]
    value = [card_face(s.cat, c) for c in s.removed]
    if memo is not None:
        memo["removed"] = (list(s.removed), value)
    return value


def public(s: State) -> dict[str, Any]:
    """The public view of ``s`` (the caller keeps it on the state: every seat's view starts from it): the last
    one made copied and brought up to date, which costs far less than a new dict of as many keys."""
    cat: Catalog = s.cat
    memo = memo_of(s)
    g = cat.game
    tracks = (s.war, s.revolution, s.war_max, s.revolution_max)
    last = memo.get("public") if memo is not None else None
    if last is not None and last[0] is cat and last[1] is s.names:
        e = last[2].copy()
        e["phase"] = s.phase
        e["turn"] = s.turn
        e["active"] = s.active
        e["actions_done"] = s.actions_done
        e["free_used"] = s.free_used
        if last[3] != tracks:
            e["tracks"] = {"war": s.war, "revolution": s.revolution, "war_max": s.war_max,
                           "revolution_max": s.revolution_max, "top_space": g["track_top"],
                           "vp_spaces": static_view(cat)["vp_spaces"]}
        e["cities"] = cities(s, memo)
        e["players"] = players(s, memo)
        e["permanent_effects_on_display"] = _display(s, memo)
        e["permanent_effects_left"] = len(s.pe_deck)
        if s.removed is not last[4] and s.removed != last[4]:  # else ``_removed`` would give the last answer
            e["removed"] = _removed(s, memo)
        e["removed_face_down"] = s.removed_hidden
        e["sanity_left"] = len(s.sanity_pool)
        e["double_agents_left"] = len(s.da_pool)
        if e["double_agents_revealed"] != s.da_revealed:
            e["double_agents_revealed"] = list(s.da_revealed)
        if s.zombies is not last[5]:
            e["zombies_left"] = g["zombies"] - board_of(s).zombies_on
        e["society_of_leopold"] = s.leopold
        e["safe_counters_left"] = g["safe_counters"] - s.safe_used
        e["blocking_discs_left"] = g["blocking_discs"] - len(s.blocking)
        e["asked"] = {"seat": s.window["asking"][0], "text": engine.window_text(s)} if s.window else None
        e["end_reason"] = s.end_reason or None
    else:
        static = static_view(cat)
        e = {
            "game": "emerald1", "phase": s.phase, "turn": s.turn, "active": s.active,
            "actions_done": s.actions_done, "actions": g["actions"], "free_used": s.free_used,
            "tracks": {"war": s.war, "revolution": s.revolution, "war_max": s.war_max,
                       "revolution_max": s.revolution_max, "top_space": g["track_top"],
                       "vp_spaces": static["vp_spaces"]},
            "victory_target": g["victory_target"][str(s.n)],
            "cities": cities(s, memo), "players": players(s, memo),
            "map": static["map"],
            "permanent_effects_on_display": _display(s, memo),
            "permanent_effects_left": len(s.pe_deck),
            "removed": _removed(s, memo), "removed_face_down": s.removed_hidden,
            "sanity_left": len(s.sanity_pool), "double_agents_left": len(s.da_pool),
            "double_agents_revealed": list(s.da_revealed),
            "zombies_left": g["zombies"] - board_of(s).zombies_on,
            "society_of_leopold": s.leopold, "safe_counters_left": g["safe_counters"] - s.safe_used,
            "blocking_discs_left": g["blocking_discs"] - len(s.blocking),
            "asked": ({"seat": s.window["asking"][0], "text": engine.window_text(s)} if s.window else None),
            "end_reason": s.end_reason or None,
            "assumed": static["assumed"],
        }
    if memo is not None:
        memo["public"] = (cat, s.names, e, tracks, s.removed, s.zombies)  # a made state's lists never change
    return e
