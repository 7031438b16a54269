"""A position of the 1st edition in the game's own words: every card by its printed number, cities by name,
players by seat, agents by their number (a Main Agent as "main agent of seat N"); nothing is None, every key is a
string, so it goes to TOML and back (``docs/emerald1-positions.md``).

``position(state)`` writes it; ``pbem.games.emerald1.from_position`` reads one back into a game's first events.
"""

from __future__ import annotations

import re
from typing import Any

from pbem.games.emerald1.data import Catalog
from pbem.games.emerald1.state import LOYALIST, RESTORATIONIST, State

SIDES = {LOYALIST: "Loyalist", RESTORATIONIST: "Restorationist"}
WHERE = {"board": "board", "card": "on its card", "killed": "killed", "gone": "out of the game", "migo": "Mi-go",
         "yog": "Yog-Sothoth"}
COUNTERS = {"sane": "Sane", "mad": "Mad"}
MAIN = re.compile(r"main agent of seat (\d+)")
ABOUT = {"assassinate": "assassination", "hide": "hiding royalty", "destroy": "Shoggoth", "convert": "vampire",
         "cthulhu_escape": "escape from Cthulhu", "relocate": "moving out", "holmes_moriarty": "double agent"}
DOING = {"move": "moving agents", "retrieve": "taking cubes back", "cthulhu": "Cthulhu", "zombie_kill": "zombies kill",
         "zombie_place": "zombies spread", "pinkerton": "Pinkerton Agents", "free": "free actions"}


def agent_words(key: str) -> int | str:
    """An agent counter by its number, a Main Agent as "main agent of seat N"."""
    return f"main agent of seat {key[1:]}" if key.startswith("m") else int(key)


def city_words(cat: Catalog, city: str) -> str:
    return str(cat.city[city]["name"])


def position(s: State) -> dict[str, Any]:
    """The whole position of ``s`` in words (a game that is over has none worth writing, but it is written too)."""
    cat = s.cat
    words: dict[str, Any] = {
        "phase": s.phase, "turn": s.turn, "first_player": s.first, "to_play": s.active,
        "actions_done": s.actions_done, "free_action_used": s.free_used, "mrs_hudson_used": s.hudson_used,
        "still_to_place": list(s.setup_queue),
        "tracks": {"war": s.war, "revolution": s.revolution, "war_highest": s.war_max,
                   "revolution_highest": s.revolution_max},
        "sanity_counters": [COUNTERS[c] for c in s.sanity_pool],
        "sane_counters_out": len(s.sanity_out),
        "double_agent_pool": list(s.da_pool),
        "double_agents_revealed": list(s.da_revealed),
        "safe_counters_used": s.safe_used,
        "society_of_leopold": s.leopold,
        "permanent_effect_deck": list(s.pe_deck),
        "display": [_place(s, f"card:{c}", {"card": c}) for c in s.pe_display],
        "removed": list(s.removed),
        "removed_face_down": list(s.removed_secret),
        "put_aside": list(s.boxed),
        "players": [_player(s, i) for i in range(s.n)],
        "cities": [_city(s, c) for c in cat.city_ids],
        "agents": [_agent(s, k) for k in sorted(s.agents, key=_agent_order)],
    }
    if s.removed_hidden != len(s.removed_secret):
        raise ValueError("cards removed face down: the count and the cards differ")
    placed = {p for p in s.cubes} | set(s.blocking)
    said = {f"card:{c}" for c in s.pe_display} | {f"city:{c}" for c in cat.city_ids}
    said |= {f"card:{st[0]}" for st in s.stacks.values() if st}
    if placed - said:
        raise ValueError(f"cubes or Blocking discs where no position can say: {sorted(placed - said)}")
    if s.step:
        words["action"] = _step(s, s.step)
    if s.window:
        words["asked"] = _window(s, s.window)
    return words


def _agent_order(key: str) -> tuple[int, int]:
    return (0, int(key[1:])) if key.startswith("m") else (1, int(key))


def _place(s: State, place: str, entry: dict[str, Any]) -> dict[str, Any]:
    entry["cubes"] = list(s.cube_list(place))
    entry["blocked"] = place in s.blocking
    return entry


def _player(s: State, i: int) -> dict[str, Any]:
    p = s.players[i]
    entry: dict[str, Any] = {
        "seat": i, "name": s.names[i], "identity": SIDES.get(p.identity, p.identity),
        "change_of_heart": p.flipped, "revealed": p.revealed, "known": p.known,
        "hand": list(p.hand), "deck": list(p.deck), "discard": list(p.discard),
        "available": p.available, "pool": p.pool, "limbo": p.limbo,
        "mad": p.mad, "drew_from_an_empty_pool": p.sanity_forced,
        "double_agents": list(p.double_agents), "permanent_effects": list(p.pes),
        "kills": [{"agent": agent_words(k), "owner": o} for k, o in p.kills],
        "sacrificed": [agent_words(k) for k in p.yog], "sacrifice_points": p.yog_vp,
        "seen": [{"seat": t, "side": SIDES.get(x, x)} for t, x in sorted(p.seen.items())],
        "main_agent_dead": p.main_dead, "necronomicons_face_down": p.hidden_necronomicons,
    }
    return entry


def _city(s: State, city: str) -> dict[str, Any]:
    entry: dict[str, Any] = {"name": city_words(s.cat, city), "stack": list(s.stacks[city])}
    if city in s.owner:
        entry["owner"] = s.owner[city]
    if city in s.bismarck:
        entry["bismarck"] = s.bismarck[city]
    entry["destroyed"] = city in s.destroyed
    _place(s, f"city:{city}", entry)
    top = s.top(city)
    if top is not None:
        entry["top_card_cubes"] = list(s.cube_list(f"card:{top}"))
        entry["top_card_blocked"] = f"card:{top}" in s.blocking
    if city in s.royal:
        by, how = s.royal[city]
        entry["royal"] = {"by": by, "how": how}
    entry["zombies"] = list(s.zombies[city])
    return entry


def _agent(s: State, key: str) -> dict[str, Any]:
    a = s.agents[key]
    entry: dict[str, Any] = {"agent": agent_words(key), "where": WHERE[a["where"]]}
    if a["owner"] is not None:
        entry["owner"] = a["owner"]
    if a["city"] is not None:
        entry["city"] = city_words(s.cat, a["city"])
    entry["vampire"] = a["vampire"]
    if key in s.migo:
        entry["mi_go_turn"] = s.migo[key]
    return entry


def _step(s: State, step: dict[str, Any]) -> dict[str, Any]:
    name = step["step"]
    out: dict[str, Any] = {"doing": DOING[name]}
    if name == "move":
        out.update(moved=[agent_words(k) for k in step["moved"]], cost=step["cost"])
    elif name in ("retrieve", "zombie_place"):
        out["left"] = step["left"]
    elif name == "cthulhu":
        if step.get("then_end"):
            out["then_game_ends"] = True  # the claimer died of Cthulhu's Sanity counter
    elif name == "zombie_kill":
        out["cities"] = [city_words(s.cat, c) for c in step["cities"]]
    elif name == "pinkerton":
        out.update(drawn=list(step["drawn"]), free=bool(step.get("free")))
    return out


def _window(s: State, window: dict[str, Any]) -> dict[str, Any]:
    e = window["effect"]
    kind = e["type"]
    out: dict[str, Any] = {"about": ABOUT[kind], "asking": list(window["asking"])}
    if kind == "holmes_moriarty":
        out.update(agent=agent_words(e["agent"]), revealed_by=e["by"], turn_of=e["actor"])
        return out
    out["city"] = city_words(s.cat, e["city"])
    if kind == "relocate":
        out["turn_of"] = e["actor"]
        out["moving"] = [{"seat": seat, "agent": agent_words(k), "to": [city_words(s.cat, c) for c in choices]}
                         for seat, k, choices in e["queue"]]
        if e.get("then_end"):
            out["then_game_ends"] = True
        return out
    out["by"] = e["seat"]
    if kind == "cthulhu_escape":
        out["agents"] = [agent_words(k) for k in e["queue"]]
        return out
    out["target"] = "royal person" if e["target"] == "royal" else agent_words(e["target"])
    out["card"] = e["card"]
    return out
