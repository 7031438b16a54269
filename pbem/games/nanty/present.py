"""Nanty Narking as a player reads it: London drawn with its river, the hand as cards, the table, in words.

Built only from a view (``view.build_view``), never from the state; see ``pbem.games.presentation``.
A card is named by the number printed on it, the number the commands accept (``play 012``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from pbem.games.nanty.map_svg import draw
from pbem.games.presentation import wrap_text

COLOURS = ("#b03a2e", "#1f5fa8", "#276b2b", "#7d3c98")
COLOUR_NAMES = ("red", "blue", "green", "purple")
SYMBOLS = {"agent": "place an agent", "building": "place a building", "assassinate": "assassinate",
           "trouble": "remove a trouble marker", "scroll": "scroll", "event": "Random Event",
           "again": "play another card", "interrupt": "interrupt"}
MEASURES = {"occupied": "areas occupied (no Grenadier)", "controlled": "areas controlled",
            "own_buildings": "your buildings on the board", "building_value": "value of your buildings",
            "net_worth": "net worth (money and buildings)", "pieces": "your agents and buildings on the board",
            "all_buildings": "buildings on the board (any colour)", "trouble": "trouble markers on the board"}
DECK_OUT = {"fagin": "when the deck runs out: win with more trouble markers than any other player has agents",
            "holmes": "when the deck runs out: win with more agents on the board than there are trouble markers",
            "holmes_classic": "when the deck runs out: win if nobody else has"}
GROUPS = {"play": "Play a card", "agent": "Place an agent", "build": "Place a building",
          "assassinate": "Assassinate", "take": "Take money", "remove_trouble": "Remove a trouble marker",
          "scroll": "The card's scroll", "interrupt": "Stop it with a card", "protect": "Holborn",
          "murder": "Mysterious Murders", "flood": "Flood", "lose": "Subsidence", "discard": "Discard",
          "power": "Use an area power", "skip": "Skip or end", "end": "Skip or end", "decline": "Skip or end"}
SECTIONS = {"cards": "The character deck", "game": "Game settings", "die": "The die", "areas": "Areas",
            "random_events": "Random Event cards", "personalities": "Personalities"}


def _name(names: Sequence[str], seat: Any) -> str:
    return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"


def does(symbols: Sequence[str]) -> str:
    out = []
    for s in symbols:
        name, _, amount = str(s).partition(":")
        out.append(f"take £{amount}" if name == "money" else SYMBOLS.get(name, name))
    return ", then ".join(out)


def card(face: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A card as a player reads it: the number commands accept, the name, what it does."""
    if not face:
        return None
    return {"number": str(face.get("number", "?")), "name": str(face.get("name", "?")),
            "does": does(face.get("symbols") or []), "text": str(face.get("text", ""))}


def _goal(g: Mapping[str, Any]) -> str:
    now = f" (now {g['now']})" if "now" in g else ""
    unit = "£" if g["measure"] in ("building_value", "net_worth") else ""
    return f"{MEASURES.get(g['measure'], g['measure'])} {unit}{g['target']} or more{now}"


def personality_words(p: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if not p:
        return None
    goals = [_goal(g) for g in p.get("goals") or []]
    extra = [DECK_OUT[p["deck_out"]]] if p.get("deck_out") in DECK_OUT else []
    if p.get("riots_lose"):
        extra.append("you cannot win if Riots end the game")
    return {"name": str(p.get("name", "?")), "goals": goals, "other": extra}


class NantyPresentation:
    name = "nanty"
    short_name = "Nanty Narking"
    web_template = "web/games/nanty.html"
    mail_html_template = "mail/games/nanty.html"

    def scene(self, view: Mapping[str, Any]) -> dict[str, Any]:
        players = list(view.get("players") or [])
        names = [str(p.get("name", f"seat {i}")) for i, p in enumerate(players)]
        seat = view.get("seat")
        areas = []
        for a in view.get("areas") or []:
            agents = list(a.get("agents") or [])
            here = [{"name": names[i], "colour": COLOURS[i % 4], "agents": n} for i, n in enumerate(agents) if n]
            b = a.get("building", -1)
            areas.append({"id": a.get("id"), "key": f"area:{a.get('id')}", "name": str(a.get("name", "?")),
                          "cost": a.get("cost", 0),
                          "card": a.get("card"), "die": a.get("die"), "river": bool(a.get("river")),
                          "players": here, "trouble": bool(a.get("trouble")), "grenadiers": a.get("grenadiers", 0),
                          "citizens": a.get("citizens", 0),
                          "building": {"name": _name(names, b), "colour": COLOURS[b % 4]} if isinstance(b, int) and b >= 0 else None,
                          "power": str(a.get("power_text", "")), "power_lost": bool(a.get("disabled")),
                          "power_blocked": not a.get("power_works", True) and not a.get("disabled"),
                          "neighbours": list(a.get("neighbours") or [])})
        by_id = {a["id"]: a["name"] for a in areas}
        table = []
        for i, p in enumerate(players):
            entry = {"name": names[i], "colour": COLOURS[i % 4], "colour_name": COLOUR_NAMES[i % 4],
                     "you": seat is not None and i == seat, "money": p.get("money", 0), "hand": p.get("hand_size", 0),
                     "agents": p.get("agents_on_board", 0), "agents_left": p.get("agents_in_stock", 0),
                     "buildings_left": p.get("buildings_in_stock", 0),
                     "area_cards": [by_id.get(x, x) for x in p.get("area_cards") or []],
                     "loans": [card(c) for c in p.get("loans") or []],
                     "personality": personality_words(p.get("personality"))}
            table.append(entry)
        you = view.get("you")
        mine = None
        if you:
            mine = {"hand": [card(c) for c in you.get("hand") or []],
                    "personality": personality_words(you.get("personality")), "money": you.get("money", 0)}
        playing = card(view.get("playing"))
        outcome = view.get("outcome") or {}
        return {
            "game": "nanty", "over": view.get("phase") == "over", "turn": view.get("turn"),
            "turn_words": self._turn_words(view, names, playing), "asked": (view.get("prompt") or {}).get("text"),
            "areas": areas, "players": table, "you": mine, "playing": playing,
            "bank": view.get("bank", 0), "deck": view.get("deck_size", 0), "events_left": view.get("events_left", 0),
            "events_done": [str(n) for n in view.get("events_done_names") or []],
            "trouble": view.get("trouble", 0), "riots_at": view.get("riots_at", 8),
            "supply": f"{view.get('grenadiers_in_supply', 0)} Grenadiers and {view.get('citizens_in_supply', 0)} "
                      "New Citizens in the supply",
            "discard": [card(c) for c in view.get("discard") or []],
            "variant": "classic" if view.get("personalities") == "classic" else "standard",
            "summary": outcome.get("summary", ""),
            "uses_assumed_data": bool(view.get("uses_assumed_data") or view.get("assumed")),
        }

    @staticmethod
    def _turn_words(view: Mapping[str, Any], names: Sequence[str], playing: Mapping[str, Any] | None) -> str:
        if view.get("phase") == "over":
            return "The game is over."
        who = _name(names, view.get("active"))
        text = f"Turn {view.get('turn') or 1}: {who} to play."
        if playing:
            text += f" Playing {playing['name']} ({playing['number']})."
        return text

    def turn_label(self, view: Mapping[str, Any]) -> str | None:
        return None if view.get("phase") == "over" else f"turn {view.get('turn') or 1}"

    # ---- text ----------------------------------------------------------------------------------

    def text_board(self, scene: Mapping[str, Any]) -> list[str]:
        lines = [scene["turn_words"],
                 f"Bank £{scene['bank']}; deck {scene['deck']} cards; {scene['events_left']} Random Events left; "
                 f"trouble {scene['trouble']} (Riots at {scene['riots_at']}).", "",
                 "LONDON (a agents; B building; ! trouble; G Grenadiers; N New Citizens)"]
        for a in scene["areas"]:
            head = f"{a['name']} £{a['cost']} ({a['die']}{', river' if a['river'] else ''})"
            bits = [f"{p['name'][:10]} {p['agents']}a" for p in a["players"]]
            if a["building"]:
                bits.append(f"B {a['building']['name'][:10]}")
            if a["trouble"]:
                bits.append("!")
            if a["grenadiers"]:
                bits.append(f"G{a['grenadiers']}")
            if a["citizens"]:
                bits.append(f"N{a['citizens']}")
            if a["power_lost"]:
                bits.append("(power lost)")
            lines += wrap_text(f"{head:<30}{' | '.join(bits) or '-'}", " " * 30)
        lines += ["", "PLAYERS"]
        for p in scene["players"]:
            text = (f"{p['name'][:16]}{' (you)' if p['you'] else ''}: £{p['money']}; hand {p['hand']}; "
                    f"{p['agents']} agents out, {p['agents_left']} left; {p['buildings_left']} buildings left")
            if p["area_cards"]:
                text += "; areas: " + ", ".join(p["area_cards"])
            if p["loans"]:
                text += "; loans: " + ", ".join(c["name"] for c in p["loans"])
            if p["personality"]:
                text += f"; was {p['personality']['name']}"
            lines += wrap_text(text, "    ")
        you = scene.get("you")
        if you:
            lines.append("")
            if you["personality"]:
                lines += wrap_text(f"YOU ARE {you['personality']['name']}: win at the start of your turn with "
                               + " or ".join(you["personality"]["goals"] or ["(no goal at the start of a turn)"])
                               + "".join(f"; {o}" for o in you["personality"]["other"]), "    ")
            lines.append("YOUR HAND (commands use the number on the left):")
            for c in you["hand"]:
                lines += wrap_text(f"{c['number']:>5}  {c['name']}: {c['does']}" + (f" ({c['text']})" if c["text"] else ""),
                               " " * 7)
            if not you["hand"]:
                lines.append("    (empty)")
        return [line.rstrip() for line in lines]

    # ---- the map -----------------------------------------------------------------------------

    def svg(self, scene: Mapping[str, Any], links: Mapping[str, str] | None = None) -> str:
        """London (``map_svg``): the areas and their borders; an area in ``links`` is a link to its choices."""
        return draw(scene, links)

    # ---- choices -------------------------------------------------------------------------------

    def group(self, view: Mapping[str, Any],
              legal: Sequence[Mapping[str, Any]]) -> list[tuple[str, list[tuple[str, str]]]]:
        say = _Sayer(view)
        groups: dict[str, list[tuple[str, str]]] = {}
        for entry in legal:
            action = entry.get("action") or {}
            title = GROUPS.get(str(action.get("kind", "")), "Other actions")
            groups.setdefault(title, []).append((str(entry["text"]), say.action(action, str(entry["text"]))))
        order = list(dict.fromkeys(GROUPS.values()))
        return sorted(groups.items(), key=lambda item: order.index(item[0]) if item[0] in order else len(order))

    def touches(self, view: Mapping[str, Any], action: Mapping[str, Any]) -> list[str]:
        """The areas and cards an action is about (``area:city``, ``card:012``): what a player clicks to find it."""
        areas = {str(a.get("id")) for a in view.get("areas") or []}
        keys = [f"area:{action[f]}" for f in ("area", "from", "to", "target") if action.get(f) in areas]
        card = action.get("card")
        if isinstance(card, int) and not isinstance(card, bool):
            keys.append(f"card:{card:03d}")
        return keys

    def pick_name(self, view: Mapping[str, Any], key: str) -> str:
        kind, _, ident = key.partition(":")
        say = _Sayer(view)
        if kind == "card" and ident.isdigit():
            return say.cards.get(int(ident), f"card {ident}")
        return say.area(ident)

    def assumed(self, view: Mapping[str, Any]) -> list[dict[str, Any]]:
        groups: dict[str, dict[str, list[str]]] = {}
        for key in view.get("assumed") or []:
            section, _, rest = str(key).partition(".")
            record, _, field = rest.rpartition(".")
            title = SECTIONS.get(section, section.replace("_", " ").capitalize())
            what = record.replace("_", " ").title() if record else (field.replace("_", " ").capitalize() or title)
            fields = groups.setdefault(title, {}).setdefault(what, [])
            if record:
                fields.append(field.replace("_", " "))
        return [{"title": title, "items": [{"what": what, "fields": fields} for what, fields in items.items()]}
                for title, items in groups.items()]


ENDINGS = {"skip": "skip this symbol", "end": "end your turn (draw back up to five cards)",
           "decline": "let it happen", "take": "take the money from the bank"}


class _Sayer:
    def __init__(self, view: Mapping[str, Any]) -> None:
        faces = list((view.get("you") or {}).get("hand") or [])
        if view.get("playing"):
            faces.append(view["playing"])
        self.cards = {f["id"]: f"{f.get('name', '?')} ({f.get('number', '?')})" for f in faces if isinstance(f, Mapping)}
        self.areas = {str(a.get("id")): str(a.get("name")) for a in view.get("areas") or []}
        self.names = [str(p.get("name", f"seat {i}")) for i, p in enumerate(view.get("players") or [])]
        playing = view.get("playing") or {}
        symbols = list(playing.get("symbols") or [])
        i = view.get("symbol", 0)
        current = symbols[i] if isinstance(i, int) and 0 <= i < len(symbols) else ""
        self.amount = current.split(":", 1)[1] if current.startswith("money:") else ""

    def area(self, a: Any) -> str:
        return self.areas.get(str(a), str(a))

    def whom(self, t: Any) -> str:
        if t == "grenadier":
            return "a Grenadier"
        if t == "citizen":
            return "a New Citizen"
        return f"an agent of {_name(self.names, t)}"

    def action(self, a: Mapping[str, Any], text: str) -> str:
        kind = a.get("kind")
        lift = f" (lifting your agent from {self.area(a['from'])})" if "from" in a and kind in ("agent", "power") else ""
        if kind == "take" and self.amount:
            return f"take £{self.amount} from the bank"
        if kind in ENDINGS:
            return ENDINGS[str(kind)]
        if kind in ("play", "interrupt", "discard"):
            return self.cards.get(a.get("card"), text)
        if kind == "agent":
            return f"in {self.area(a['area'])}{lift}"
        if kind == "build":
            moved = f" (moving your building from {self.area(a['from'])})" if "from" in a else ""
            return f"in {self.area(a['area'])}{moved}"
        if kind in ("assassinate", "murder"):
            where = f" in {self.area(a['area'])}" if "area" in a else ""
            return f"{self.whom(a['target'])}{where}"
        if kind == "remove_trouble":
            return f"in {self.area(a['area'])}"
        if kind == "power":
            out = self.area(a["area"])
            if "to" in a:
                out += f": an agent to {self.area(a['to'])}{lift}"
            if "target" in a:
                out += f": {self.area(a['target'])}"
            if "card" in a:
                out += f": discard {self.cards.get(a['card'], a['card'])}"
            return out
        if kind == "flood":
            return f"move the agent to {self.area(a['to'])}"
        if kind == "lose":
            return f"lose the building in {self.area(a['area'])}"
        if kind == "protect":
            keep = [f"{a['agents']} agent{'s' if a['agents'] != 1 else ''}"] if a.get("agents") else []
            keep += ["the building"] if a.get("building") else []
            return ("keep " + " and ".join(keep) + f" for £{3 * (a.get('agents', 0) + a.get('building', 0))}") if keep \
                else "keep nothing"
        return text


PRESENTATION = NantyPresentation()

__all__ = ["PRESENTATION", "NantyPresentation", "card"]
