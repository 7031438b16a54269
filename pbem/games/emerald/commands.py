"""The text command syntax (email replies, the CLI): ``parse_command`` and ``format_action``.

``parse_command(state, format_action(state, a)) == a`` for every legal action ``a``.
See docs/emerald-commands.md.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from events.rules import AmbiguousAction, InvalidAction
from pbem.games.emerald.state import State

Action = dict[str, Any]

CARDS = r"(?P<cards>\d+(?:[ ,]+\d+)*)"


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = text.replace("’", "'").replace("_", " ").replace(".", "")
    return re.sub(r"\s+", " ", text.strip().lower())


# --- names ---------------------------------------------------------------------------------

def city_name(state: State, city: str) -> str:
    return state.cat.city_names[city]


def parse_city(state: State, text: str) -> str:
    want = _fold(text)
    for cid in state.cat.city_ids:
        if want in (_fold(cid), _fold(state.cat.city_names[cid])):
            return cid
    names = ", ".join(state.cat.city_names[c] for c in state.cat.city_ids)
    raise InvalidAction(f"Unknown city {text.strip()!r}. Cities: {names}.")


def _player_ok(state: State, i: int) -> bool:
    name = state.names[i]
    folded = _fold(name)
    if not folded or re.search(r"\b(in|and|of|seat|using|with|to|from)\b|[:;,()]", folded) or re.fullmatch(r"\d+", folded):
        return False
    return sum(1 for n in state.names if _fold(n) == folded) == 1


def player_name(state: State, seat: int) -> str:
    return state.names[seat] if _player_ok(state, seat) else f"seat {seat}"


def parse_player(state: State, text: str) -> int:
    want = _fold(text)
    m = re.fullmatch(r"seat (\d+)", want)
    if m:
        seat = int(m.group(1))
        if seat < state.n:
            return seat
    for i in range(state.n):
        if _player_ok(state, i) and _fold(state.names[i]) == want:
            return i
    raise InvalidAction(f"Unknown player {text.strip()!r}. Players: "
                        + ", ".join(player_name(state, i) for i in range(state.n)) + ".")


def card_name(state: State, card: int) -> str:
    c = state.cat.cards[card]
    same = [x for x in state.cat.cards.values() if _fold(x.name) == _fold(c.name)]
    return c.name if len(same) == 1 else f"{c.name} ({card})"


def parse_card(state: State, text: str) -> int:
    t = text.strip()
    m = re.fullmatch(r"(.*?)\s*\((\d+)\)", t)
    if m:
        t = m.group(2)
    if re.fullmatch(r"\d+", t):
        card = int(t)
        if card in state.cat.cards:
            return card
        raise InvalidAction(f"There is no card {card}.")
    want = _fold(t)
    found = [c.id for c in state.cat.cards.values() if _fold(c.name) == want]
    if not found:
        found = [c.id for c in state.cat.cards.values() if _fold(c.name).startswith(want) and c.text]
    if len(found) == 1:
        return found[0]
    if not found:
        raise InvalidAction(f"Unknown card {text.strip()!r}: name a card or give its number.")
    raise AmbiguousAction(f"{text.strip()!r} could be cards " + ", ".join(str(c) for c in sorted(found))
                          + ": give the number, e.g. 'play " + str(min(found)) + "'.")


def _starting_numbers(state: State, text: str) -> str:
    """A starting card's printed number (S010) read as the number the commands use (310 for the second seat).

    Only the deciding player's own starting cards are meant, so the seat is the one deciding now.
    """
    if not re.search(r"\bs[0-9]{3}\b", text):
        return text
    from pbem.games.emerald.data import start_card_id
    from pbem.games.emerald.state import acting
    who = acting(state)
    if who is None:
        return text
    return re.sub(r"\bs([0-9]{3})\b", lambda m: str(start_card_id(who[0], "S" + m[1])), text)


def _cards(text: str | None) -> list[int]:
    if not text:
        return []
    return sorted(int(x) for x in re.split(r"[ ,]+", text.strip()) if x)


def _ids(cards: list[int]) -> str:
    return " ".join(str(c) for c in cards)


def _split_and(text: str) -> list[str]:
    return [p for p in re.split(r"\s*(?:,|\band\b)\s*", text.strip()) if p]


# --- format ---------------------------------------------------------------------------------

def format_action(state: State, action: Mapping[str, Any]) -> str:
    a = dict(action)
    kind = a.get("kind")

    def C(c: str) -> str:
        return city_name(state, c)

    def P(s: int) -> str:
        return player_name(state, s)
    if kind in ("pass", "done", "skip", "decline"):
        return str(kind)
    if kind == "place_agent":
        return f"place agent in {C(a['city'])}"
    if kind == "place":
        return f"place {a['count']} cube{'s' if a['count'] != 1 else ''} in {C(a['city'])} using {_ids(a['cards'])}"
    if kind == "claim":
        return f"claim {' and '.join(C(c) for c in a['cities'])} using {_ids(a['cards'])}"
    if kind == "retrieve":
        return f"retrieve {a['count']} cube{'s' if a['count'] != 1 else ''} using {_ids(a['cards'])}"
    if kind == "take_cube":
        return f"take cube from {'Limbo' if a['from'] == 'limbo' else C(a['from'])}"
    if kind == "move":
        return f"move {a['count']} agent{'s' if a['count'] != 1 else ''} using {_ids(a['cards'])}"
    if kind == "move_agent":
        return f"move agent from {C(a['from'])} to {C(a['to'])}"
    if kind == "markers":
        parts = []
        if a["resto"]:
            parts.append(f"restorationist using {_ids(a['resto'])}")
        if a["loyal"]:
            parts.append(f"loyalist using {_ids(a['loyal'])}")
        return "move markers: " + "; ".join(parts)
    if kind == "assassinate":
        target = "royalty" if a["target"] == "royalty" else f"agent of {P(a['target'])}"
        text = f"assassinate {target} in {C(a['city'])} with {a['card']}"
        return text + (f" using {_ids(a['bombs'])}" if a["bombs"] else "")
    if kind == "discard":
        return f"discard {_ids(a['cards'])}"
    if kind == "migo_return":
        return f"return Mi-Go agents to {C(a['city'])}"
    if kind == "yog_take":
        return f"take agent from {C(a['city'])}"
    if kind == "zombie_kill":
        return f"kill agent of {P(a['player'])} in {C(a['city'])} with zombies"
    if kind == "zombie_place":
        return f"place zombie in {C(a['city'])}"
    if kind == "interrupt":
        return f"use {card_name(state, a['card'])}"
    if kind == "play":
        return f"play {card_name(state, a['card'])}" + _format_args(state, a)
    raise InvalidAction(f"Unknown action kind {kind!r}.")


def _format_args(state: State, a: Mapping[str, Any]) -> str:
    text = state.cat.cards[a["card"]].text

    def C(c: str) -> str:
        return city_name(state, c)

    def P(s: int) -> str:
        return player_name(state, s)
    if text in ("mrs_hudson", "freemasons"):
        return ": discard " + (_ids(a["discard"]) if a["discard"] else "nothing")
    if text == "mi_go":
        cities = a["from"]
        return f": agent{'s' if len(cities) > 1 else ''} from " + " and ".join(C(c) for c in cities)
    if text == "okhrana":
        cubes = a["cubes"]
        if len(cubes) == 2 and cubes[0] == cubes[1]:
            return f": 2 cubes of {P(cubes[0][0])} in {C(cubes[0][1])}"
        return ": " + " and ".join(f"cube of {P(v)} in {C(c)}" for v, c in cubes)
    if text == "lestrade":
        return f": cubes of {P(a['player'])} in {C(a['city'])}"
    if text in ("irene_adler", "shoggoth", "vampires"):
        return f": agent of {P(a['player'])} in {C(a['city'])}"
    if text in ("terrors", "burtsev"):
        return f": {P(a['player'])}"
    if "city" in a:
        return f": in {C(a['city'])}"
    return ""


# --- parse ----------------------------------------------------------------------------------

# No card numbers in the examples: an error names only the asking player's own cards, and the parser does not
# know who asks. N stands for the number of a card in your hand; your page and mail list what you can play now.
HELP = ("Commands, where N is the number of a card in your hand: pass; place 2 cubes in Paris using N N; "
        "claim London using N; retrieve 1 cube using N; move 1 agent using N; "
        "move markers: restorationist using N; assassinate royalty in Paris with N using N; "
        "assassinate agent of bob in Rome with N; discard N N; play CARD NAME: cube of bob in Rome; "
        "use CARD NAME; decline; done. Your page and your mail list the commands you can play now.")


def parse_command(state: State, text: str) -> Action:
    if not isinstance(text, str) or not text.strip():
        raise InvalidAction("Empty command. " + HELP)
    raw = text.strip().rstrip(".")
    t = _starting_numbers(state, _fold(raw))
    if t in ("pass", "done", "skip", "decline"):
        return {"kind": t}
    if t in ("end turn", "end my turn", "end"):
        return {"kind": "done"}
    m = re.fullmatch(r"place (?:an |one )?agent in (?P<city>.+)", t)
    if m:
        return {"kind": "place_agent", "city": parse_city(state, m["city"])}
    m = re.fullmatch(r"place (?P<n>\d+) cubes? in (?P<city>.+?) using " + CARDS, t)
    if m:
        return {"kind": "place", "city": parse_city(state, m["city"]), "count": int(m["n"]),
                "cards": _cards(m["cards"])}
    m = re.fullmatch(r"claim (?P<cities>.+?) using " + CARDS, t)
    if m:
        cities = [parse_city(state, c) for c in _split_and(m["cities"])]
        order = state.cat.city_ids
        return {"kind": "claim", "cities": sorted(cities, key=order.index), "cards": _cards(m["cards"])}
    m = re.fullmatch(r"retrieve (?P<n>\d+) cubes? using " + CARDS, t)
    if m:
        return {"kind": "retrieve", "count": int(m["n"]), "cards": _cards(m["cards"])}
    m = re.fullmatch(r"take (?:a |one )?cube from (?P<where>.+)", t)
    if m:
        where = "limbo" if m["where"] == "limbo" else parse_city(state, m["where"])
        return {"kind": "take_cube", "from": where}
    m = re.fullmatch(r"move (?P<n>\d+) agents? using " + CARDS, t)
    if m:
        return {"kind": "move", "count": int(m["n"]), "cards": _cards(m["cards"])}
    m = re.fullmatch(r"move (?:an |one )?agent from (?P<a>.+?) to (?P<b>.+)", t)
    if m:
        return {"kind": "move_agent", "from": parse_city(state, m["a"]), "to": parse_city(state, m["b"])}
    m = re.fullmatch(r"move markers?:? (?P<rest>.+)", t)
    if m:
        resto: list[int] = []
        loyal: list[int] = []
        for part in re.split(r"\s*;\s*", m["rest"]):
            pm = re.fullmatch(r"(?P<track>restorationist|loyalist) using " + CARDS, part)
            if not pm:
                raise InvalidAction("Say e.g. 'move markers: restorationist using 16; loyalist using 37'.")
            (resto if pm["track"] == "restorationist" else loyal).extend(_cards(pm["cards"]))
        return {"kind": "markers", "resto": sorted(resto), "loyal": sorted(loyal)}
    m = re.fullmatch(r"assassinate (?P<target>royalty|(?:an )?agent of (?P<player>.+?)) in (?P<city>.+?) with "
                     r"(?P<card>\d+)(?: using " + CARDS + ")?", t)
    if m:
        target: Any = "royalty" if m["target"] == "royalty" else parse_player(state, m["player"])
        return {"kind": "assassinate", "city": parse_city(state, m["city"]), "target": target,
                "card": int(m["card"]), "bombs": _cards(m["cards"])}
    m = re.fullmatch(r"discard " + CARDS, t)
    if m:
        return {"kind": "discard", "cards": _cards(m["cards"])}
    m = re.fullmatch(r"return mi-go agents? to (?P<city>.+)", t)
    if m:
        return {"kind": "migo_return", "city": parse_city(state, m["city"])}
    m = re.fullmatch(r"take (?:an |one )?agent from (?P<city>.+)", t)
    if m:
        return {"kind": "yog_take", "city": parse_city(state, m["city"])}
    m = re.fullmatch(r"kill (?:an )?agent of (?P<player>.+?) in (?P<city>.+?) with zombies?", t)
    if m:
        return {"kind": "zombie_kill", "city": parse_city(state, m["city"]), "player": parse_player(state, m["player"])}
    m = re.fullmatch(r"place (?:a )?zombie in (?P<city>.+)", t)
    if m:
        return {"kind": "zombie_place", "city": parse_city(state, m["city"])}
    m = re.fullmatch(r"use (?P<card>.+)", t)
    if m:
        return {"kind": "interrupt", "card": parse_card(state, m["card"])}
    m = re.fullmatch(r"play (?P<card>[^:]+?)(?:\s*:\s*(?P<args>.+))?", t)
    if m:
        card = parse_card(state, m["card"])
        return _parse_play(state, card, m["args"] or "")
    raise InvalidAction(f"I do not understand {raw!r}. " + HELP)


def _parse_play(state: State, card: int, args: str) -> Action:
    cdef = state.cat.cards[card]
    text = cdef.text
    out: Action = {"kind": "play", "card": card}
    if not text:
        raise InvalidAction(f"{cdef.name} has no text to play; use its symbols with an action (place, claim, ...).")

    def need(pattern: str, example: str) -> re.Match[str]:
        m = re.fullmatch(pattern, args)
        if not m:
            raise InvalidAction(f"Say e.g. 'play {card_name(state, card)}: {example}'.")
        return m

    if text in ("mrs_hudson", "freemasons"):
        m = need(r"discard (?:nothing|" + CARDS + ")", "discard 203 205 (or: discard nothing)")
        out["discard"] = _cards(m["cards"])
    elif text == "mi_go":
        m = need(r"agents? from (?P<cities>.+)", "agents from Paris and Rome")
        cities = [parse_city(state, c) for c in _split_and(m["cities"])]
        out["from"] = sorted(cities)
    elif text == "okhrana":
        two = re.fullmatch(r"(?P<n>2|two )?\s*cubes of (?P<player>.+?) in (?P<city>.+)", args)
        if two:
            spot = [parse_player(state, two["player"]), parse_city(state, two["city"])]
            out["cubes"] = [spot, list(spot)]
        else:
            spots = []
            for part in _split_and_cubes(args):
                pm = re.fullmatch(r"(?:a |one )?cube of (?P<player>.+?) in (?P<city>.+)", part)
                if not pm:
                    raise InvalidAction(f"Say e.g. 'play {card_name(state, card)}: cube of bob in Rome and "
                                        "cube of ann in Paris' (or: 2 cubes of bob in Rome).")
                spots.append([parse_player(state, pm["player"]), parse_city(state, pm["city"])])
            out["cubes"] = sorted(spots, key=lambda x: (str(type(x)), x))
    elif text == "lestrade":
        m = need(r"(?:all )?cubes of (?P<player>.+?) in (?P<city>.+)", "cubes of bob in Rome")
        out["player"] = parse_player(state, m["player"])
        out["city"] = parse_city(state, m["city"])
    elif text in ("irene_adler", "shoggoth", "vampires"):
        m = need(r"(?:an )?agent of (?P<player>.+?) in (?P<city>.+)", "agent of bob in Rome")
        out["player"] = parse_player(state, m["player"])
        out["city"] = parse_city(state, m["city"])
    elif text in ("terrors", "burtsev"):
        if not args:
            raise InvalidAction(f"Say which player, e.g. 'play {card_name(state, card)}: bob'.")
        out["player"] = parse_player(state, args)
    elif text in ("third_section", "pinkerton", "cthulhu", "duchess", "hide_royalty"):
        m = need(r"(?:in |on |at )?(?P<city>.+)", "in Paris")
        out["city"] = parse_city(state, m["city"])
    elif args:
        raise InvalidAction(f"{cdef.name} takes nothing after its name: say 'play {card_name(state, card)}'.")
    return out


def _split_and_cubes(text: str) -> list[str]:
    return [p for p in re.split(r"\s*(?:,|\band\b)\s*(?=(?:a |one )?cube of)", text.strip()) if p]
