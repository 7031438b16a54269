"""A game of the 1st edition begun from a position in words (``position``): the position read and checked like
data (``InvalidAction`` names the bad field), then given as the game's first events, each hidden as a deal's would
be: the board and what every player shows to everyone, each player's own cards and counters to that player, the
order of every face-down deck, stack and pool to nobody (``docs/emerald1-positions.md``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from events.envelope import NewEvent, Visibility
from events.rules import GameConfig, InvalidAction
from pbem.games.emerald1.data import Catalog
from pbem.games.emerald1.position import ABOUT, COUNTERS, DOING, MAIN, SIDES, WHERE
from pbem.games.emerald1.state import State

TOP = ("phase", "turn", "first_player", "to_play", "actions_done", "free_action_used", "mrs_hudson_used",
       "still_to_place", "tracks", "sanity_counters", "sane_counters_out", "double_agent_pool",
       "double_agents_revealed", "safe_counters_used", "society_of_leopold", "permanent_effect_deck", "display",
       "removed", "removed_face_down", "put_aside", "players", "cities", "agents", "action", "asked")
OPTIONAL = ("action", "asked")


class Reader:
    """Reads the words of a position, naming the field of every problem."""

    def __init__(self, cat: Catalog, n: int) -> None:
        self.cat, self.n = cat, n
        self.by_name = {str(info["name"]).lower(): cid for cid, info in cat.city.items()}
        self.by_name.update({cid: cid for cid in cat.city_ids})

    @staticmethod
    def fail(where: str, what: str) -> InvalidAction:
        return InvalidAction(f"position, {where}: {what}")

    def table(self, value: Any, where: str, keys: tuple[str, ...], optional: tuple[str, ...] = ()) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.fail(where, "must be a table")
        unknown = sorted(set(value) - set(keys))
        if unknown:
            raise self.fail(f"{where}.{unknown[0]}" if where else unknown[0], "unknown field")
        missing = [k for k in keys if k not in value and k not in optional]
        if missing:
            raise self.fail(f"{where}.{missing[0]}" if where else missing[0], "missing")
        return value

    def int_(self, value: Any, where: str, lo: int = 0, hi: int = 10_000) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise self.fail(where, f"a whole number from {lo} to {hi}, not {value!r}")
        return value

    def bool_(self, value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(where, f"true or false, not {value!r}")
        return value

    def list_(self, value: Any, where: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(where, "must be a list")
        return value

    def seat(self, value: Any, where: str) -> int:
        return self.int_(value, where, 0, self.n - 1)

    def seats(self, value: Any, where: str) -> list[int]:
        return [self.seat(v, f"{where}[{i}]") for i, v in enumerate(self.list_(value, where))]

    def row(self, value: Any, where: str, hi: int) -> list[int]:
        row = [self.int_(v, f"{where}[{i}]", 0, hi) for i, v in enumerate(self.list_(value, where))]
        if len(row) != self.n:
            raise self.fail(where, f"one number for each of the {self.n} players")
        return row

    def card(self, value: Any, where: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value not in self.cat.cards or \
                (self.cat.cards[value].kind == "initial" and value // 100 > self.n):
            raise self.fail(where, f"{value!r} is not a card of this game")
        return value

    def cards(self, value: Any, where: str) -> list[int]:
        return [self.card(v, f"{where}[{i}]") for i, v in enumerate(self.list_(value, where))]

    def city(self, value: Any, where: str) -> str:
        found = self.by_name.get(str(value).lower()) if isinstance(value, str) else None
        if found is None:
            raise self.fail(where, f"{value!r} is not a city of the map")
        return found

    def agent(self, value: Any, where: str) -> str:
        """An agent counter's number, or "main agent of seat N": the engine's key."""
        if isinstance(value, str):
            m = MAIN.fullmatch(value.strip().lower())
            if m and int(m[1]) < self.n:
                return f"m{int(m[1])}"
        elif not isinstance(value, bool) and isinstance(value, int) and self.cat.cards.get(value) is not None \
                and self.cat.cards[value].kind == "agent":
            return str(value)
        raise self.fail(where, f"{value!r} is not an agent (a number, or \"main agent of seat N\")")

    def word(self, value: Any, where: str, words: Mapping[str, str]) -> str:
        """The engine's name for one of ``words``' values."""
        for key, said in words.items():
            if isinstance(value, str) and value.lower() == said.lower():
                return key
        raise self.fail(where, f"one of {', '.join(repr(w) for w in words.values())}, not {value!r}")


def setup_from(config: GameConfig, words: Mapping[str, Any], state: State) -> list[NewEvent]:
    """The first events of a game begun from ``words``; ``state`` is the game's initial state (its catalog, its
    seats and its readings)."""
    cat, n = state.cat, state.n
    r = Reader(cat, n)
    w = r.table(words, "", TOP, OPTIONAL)
    phase = w["phase"]
    if phase not in ("setup", "play"):
        raise r.fail("phase", f"\"setup\" (Main Agents being placed) or \"play\", not {phase!r}")
    g = cat.game
    tracks = r.table(w["tracks"], "tracks", ("war", "revolution", "war_highest", "revolution_highest"))
    top = g["track_top"]
    war, rev = r.int_(tracks["war"], "tracks.war", 0, top), r.int_(tracks["revolution"], "tracks.revolution", 0, top)
    war_max = r.int_(tracks["war_highest"], "tracks.war_highest", war, top)
    rev_max = r.int_(tracks["revolution_highest"], "tracks.revolution_highest", rev, top)
    players = r.list_(w["players"], "players")
    if len(players) != n:
        raise r.fail("players", f"one table for each of the {n} players")
    cities = r.list_(w["cities"], "cities")
    if [r.city(r.table(c, f"cities[{i}]", CITY, CITY_OPTIONAL)["name"], f"cities[{i}].name")
            for i, c in enumerate(cities)] != list(cat.city_ids):
        raise r.fail("cities", "one table for each city, in the map's order: "
                     + ", ".join(str(cat.city[c]["name"]) for c in cat.city_ids))
    public: dict[str, Any] = {
        "phase": phase, "turn": r.int_(w["turn"], "turn"), "first": r.seat(w["first_player"], "first_player"),
        "active": r.seat(w["to_play"], "to_play"),
        "actions_done": r.int_(w["actions_done"], "actions_done", 0, g["actions"]),
        "free_used": r.bool_(w["free_action_used"], "free_action_used"),
        "hudson_used": r.bool_(w["mrs_hudson_used"], "mrs_hudson_used"),
        "setup_queue": r.seats(w["still_to_place"], "still_to_place"),
        "war": war, "revolution": rev, "war_max": war_max, "revolution_max": rev_max,
        "sanity_out": r.int_(w["sane_counters_out"], "sane_counters_out", 0, g["sanity_sane"]),
        "da_revealed": [r.int_(a, f"double_agents_revealed[{i}]", 1, g["double_agents"])
                        for i, a in enumerate(r.list_(w["double_agents_revealed"], "double_agents_revealed"))],
        "safe_used": r.int_(w["safe_counters_used"], "safe_counters_used", 0, g["safe_counters"]),
        "leopold": r.bool_(w["society_of_leopold"], "society_of_leopold"),
        "pe_display": [r.card(r.table(d, f"display[{i}]", ("card", "cubes", "blocked"))["card"], f"display[{i}].card")
                       for i, d in enumerate(r.list_(w["display"], "display"))],
        "removed": r.cards(w["removed"], "removed"),
        "removed_hidden": len(r.list_(w["removed_face_down"], "removed_face_down")),
    }
    if phase == "setup" and public["setup_queue"] == []:
        raise r.fail("still_to_place", "in the setup somebody is still to place their Main Agent")
    public.update(_board(r, cities, w["display"]))
    public["agents"], public["migo"] = _agents(r, w["agents"], public)
    public["players"] = [_public_player(r, p, i) for i, p in enumerate(players)]
    if "asked" in w:
        public["window"] = _window(r, w["asked"])
    secret = {
        "decks": [r.cards(p["deck"], f"players[{i}].deck") for i, p in enumerate(players)],
        "stacks": {c: r.cards(cities[i]["stack"], f"cities[{i}].stack") for i, c in enumerate(cat.city_ids)},
        "boxed": r.cards(w["put_aside"], "put_aside"),
        "pe_deck": r.cards(w["permanent_effect_deck"], "permanent_effect_deck"),
        "sanity_pool": [r.word(c, f"sanity_counters[{i}]", COUNTERS)
                        for i, c in enumerate(r.list_(w["sanity_counters"], "sanity_counters"))],
        "da_pool": [r.int_(a, f"double_agent_pool[{i}]", 1, g["double_agents"])
                    for i, a in enumerate(r.list_(w["double_agent_pool"], "double_agent_pool"))],
        "removed_secret": r.cards(w["removed_face_down"], "removed_face_down"),
    }
    hands = [_own(r, p, i) for i, p in enumerate(players)]
    if "action" in w:
        if phase != "play":
            raise r.fail("action", "only a turn has an action under way")
        hands[public["active"]]["step"] = _step(r, w["action"])
    _counters_on_cards(r, public["agents"], secret["stacks"])
    _conserved(r, public, secret, hands)
    events = [NewEvent("emerald1.PositionSet", public, reveals=True),
              NewEvent("emerald1.PositionSecrets", secret, Visibility.server())]
    events += [NewEvent("emerald1.PositionHand", hand, Visibility.to(i), reveals=True) for i, hand in enumerate(hands)]
    return events


# --- the board -----------------------------------------------------------------------------------------------

CITY = ("name", "stack", "owner", "bismarck", "destroyed", "cubes", "blocked", "top_card_cubes", "top_card_blocked",
        "royal", "zombies")
CITY_OPTIONAL = ("owner", "bismarck", "top_card_cubes", "top_card_blocked", "royal")


def _board(r: Reader, cities: list[Any], display: list[Any]) -> dict[str, Any]:
    cat, g = r.cat, r.cat.game
    owner: dict[str, int] = {}
    bismarck: dict[str, int] = {}
    royal: dict[str, list[Any]] = {}
    cubes: dict[str, list[int]] = {}
    blocking: list[str] = []
    zombies: dict[str, list[int]] = {}
    destroyed: list[str] = []
    for i, (c, entry) in enumerate(zip(cat.city_ids, cities)):
        at = f"cities[{i}]"
        if "owner" in entry:
            owner[c] = r.seat(entry["owner"], f"{at}.owner")
        if "bismarck" in entry:
            bismarck[c] = r.seat(entry["bismarck"], f"{at}.bismarck")
        if r.bool_(entry["destroyed"], f"{at}.destroyed"):
            destroyed.append(c)
        places = [(f"city:{c}", "cubes", "blocked")]
        stack = entry["stack"]
        if isinstance(stack, list) and stack:
            places.append((f"card:{r.card(stack[0], f'{at}.stack[0]')}", "top_card_cubes", "top_card_blocked"))
        elif "top_card_cubes" in entry or "top_card_blocked" in entry:
            raise r.fail(f"{at}.top_card_cubes", "an empty stack has no top card")
        for place, cube_key, block_key in places:
            row = r.row(entry.get(cube_key, [0] * r.n), f"{at}.{cube_key}", g["cubes"])
            if any(row):
                cubes[place] = row
            if r.bool_(entry.get(block_key, False), f"{at}.{block_key}"):
                blocking.append(place)
        if "royal" in entry:
            taken = r.table(entry["royal"], f"{at}.royal", ("by", "how"))
            if taken["how"] not in ("assassinated", "hidden"):
                raise r.fail(f"{at}.royal.how", f"\"assassinated\" or \"hidden\", not {taken['how']!r}")
            royal[c] = [r.seat(taken["by"], f"{at}.royal.by"), taken["how"]]
        zombies[c] = r.row(entry["zombies"], f"{at}.zombies", g["zombies"])
    for i, d in enumerate(display):
        entry = r.table(d, f"display[{i}]", ("card", "cubes", "blocked"))
        place = f"card:{entry['card']}"
        row = r.row(entry["cubes"], f"display[{i}].cubes", g["cubes"])
        if any(row):
            cubes[place] = row
        if r.bool_(entry["blocked"], f"display[{i}].blocked"):
            blocking.append(place)
    if sum(sum(row) for row in zombies.values()) > g["zombies"]:
        raise r.fail("cities", f"more than the {g['zombies']} zombies on the board")
    if len(blocking) > g["blocking_discs"]:
        raise r.fail("cities", f"more than the {g['blocking_discs']} Blocking discs on the board")
    return {"owner": owner, "bismarck": bismarck, "royal": royal, "cubes": cubes, "blocking": blocking,
            "zombies": zombies, "destroyed": destroyed}


def _agents(r: Reader, value: Any, public: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, int]]:
    agents: dict[str, Any] = {}
    migo: dict[str, int] = {}
    for i, a in enumerate(r.list_(value, "agents")):
        at = f"agents[{i}]"
        entry = r.table(a, at, ("agent", "where", "owner", "city", "vampire", "mi_go_turn"),
                        ("owner", "city", "mi_go_turn"))
        key = r.agent(entry["agent"], f"{at}.agent")
        if key in agents:
            raise r.fail(f"{at}.agent", "listed twice")
        where = r.word(entry["where"], f"{at}.where", WHERE)
        owner = r.seat(entry["owner"], f"{at}.owner") if "owner" in entry else None
        city = r.city(entry["city"], f"{at}.city") if "city" in entry else None
        main = key.startswith("m")
        if main and owner != int(key[1:]):
            raise r.fail(f"{at}.owner", "a Main Agent belongs to its own player")
        if where in ("board", "card") and city is None:
            raise r.fail(f"{at}.city", "an agent on the board or on its card is in a city")
        if where == "card" and (owner is not None or main):
            raise r.fail(f"{at}.owner", "a counter on its card belongs to nobody yet")
        agents[key] = {"owner": owner, "where": where, "city": city,
                       "vampire": r.bool_(entry["vampire"], f"{at}.vampire"), "main": main}
        if "mi_go_turn" in entry:
            migo[key] = r.int_(entry["mi_go_turn"], f"{at}.mi_go_turn")
    for seat in range(r.n):
        if public["phase"] == "play" and f"m{seat}" not in agents:
            raise r.fail("agents", f"seat {seat}'s Main Agent is missing")
    return agents, migo


def _counters_on_cards(r: Reader, agents: Mapping[str, Any], stacks: Mapping[str, list[int]]) -> None:
    """An agent's counter lies on its card while the card is the face-up top of a stack, and only then."""
    tops = {st[0]: c for c, st in stacks.items() if st}
    for key, a in agents.items():
        if a["where"] == "card" and (key.startswith("m") or tops.get(int(key)) != a["city"]):
            raise r.fail("agents", f"agent {key}'s counter is on its card, which is not the top card in "
                                   f"{r.cat.city[a['city']]['name']}")
    for card, city in tops.items():
        if r.cat.cards[card].kind == "agent" and agents.get(str(card), {}).get("where") != "card":
            raise r.fail("agents", f"agent {card}'s card is face up in {r.cat.city[city]['name']}: its counter "
                                   "lies on it (\"where\" = \"on its card\")")


# --- players ---------------------------------------------------------------------------------------------

PLAYER = ("seat", "name", "identity", "change_of_heart", "revealed", "known", "hand", "deck", "discard", "available",
          "pool", "limbo", "mad", "drew_from_an_empty_pool", "double_agents", "permanent_effects", "kills",
          "sacrificed", "sacrifice_points", "seen", "main_agent_dead", "necronomicons_face_down")


def _public_player(r: Reader, value: Any, i: int) -> dict[str, Any]:
    at = f"players[{i}]"
    p = r.table(value, at, PLAYER)
    if p["seat"] != i:
        raise r.fail(f"{at}.seat", f"the players in seat order: {i} here")
    g = r.cat.game
    kills = []
    for j, k in enumerate(r.list_(p["kills"], f"{at}.kills")):
        kill = r.table(k, f"{at}.kills[{j}]", ("agent", "owner"))
        kills.append([r.agent(kill["agent"], f"{at}.kills[{j}].agent"),
                      r.seat(kill["owner"], f"{at}.kills[{j}].owner")])
    pes = r.cards(p["permanent_effects"], f"{at}.permanent_effects")
    if any(r.cat.cards[c].kind != "pe" for c in pes):
        raise r.fail(f"{at}.permanent_effects", "Permanent Effect cards only")
    return {"revealed": r.bool_(p["revealed"], f"{at}.revealed"), "known": r.bool_(p["known"], f"{at}.known"),
            "flipped": r.bool_(p["change_of_heart"], f"{at}.change_of_heart"),
            "available": r.int_(p["available"], f"{at}.available", 0, g["cubes"]),
            "pool": r.int_(p["pool"], f"{at}.pool", 0, g["cubes"]),
            "limbo": r.int_(p["limbo"], f"{at}.limbo", 0, g["cubes"]),
            "mad": r.int_(p["mad"], f"{at}.mad", 0, g["sanity_mad"]),
            "sanity_forced": r.bool_(p["drew_from_an_empty_pool"], f"{at}.drew_from_an_empty_pool"),
            "pes": pes, "kills": kills,
            "yog": [r.agent(a, f"{at}.sacrificed[{j}]") for j, a in enumerate(r.list_(p["sacrificed"],
                                                                                     f"{at}.sacrificed"))],
            "yog_vp": r.int_(p["sacrifice_points"], f"{at}.sacrifice_points"),
            "main_dead": r.bool_(p["main_agent_dead"], f"{at}.main_agent_dead")}


def _own(r: Reader, p: Mapping[str, Any], i: int) -> dict[str, Any]:
    """What only the player sees of themselves."""
    at = f"players[{i}]"
    seen = {}
    for j, x in enumerate(r.list_(p["seen"], f"{at}.seen")):
        entry = r.table(x, f"{at}.seen[{j}]", ("seat", "side"))
        seen[str(r.seat(entry["seat"], f"{at}.seen[{j}].seat"))] = r.word(entry["side"], f"{at}.seen[{j}].side", SIDES)
    g = r.cat.game
    return {"seat": i, "identity": r.word(p["identity"], f"{at}.identity", SIDES),
            "hand": r.cards(p["hand"], f"{at}.hand"), "discard": r.cards(p["discard"], f"{at}.discard"),
            "double_agents": [r.int_(a, f"{at}.double_agents[{j}]", 1, g["double_agents"])
                              for j, a in enumerate(r.list_(p["double_agents"], f"{at}.double_agents"))],
            "seen": seen, "hidden_necronomicons": r.int_(p["necronomicons_face_down"], f"{at}.necronomicons_face_down",
                                                         0, 2)}


# --- the action under way, and the question asked --------------------------------------------------------

def _step(r: Reader, value: Any) -> dict[str, Any]:
    keys = {"move": ("moved", "cost"), "retrieve": ("left",), "cthulhu": ("then_game_ends",),
            "zombie_kill": ("cities",), "zombie_place": ("left",), "pinkerton": ("drawn", "free"), "free": ()}
    if not isinstance(value, Mapping):
        raise r.fail("action", "must be a table")
    name = r.word(value.get("doing"), "action.doing", DOING)
    optional = ("then_game_ends",) if name == "cthulhu" else ()
    a = r.table(value, "action", ("doing", *keys[name]), optional)
    if name == "move":
        return {"step": "move", "moved": [r.agent(k, f"action.moved[{i}]")
                                          for i, k in enumerate(r.list_(a["moved"], "action.moved"))],
                "cost": r.int_(a["cost"], "action.cost")}
    if name in ("retrieve", "zombie_place"):
        return {"step": name, "left": r.int_(a["left"], "action.left")}
    if name == "cthulhu":
        ends = r.bool_(a.get("then_game_ends", False), "action.then_game_ends")
        return {"step": "cthulhu", "then_end": "restorationist_mad"} if ends else {"step": "cthulhu"}
    if name == "zombie_kill":
        return {"step": name, "cities": [r.city(c, f"action.cities[{i}]")
                                         for i, c in enumerate(r.list_(a["cities"], "action.cities"))]}
    if name == "pinkerton":
        return {"step": name, "drawn": [r.int_(x, f"action.drawn[{i}]", 1, r.cat.game["double_agents"])
                                        for i, x in enumerate(r.list_(a["drawn"], "action.drawn"))],
                "free": r.bool_(a["free"], "action.free")}
    return {"step": "free"}


def _window(r: Reader, value: Any) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise r.fail("asked", "must be a table")
    kind = r.word(value.get("about"), "asked.about", ABOUT)
    keys = {"holmes_moriarty": ("agent", "revealed_by", "turn_of"), "relocate": ("city", "turn_of", "moving"),
            "cthulhu_escape": ("city", "by", "agents")}.get(kind, ("city", "by", "target", "card"))
    optional = ("then_game_ends",) if kind == "relocate" else ()
    a = r.table(value, "asked", ("about", "asking", *keys, *optional), optional)
    asking = r.seats(a["asking"], "asked.asking")
    if not asking:
        raise r.fail("asked.asking", "somebody is asked")
    if kind == "holmes_moriarty":
        effect = {"type": kind, "agent": r.agent(a["agent"], "asked.agent"), "by": r.seat(a["revealed_by"],
                                                                                        "asked.revealed_by"),
                  "actor": r.seat(a["turn_of"], "asked.turn_of")}
        return {"effect": effect, "asking": asking}
    city = r.city(a["city"], "asked.city")
    if kind == "relocate":
        queue = []
        for i, m in enumerate(r.list_(a["moving"], "asked.moving")):
            entry = r.table(m, f"asked.moving[{i}]", ("seat", "agent", "to"))
            queue.append([r.seat(entry["seat"], f"asked.moving[{i}].seat"),
                          r.agent(entry["agent"], f"asked.moving[{i}].agent"),
                          [r.city(c, f"asked.moving[{i}].to[{j}]")
                           for j, c in enumerate(r.list_(entry["to"], f"asked.moving[{i}].to"))]])
        if not queue:
            raise r.fail("asked.moving", "somebody is moving out")
        effect = {"type": kind, "actor": r.seat(a["turn_of"], "asked.turn_of"), "city": city, "queue": queue}
        if r.bool_(a.get("then_game_ends", False), "asked.then_game_ends"):
            effect["then_end"] = "restorationist_mad"
        return {"effect": effect, "asking": asking}
    by = r.seat(a["by"], "asked.by")
    if kind == "cthulhu_escape":
        queue = [r.agent(k, f"asked.agents[{i}]") for i, k in enumerate(r.list_(a["agents"], "asked.agents"))]
        if not queue:
            raise r.fail("asked.agents", "an agent is escaping")
        return {"effect": {"type": kind, "seat": by, "city": city, "target": queue[0], "queue": queue},
                "asking": asking}
    target = "royal" if a["target"] == "royal person" else r.agent(a["target"], "asked.target")
    card = r.card(a["card"], "asked.card")
    played = r.cat.cards[card]
    fits = {"assassinate": played.kind == "agent" or played.action == "assassinate_any",
            "hide": played.action == "hide_royalty", "destroy": played.action == "shoggoth",
            "convert": played.action == "vampire"}[kind]
    if not fits:
        raise r.fail("asked.card", f"card {card} cannot do that ({ABOUT[kind]})")
    how = {"destroy": "shoggoth", "convert": "vampire", "hide": "hide"}.get(kind)
    if how is None:  # an assassination: by the agent's own card, or by a card for any city where you have one
        how = "agent" if r.cat.cards[card].kind == "agent" else "hired"
    effect = {"type": kind, "seat": by, "city": city, "target": target, "card": card, "how": how}
    if kind in ("destroy", "convert"):  # the order the engine writes them in
        effect = {"type": kind, "seat": by, "target": target, "city": city, "card": card, "how": how}
    return {"effect": effect, "asking": asking}


# --- conservation ----------------------------------------------------------------------------------------

def _conserved(r: Reader, public: Mapping[str, Any], secret: Mapping[str, Any], hands: list[dict[str, Any]]) -> None:
    """Every card, cube and counter of the game in exactly one place."""
    cat, g, n = r.cat, r.cat.game, r.n
    where: dict[int, str] = {}
    piles: list[tuple[str, list[int]]] = [("removed", public["removed"]), ("removed_face_down",
                                                                            secret["removed_secret"]),
                                          ("put_aside", secret["boxed"]), ("permanent_effect_deck", secret["pe_deck"]),
                                          ("display", public["pe_display"])]
    for i in range(n):
        piles += [(f"players[{i}].hand", hands[i]["hand"]), (f"players[{i}].deck", secret["decks"][i]),
                  (f"players[{i}].discard", hands[i]["discard"]),
                  (f"players[{i}].permanent_effects", public["players"][i]["pes"])]
    for i, c in enumerate(cat.city_ids):
        piles.append((f"cities[{i}].stack", secret["stacks"][c]))
    piles.append(("agents (on Mi-go)", [int(k) for k in public["migo"] if not k.startswith("m")]))
    for name, cards in piles:
        for card in cards:
            if card in where:
                raise r.fail(name, f"card {card} is also in {where[card]}")
            where[card] = name
    wanted = {cid for cid, c in cat.cards.items() if c.kind != "city" and (c.kind != "initial" or cid // 100 <= n)}
    missing = sorted(wanted - set(where))
    if missing:
        raise r.fail("cards", f"card {missing[0]} is nowhere (every card but the City cards is somewhere)")
    for i in range(n):
        p = public["players"][i]
        placed = sum(row[i] for row in public["cubes"].values())
        if p["available"] + p["pool"] + p["limbo"] + placed != g["cubes"]:
            raise r.fail(f"players[{i}]", f"Available, Pool, Limbo and the cubes on the board make "
                                          f"{p['available'] + p['pool'] + p['limbo'] + placed}, not {g['cubes']}")
    counters = secret["da_pool"] + public["da_revealed"] + [a for h in hands for a in h["double_agents"]]
    if sorted(counters) != list(range(1, g["double_agents"] + 1)):
        raise r.fail("double_agent_pool", f"every Double-agent counter from 1 to {g['double_agents']} once, "
                                          "in the pool, revealed or held")
    mad = sum(p["mad"] for p in public["players"])
    pool = Counter(secret["sanity_pool"])
    if pool["sane"] + public["sanity_out"] != g["sanity_sane"] or pool["mad"] + mad != g["sanity_mad"]:
        raise r.fail("sanity_counters", f"{g['sanity_sane']} Sane and {g['sanity_mad']} Mad counters in all, "
                                        "in the pool, out of the game or held")
    for i, p in enumerate(public["players"]):
        discs = 1 + (1 if p["known"] else 0) + sum(1 for o in public["owner"].values() if o == i)
        discs += sum(1 for a in public["agents"].values() if a["owner"] == i and not a["main"]
                     and a["where"] in ("board", "migo", "killed"))
        discs += sum(1 for x in public["royal"].values() if x[0] == i)
        if discs > g["discs"]:
            raise r.fail(f"players[{i}]", f"{discs} Control discs in use, more than {g['discs']}")
