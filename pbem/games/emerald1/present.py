"""A Study in Emerald (1st edition) as a player reads it: the map, the hand as cards, the table.

Built only from a view (``view.build_view``), never from the state; see ``pbem.games.presentation``.
A card is named by the number printed on it, which is the number commands accept.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.games.emerald1.describe import city_box
from pbem.games.emerald1.map_svg import draw, route_key
from pbem.games.presentation import wrap_text

COLOURS = ("#b03a2e", "#1f5fa8", "#276b2b", "#7d3c98", "#8f5600")
COLOUR_NAMES = ("red", "blue", "green", "purple", "orange")
SIDES = {"loyalist": "Loyalist", "restorationist": "Restorationist"}
GROUPS = {
    "start": "Place your Main Agent", "claim": "Claim a card", "place": "Place cubes", "retrieve": "Retrieve cubes",
    "take": "Take a cube back", "buy": "Buy cubes", "move": "Move agents", "pay": "Pay for the moves",
    "markers": "Move the markers", "card": "Play a card's action", "double_agent": "Reveal a double agent",
    "reveal": "Reveal your identity", "devils_island": "Permanent Effects", "mi_go": "Permanent Effects",
    "mi_go_return": "Permanent Effects", "hudson": "Permanent Effects", "sacrifice": "Permanent Effects",
    "zombie_kill": "Zombies", "zombie_place": "Zombies", "keep": "Pinkerton Agents", "destroy": "Cthulhu",
    "escape": "Escape (Master of Disguise)", "relocate": "Move out", "discard": "Discard cards",
    "allow": "Let it happen", "pass": "Pass or stop", "done": "Pass or stop", "skip": "Pass or stop",
}
ENDS = {"war_track": "the War marker reached the top", "revolution_track": "the Revolution marker reached the top",
        "victory_points": "a player reached the Victory Point target",
        "restorationist_main_agent_killed": "a Restorationist's Main Agent was killed",
        "restorationist_mad": "a Restorationist went mad", "zombies": "all eight zombies were out"}


def card(face: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A card as a player reads it: the number commands accept, the name, what it does."""
    if not face:
        return None
    return {"number": face.get("number"), "name": str(face.get("name", "?")), "does": str(face.get("does", "")),
            "text": str(face.get("text", ""))}


def _label(c: Mapping[str, Any] | None) -> str:
    return f"{c['name']} ({c['number']})" if c else "none"


class Emerald1Presentation:
    name = "emerald1"
    short_name = "Emerald (1st ed.)"
    web_template = "web/games/emerald1.html"
    mail_html_template = "mail/games/emerald1.html"

    # ---- scene ----------------------------------------------------------------------------

    def scene(self, view: Mapping[str, Any]) -> dict[str, Any]:
        players = list(view.get("players") or [])
        names = [str(p.get("name", f"player {i + 1}")) for i, p in enumerate(players)]
        seat = view.get("seat")

        def who(i: Any) -> str:
            return names[i] if isinstance(i, int) and 0 <= i < len(names) else "nobody"

        cities = []
        for c in view.get("cities") or []:
            cubes = list(c.get("cubes") or [])
            zombies = list(c.get("zombies") or [])
            top = c.get("top")
            royal = c.get("royal") or {}
            taken = royal.get("taken_by")
            cities.append({
                "id": c.get("id"), "key": f"city:{c.get('id')}", "name": str(c.get("name", "?")), "vp": c.get("vp"), "defence": c.get("defence"),
                "royal": f"{royal.get('name', '?')} (defence {royal.get('defence')}, {royal.get('vp')} VP)"
                         + (f": {'hidden' if royal.get('how') == 'hidden' else 'assassinated'} by {who(taken)}"
                            if taken is not None else ""),
                "royal_taken": taken is not None, "royal_how": royal.get("how"),
                "owner": who(c.get("owner")) if c.get("owner") is not None else None,
                "owner_colour": COLOURS[c["owner"] % 5] if c.get("owner") is not None else None,
                "bismarck": c.get("bismarck") is not None, "destroyed": bool(c.get("destroyed")),
                "blocked": bool(c.get("blocked")),
                "cubes": [{"name": who(i), "colour": COLOURS[i % 5], "count": n} for i, n in enumerate(cubes) if n],
                "zombies": [{"name": who(i), "colour": COLOURS[i % 5], "count": n} for i, n in enumerate(zombies) if n],
                "agents": [{"key": a.get("key"), "name": a.get("name"), "owner": who(a.get("owner")),
                            "colour": COLOURS[a["owner"] % 5] if isinstance(a.get("owner"), int) else "#555",
                            "vampire": bool(a.get("vampire")), "main": bool(a.get("main"))}
                           for a in c.get("agents") or []],
                "top": ({**(card(top) or {}), "cubes": [{"name": who(i), "colour": COLOURS[i % 5], "count": n}
                                                        for i, n in enumerate(top.get("cubes") or []) if n],
                         "blocked": bool(top.get("blocked")), "agent_on_card": bool(top.get("agent_on_card"))}
                        if top else None),
                "cards_left": c.get("cards_left", 0)})
        table = []
        for i, p in enumerate(players):
            table.append({
                "seat": i, "name": names[i], "colour": COLOURS[i % 5], "colour_name": COLOUR_NAMES[i % 5],
                "you": seat is not None and i == seat, "vp": p.get("vp", 0), "known": bool(p.get("known")),
                "side": SIDES.get(str(p.get("side")), "secret"), "available": p.get("available", 0),
                "pool": p.get("pool", 0), "limbo": p.get("limbo", 0), "mad": p.get("mad", 0),
                "hand": p.get("hand_size", 0), "deck": p.get("deck_size", 0),
                "discard_top": card(p.get("discard_top")), "double_agents": p.get("double_agents", 0),
                "effects": [card(e) for e in p.get("permanent_effects") or []],
                "kills": [str(k.get("name")) for k in p.get("kills") or []],
                "mi_go": [str(a.get("name")) for a in p.get("mi_go") or []],
                "main_dead": bool(p.get("main_agent_dead"))})
        you = view.get("you")
        mine = None
        if you:
            mine = {"side": SIDES.get(str(you.get("side")), "?"),
                    "identity": SIDES.get(str(you.get("identity_card")), "?"),
                    "hand": [card(c) for c in you.get("hand") or []], "deck": you.get("deck_size", 0),
                    "discard": [card(c) for c in you.get("discard") or []],
                    "double_agents": [f"{d['name']} (agent {d['agent']})" for d in you.get("double_agents") or []],
                    "seen": [f"{who(x['seat'])} is {SIDES.get(x['side'], x['side'])}" for x in you.get("seen") or []],
                    "score": you.get("score_if_revealed", 0),
                    "vp_by_kind": ", ".join(f"{k} {v}" for k, v in (you.get("vp_by_kind") or {}).items() if v),
                    "hand_limit": you.get("hand_limit", 5)}
        tracks = view.get("tracks") or {}
        city_names = {str(c.get("id")): str(c.get("name")) for c in view.get("cities") or []}  # routes name cities
        asked = view.get("asked")
        outcome = view.get("outcome")
        return {
            "game": "emerald1", "over": view.get("phase") == "over", "turn": view.get("turn"),
            "turn_words": self._turn_words(view, names), "asked": self._asked(view, names),
            "cities": cities, "players": table, "you": mine,
            "routes": [{"cities": list(r.get("cities") or []), "cost": r.get("cost"),
                        "key": route_key(r.get("cities") or []),
                        "names": [city_names.get(c, str(c)) for c in r.get("cities") or []]}
                       for r in view.get("map") or []],
            "tracks": {"war": tracks.get("war", 0), "revolution": tracks.get("revolution", 0),
                       "war_max": tracks.get("war_max", 0), "revolution_max": tracks.get("revolution_max", 0),
                       "top": tracks.get("top_space", 12), "vp": dict(tracks.get("vp_spaces") or {})},
            "victory_target": view.get("victory_target"),
            "display": [{**(card(c) or {}), "cubes": [{"name": who(i), "colour": COLOURS[i % 5], "count": n}
                                                      for i, n in enumerate(c.get("cubes") or []) if n],
                         "blocked": bool(c.get("blocked"))} for c in view.get("permanent_effects_on_display") or []],
            "supply": (f"{view.get('sanity_left', 0)} Sanity counters face down, {view.get('double_agents_left', 0)} "
                       f"Double-agent counters, {view.get('zombies_left', 0)} zombies, "
                       f"{view.get('blocking_discs_left', 0)} Blocking discs, "
                       f"{view.get('safe_counters_left', 0)} Safe counters, "
                       f"{view.get('permanent_effects_left', 0)} Permanent Effects face down"),
            "removed": [card(c) for c in view.get("removed") or []],
            "removed_face_down": view.get("removed_face_down", 0),
            "leopold": bool(view.get("society_of_leopold")),
            "waiting": asked["text"] if asked and asked.get("seat") != seat else None,
            "outcome": ({"summary": outcome.get("summary", ""), "ended": ENDS.get(str(view.get("end_reason")), ""),
                         "scores": [{"name": who(int(k)), "score": v,
                                     "side": SIDES.get(str(players[int(k)].get("side")), "?")}
                                    for k, v in (outcome.get("scores") or {}).items()]} if outcome else None),
            "uses_assumed_data": bool(view.get("assumed")),
        }

    @staticmethod
    def _turn_words(view: Mapping[str, Any], names: Sequence[str]) -> str:
        phase = view.get("phase")
        if phase == "over":
            return "The game is over."
        if phase == "setup":
            return "Setup: the players place their Main Agents."
        active = view.get("active")
        name = names[active] if isinstance(active, int) and 0 <= active < len(names) else "?"
        done, of = view.get("actions_done") or 0, view.get("actions") or 2
        return f"Turn {view.get('turn') or 1}: {name} to play, action {min(done + 1, of)} of {of}."

    @staticmethod
    def _asked(view: Mapping[str, Any], names: Sequence[str]) -> str | None:
        prompt = view.get("prompt")
        return str(prompt.get("text", "")) if prompt else None

    def turn_label(self, view: Mapping[str, Any]) -> str | None:
        phase = view.get("phase")
        if phase == "over":
            return None
        if phase == "setup":
            return "setup"
        done, of = view.get("actions_done") or 0, view.get("actions") or 2
        return f"turn {view.get('turn') or 1}, action {min(done + 1, of)} of {of}"

    # ---- text -----------------------------------------------------------------------------

    def text_board(self, scene: Mapping[str, Any]) -> list[str]:
        t = scene["tracks"]
        lines = [scene["turn_words"],
                 f"War {t['war']} (highest {t['war_max']}), Revolution {t['revolution']} (highest "
                 f"{t['revolution_max']}), top {t['top']}; victory at {scene.get('victory_target')} VP", "",
                 "CITIES (VP, defence; owner; agents; cubes; the card on top to claim)"]
        for c in scene["cities"]:
            if c["destroyed"]:
                lines.append(f"{c['name']}: destroyed by Cthulhu")
                continue
            head = f"{c['name']} ({c['vp']} VP, def {c['defence']})" + (f" owner {c['owner']}" if c["owner"] else "") \
                + (" [Bismarck]" if c["bismarck"] else "") + (" [blocked]" if c["blocked"] else "")
            agents = ", ".join(f"{a['name']}{' (vampire)' if a['vampire'] else ''} [{a['owner']}]" for a in c["agents"])
            cubes = ", ".join(f"{x['name']} {x['count']}" for x in c["cubes"])
            top = c["top"]
            topline = (f"top: {_label(top)} {top['does']}" + (" [blocked]" if top["blocked"] else "")
                       + (f" cubes {', '.join(x['name'] + ' ' + str(x['count']) for x in top['cubes'])}"
                          if top["cubes"] else "") + f"; {c['cards_left']} left") if top else "no cards left"
            lines += wrap_text(head, "    ")
            for part in (f"agents: {agents}" if agents else "", f"cubes: {cubes}" if cubes else "", topline,
                         "royal: " + c["royal"]):
                if part:
                    lines += wrap_text("    " + part, "      ")
        lines.append("")
        lines.append("ROUTES (gold): " + "; ".join("-".join(r["names"]) + f" {r['cost']}" for r in scene["routes"]))
        lines = lines[:-1] + wrap_text(lines[-1], "    ")
        if scene["display"]:
            lines += wrap_text("ON DISPLAY: " + "; ".join(_label(d) + " " + d["text"] for d in scene["display"]), "    ")
        lines.append("")
        lines.append("PLAYERS")
        for p in scene["players"]:
            text = (f"{p['name'][:16]}{' (you)' if p['you'] else ''}: {p['vp']} VP, {p['side']}"
                    f"{', known' if p['known'] else ''}; cubes {p['available']} available, {p['pool']} pool, "
                    f"{p['limbo']} Limbo; hand {p['hand']}; Mad {p['mad']}; double agents {p['double_agents']}")
            if p["effects"]:
                text += "; " + ", ".join(_label(e) for e in p["effects"])
            lines += wrap_text(text, "    ")
        you = scene.get("you")
        if you:
            lines.append("")
            card_says = f" (identity card says {you['identity']})" if you["identity"] != you["side"] else ""
            lines += wrap_text(f"YOU: {you['side']}" + card_says + f"; score if revealed {you['score']}"
                           + (f" ({you['vp_by_kind']})" if you["vp_by_kind"] else ""), "    ")
            if you["double_agents"]:
                lines += wrap_text("Your double agents: " + ", ".join(you["double_agents"]), "    ")
            if you["seen"]:
                lines += wrap_text("You have seen: " + "; ".join(you["seen"]), "    ")
            lines.append("YOUR HAND (commands use the number on the left):")
            for c in you["hand"]:
                lines += wrap_text(f"{c['number']:>5}  {c['name']}: " + "; ".join(x for x in (c["does"], c["text"]) if x),
                               " " * 11)
        return [line.rstrip() for line in lines]

    # ---- the map ---------------------------------------------------------------------------

    def svg(self, scene: Mapping[str, Any], links: Mapping[str, str] | None = None) -> str:
        """The map (``map_svg``): cities and routes, a city or route in ``links`` a link to its choices."""
        return draw(scene, links)

    # ---- choices --------------------------------------------------------------------------

    def group(self, view: Mapping[str, Any],
              legal: Sequence[Mapping[str, Any]]) -> list[tuple[str, list[tuple[str, str]]]]:
        said = _Sayer(view)
        groups: dict[str, list[tuple[str, str]]] = {}
        for entry in legal:
            action = entry.get("action") or {}
            title = GROUPS.get(str(action.get("kind", "")), "Other actions")
            groups.setdefault(title, []).append((str(entry["text"]), said.action(action, str(entry["text"]))))
        order = list(dict.fromkeys(GROUPS.values()))
        return sorted(groups.items(), key=lambda item: order.index(item[0]) if item[0] in order else len(order))

    def part_of(self, view: Mapping[str, Any], action: Mapping[str, Any]) -> tuple[str, str] | None:
        """A long group by card, then target: ``("with Agent X (109)", "on Berlin")``."""
        said = _Sayer(view)
        k = action.get("kind")
        if k == "place":
            return f"with {said.cards_(action.get('cards'))}", f"on {said.place(action.get('to'))}"
        if k == "discard":
            return said.cards_(action.get("cards")), f"showing {said.card(action.get('shown'))}"
        if k in ("move", "relocate", "mi_go_return"):
            return said.agent(action.get("agent")), f"to {said.cities.get(str(action.get('to')), action.get('to'))}"
        if k == "card":
            words = said.card_action(action, "", said.cities.get(str(action.get("city")), str(action.get("city"))),
                                     said.cities.get(str(action.get("to")), str(action.get("to"))))
            head, _, rest = words.partition(": ")
            return head, rest or "play it"
        if k == "markers":
            return said.cards_([c for c, _ in action.get("plays") or []]), said.action(action, "")
        if k == "zombie_kill":
            return said.cities.get(str(action.get("city")), str(action.get("city"))), said.agent(action.get("agent"))
        return None

    def touches(self, view: Mapping[str, Any], action: Mapping[str, Any]) -> list[str]:
        """The cities, routes and cards an action is about (``city:paris``, ``route:berlin-vienna``, ``card:17``):
        what a player clicks to find it."""
        where = _Where(view)
        keys: list[str] = []
        for f in ("city", "to", "stack", "from"):
            value = action.get(f)
            if isinstance(value, str):
                keys += where.place(value)
        for f in ("target", "block", "unblock"):
            if isinstance(action.get(f), str):
                keys += where.place(action[f]) if ":" in action[f] else where.agent(action[f])
        for f in ("agent", "flip", "convert"):
            if isinstance(action.get(f), (str, int)) and not isinstance(action.get(f), bool):
                keys += where.agent(str(action[f]))
        for f in ("card", "shown", "display", "remove"):
            if isinstance(action.get(f), int) and not isinstance(action.get(f), bool):
                keys.append(f"card:{action[f]}")
        for f in ("cards", "bombs", "discard"):
            keys += [f"card:{n}" for n in action.get(f) or [] if isinstance(n, int)]
        keys += [f"card:{c}" for c, _ in action.get("plays") or [] if isinstance(c, int)]
        for place, _ in action.get("cubes") or []:
            keys += where.place(str(place))
        if action.get("kind") in ("move", "relocate", "mi_go_return", "escape") and isinstance(action.get("to"), str):
            start = where.agent_city.get(str(action.get("agent")))
            keys += where.routes_between(start, action["to"])
        return list(dict.fromkeys(keys))

    def pick_name(self, view: Mapping[str, Any], key: str) -> str:
        kind, _, ident = key.partition(":")
        said = _Sayer(view)
        if kind == "card" and ident.isdigit():
            return said.card(int(ident))
        if kind == "route":
            return "the route " + "–".join(said.cities.get(c, c) for c in ident.split("-"))
        return said.cities.get(ident, ident)

    def assumed(self, view: Mapping[str, Any]) -> list[dict[str, Any]]:
        groups: dict[str, list[str]] = {}
        for key in view.get("assumed") or []:
            section, _, rest = str(key).partition(".")
            groups.setdefault(section.replace("_", " ").capitalize(), []).append(rest.replace("_", " ") or section)
        return [{"title": title, "items": [{"what": what, "fields": []} for what in items]}
                for title, items in groups.items()]


class _Where:
    """Where things are on the table, from the view: each agent's city, each face-up card's city, the routes."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.agent_city: dict[str, str] = {}
        self.card_city: dict[int, str] = {}
        for c in view.get("cities") or []:
            cid = str(c.get("id"))
            for a in c.get("agents") or []:
                self.agent_city[str(a.get("key"))] = cid
            top = c.get("top") or {}
            if isinstance(top.get("number"), int):
                self.card_city[top["number"]] = cid
        self.routes = [[str(x) for x in r.get("cities") or []] for r in view.get("map") or []]

    def place(self, p: str) -> list[str]:
        """A place's keys: a City box is its city; a face-up card is the card and the city it lies on."""
        kind, _, ident = p.partition(":")
        if kind == "city":
            return [f"city:{ident}"]
        if kind == "card" and ident.isdigit():
            city = self.card_city.get(int(ident))
            return [f"card:{ident}"] + ([f"city:{city}"] if city else [])
        if p in self.agent_city.values() or any(p in r for r in self.routes):
            return [f"city:{p}"]
        return []

    def agent(self, key: str) -> list[str]:
        city = self.agent_city.get(key)
        return [f"city:{city}"] if city else []

    def routes_between(self, a: str | None, b: str) -> list[str]:
        return [route_key(r) for r in self.routes if a in r and b in r and a != b]


class _Sayer:
    """Says an action in words, with the names the view gives to cards, cities and players."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        faces: list[Any] = list((view.get("you") or {}).get("hand") or [])
        self.agents: dict[int, str] = {}
        for c in view.get("cities") or []:
            faces.append(c.get("top"))
            self.agents.update({a["number"]: str(a.get("name")) for a in c.get("agents") or []
                                if isinstance(a.get("number"), int)})
        for d in (view.get("you") or {}).get("double_agents") or []:
            self.agents[d["agent"]] = str(d["name"])
        faces += list(view.get("permanent_effects_on_display") or [])
        self.cards = {f["number"]: str(f.get("name", "?")) for f in faces
                      if isinstance(f, Mapping) and isinstance(f.get("number"), int)}
        self.cities = {str(c.get("id")): str(c.get("name")) for c in view.get("cities") or []}
        self.names = [str(p.get("name", f"player {i + 1}")) for i, p in enumerate(view.get("players") or [])]

    def card(self, n: Any) -> str:
        return f"{self.cards[n]} ({n})" if n in self.cards else f"card {n}"

    def cards_(self, ns: Any) -> str:
        return ", ".join(self.card(n) for n in ns or []) or "no card"

    def place(self, p: Any) -> str:
        p = str(p)
        if p.startswith("city:"):
            return city_box(self.cities.get(p[5:], p[5:]))
        if p.startswith("card:"):
            return self.card(int(p[5:]))
        return {"limbo": "Limbo", "available": "your Available stock"}.get(p, p)

    def player(self, s: Any) -> str:
        return self.names[s] if isinstance(s, int) and 0 <= s < len(self.names) else "?"

    def agent(self, k: Any) -> str:
        k = str(k)
        if k.startswith("m"):
            return f"{self.player(int(k[1:]))}'s Main Agent"
        # an agent counter, named as such: "Johann Most (agent 7)" (its card may be hidden in a deck)
        return f"{self.agents.get(int(k), 'agent')} (agent {k})" if k.isdigit() else k

    def card_action(self, a: Mapping[str, Any], text: str, city: str, to: str) -> str:
        card = self.card(a.get("card"))
        bombs = f", adding bombs {self.cards_(a.get('bombs'))}" if a.get("bombs") else ""
        if a.get("target") == "royal":
            return f"{card}: the royal person in {city}{bombs}"
        if "target" in a:
            return f"{card}: {self.agent(a['target'])} in {city}{bombs}"
        if "zombie" in a:
            return f"{card}: kill a zombie of {self.player(a['zombie'])} in {city}"
        for key, words in (("block", "a Blocking disc on"), ("unblock", "remove the Blocking disc from")):
            if key in a:
                return f"{card}: {words} {self.place(a[key])}"
        if "player" in a:
            return f"{card}: {self.player(a['player'])}" + (f" in {city}" if a.get("city") else "")
        if "agent" in a:
            return f"{card}: {self.agent(a['agent'])}" + (f" to {city}" if a.get("city") else "")
        if "flip" in a or "convert" in a:
            return f"{card}: {'flip' if 'flip' in a else 'convert'} {self.agent(a.get('flip') or a.get('convert'))}"
        if "from" in a:
            return f"{card}: {a.get('count')} from {self.place(a['from'])} to {self.place(a.get('to'))}"
        if "to" in a:
            return f"{card}: a cube on {self.place(a['to'])}"
        if "discard" in a:
            shown = f", showing {self.card(a['shown'])}" if "shown" in a else ""
            return f"{card}: discard {self.cards_(a['discard'])}{shown}"
        if "cubes" in a:
            return f"{card}: " + ", ".join(f"a cube of {self.player(o)} on {self.place(p)}" for p, o in a["cubes"])
        if "stack" in a:
            return f"{card}: the top card of {self.cities.get(str(a['stack']), a['stack'])}"
        if "display" in a:
            return f"{card}: {self.card(a['display'])} from the display"
        if "remove" in a:
            return f"{card}: remove {self.card(a['remove'])} from your hand, face down"
        if "steps" in a:
            return f"{card}: War +{a['steps']}"
        if a.get("city"):
            return f"{card}: {city}"
        return card

    def action(self, a: Mapping[str, Any], text: str) -> str:
        k = a.get("kind")
        city = self.cities.get(str(a.get("city")), str(a.get("city", "")))
        to = self.cities.get(str(a.get("to")), str(a.get("to", "")))
        if k == "start":
            return f"your Main Agent in {city}"
        if k == "claim":
            return self.place(a.get("target"))
        if k == "place":
            return f"with {self.cards_(a.get('cards'))} on {self.place(a.get('to'))}"
        if k in ("retrieve", "buy", "pay"):
            return f"with {self.cards_(a.get('cards'))}"
        if k == "take":
            return f"a cube from {self.place(a.get('from'))}"
        if k in ("move", "relocate", "mi_go_return"):
            return f"{self.agent(a.get('agent'))} to {to}"
        if k == "markers":
            return "; ".join(f"{self.card(c)} ({i + 1})" for c, i in a.get("plays") or [])
        if k == "discard":
            return f"{self.cards_(a.get('cards'))}, showing {self.card(a.get('shown'))}"
        if k == "double_agent":
            return self.agent(a.get("agent"))
        if k == "card":
            return self.card_action(a, text, city, to)
        if k in ("devils_island", "mi_go", "hudson", "sacrifice", "escape"):
            return f"{k.replace('_', ' ')}: {self.card(a.get('card'))}" + (f" to {to}" if a.get("to") else "")
        if k == "zombie_kill":
            return f"kill {self.agent(a.get('agent'))} in {city}"
        if k in ("zombie_place", "destroy"):
            return city
        return {"pass": "pass: this action does nothing", "done": "done: stop here", "skip": "skip",
                "allow": "let it happen", "reveal": "reveal your Secret Identity"}.get(str(k), text)


PRESENTATION = Emerald1Presentation()

__all__ = ["PRESENTATION", "Emerald1Presentation", "card"]
