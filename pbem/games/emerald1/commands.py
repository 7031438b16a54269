"""Text commands: ``parse`` turns a reply line into an action, ``format`` writes the line for an action.

A command is a word naming the action, then its values, each after its keyword (see
docs/emerald1-commands.md): ``place 101 103 on Berlin``, ``move Ann's Main Agent to St. Petersburg``,
``pay 104``, ``play 35 at royal in Paris bombs 106 107``. Cards are named by their number; a number where a
place is expected is the face-up card with that number. Cities and players are named as players say them:
case, spaces and dots do not matter (``st petersburg``, ``St. Petersburg``, ``the hague``), and the older
one-word keys still work (``st_petersburg``, ``main:ann``).
"""

from __future__ import annotations

import re
from typing import Any, Callable

from events.rules import InvalidAction
from pbem.games.emerald1.state import State

Action = dict[str, Any]

# kind -> (command word, [(field, keyword or "", type)])
CARD_FIELDS = [("target", "at", "target"), ("city", "in", "city"), ("zombie", "zombie", "seat"),
               ("bombs", "bombs", "ints"), ("block", "block", "place"), ("unblock", "unblock", "place"),
               ("player", "player", "seat"), ("from", "from", "place"), ("to", "to", "place"),
               ("count", "count", "int"), ("steps", "steps", "int"), ("agent", "agent", "agent"),
               ("discard", "discard", "ints"), ("shown", "showing", "int"), ("cubes", "cubes", "cubes"),
               ("stack", "stack", "city"),
               ("display", "display", "int"), ("remove", "remove", "int"), ("flip", "flip", "agent"),
               ("convert", "convert", "agent")]
SPECS: dict[str, tuple[str, list[tuple[str, str, str]]]] = {
    "start": ("start", [("city", "", "city")]),
    "claim": ("claim", [("target", "", "place")]),
    "place": ("place", [("cards", "", "ints"), ("to", "on", "place")]),
    "retrieve": ("retrieve", [("cards", "", "ints")]),
    "take": ("take", [("from", "from", "place")]),
    "buy": ("buy", [("cards", "", "ints")]),
    "move": ("move", [("agent", "", "agent"), ("to", "to", "city")]),
    "pay": ("pay", [("cards", "", "ints")]),
    "markers": ("markers", [("plays", "", "plays")]),
    "discard": ("discard", [("cards", "", "ints"), ("shown", "showing", "int")]),
    "reveal": ("reveal", []),
    "pass": ("pass", []),
    "allow": ("allow", []),
    "skip": ("skip", []),
    "done": ("done", []),
    "double_agent": ("double", [("agent", "", "int")]),
    "card": ("play", [("card", "", "int")] + CARD_FIELDS),
    "devils_island": ("devils", [("card", "", "int"), ("player", "player", "seat")]),
    "mi_go": ("migo", [("card", "", "int")]),
    "mi_go_return": ("return", [("agent", "", "agent"), ("to", "to", "city")]),
    "hudson": ("hudson", [("card", "", "int")]),
    "sacrifice": ("sacrifice", [("card", "", "int")]),
    "zombie_kill": ("kill", [("agent", "", "agent"), ("city", "in", "city")]),
    "zombie_place": ("zombie", [("city", "", "city")]),
    "keep": ("keep", [("agents", "", "ints")]),
    "destroy": ("destroy", [("city", "", "city")]),
    "escape": ("escape", [("card", "", "int"), ("to", "to", "city")]),
    "relocate": ("relocate", [("agent", "", "agent"), ("to", "to", "city")]),
}
WORDS = {word: kind for kind, (word, _) in SPECS.items()}
LIST_TYPES = ("ints", "plays", "cubes")
KEYWORDS = frozenset(kw for _, fields in SPECS.values() for _, kw, _ in fields if kw) | frozenset(WORDS)
FIELD_WORDS = {"city": "the city", "to": "where to", "from": "where from", "target": "whom to attack",
               "agent": "the agent", "card": "the card", "player": "the player", "count": "how many",
               "steps": "how many steps", "shown": "the card shown", "block": "where to block",
               "unblock": "where to unblock", "zombie": "whose zombie", "stack": "the city's stack",
               "display": "the card on display", "remove": "the card to remove", "flip": "the agent to flip",
               "convert": "the agent to convert", "cards": "the cards", "plays": "the cards and arrows",
               "cubes": "the cubes", "bombs": "the bombs", "discard": "the cards to discard",
               "agents": "the counters"}
SAYABLE = re.compile(r"[A-Za-z][A-Za-z .'\-]*")
POSSESSIVE = re.compile(r"['\u2019]s$")


def _key(text: str) -> str:
    """A name as compared: lower case, letters and digits only (``St. Petersburg`` is ``stpetersburg``)."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _player(s: State, seat: int) -> str:
    """A player as commands write them: their name as it is shown, or (a name that a command could misread:
    a keyword in it, a sign) its letters and digits run together."""
    name = " ".join(s.names[seat].split())
    words = {w.lower() for w in name.split()}
    if (SAYABLE.fullmatch(name) and not words & (KEYWORDS | {"main", "and", "royal"})
            and sum(_key(n) == _key(name) for n in s.names) == 1):
        return name
    return _key(name) or f"player{seat + 1}"


def _city_name(s: State, cid: str) -> str:
    return str(s.cat.city[cid].get("name") or cid) if cid in s.cat.city else cid


def _fmt_value(s: State, kind: str, v: Any) -> str:
    if kind == "ints":
        return " ".join(str(x) for x in v)
    if kind in ("int",):
        return str(v)
    if kind == "city":
        return _city_name(s, str(v))
    if kind == "place":
        text = str(v)
        if text.startswith("city:"):
            return _city_name(s, text[5:])
        return text[5:] if text.startswith("card:") else text
    if kind == "seat":
        return _player(s, v)
    if kind == "agent":
        return f"{_player(s, int(v[1:]))}'s Main Agent" if str(v).startswith("m") else str(v)
    if kind == "target":
        return "royal" if v == "royal" else _fmt_value(s, "agent", v)
    if kind == "plays":
        return " ".join(f"{c}:{s.cat.cards[c].arrows[i][0]}" for c, i in v)
    if kind == "cubes":
        return ", ".join(f"{_player(s, o)}@{_fmt_value(s, 'place', p)}" for p, o in v)
    raise ValueError(kind)


def format_action(s: State, a: Action) -> str:
    word, fields = SPECS[a["kind"]]
    parts = [word]
    for name, keyword, kind in fields:
        if name not in a:
            continue
        value = _fmt_value(s, kind, a[name])
        parts += [keyword] if keyword else []
        parts += [value] if value else []
    return " ".join(parts)


# --- parsing -----------------------------------------------------------------------------

def _cities(s: State) -> str:
    return ", ".join(_city_name(s, c) for c in s.cat.city_ids)


def _find_city(s: State, text: str) -> str | None:
    """The city a phrase names (its name in any case, with or without spaces and dots, ``Saint`` for ``St.``,
    or its id), else None."""
    wanted = _key(text)
    wanted = "st" + wanted[5:] if wanted.startswith("saint") else wanted
    for cid in s.cat.city_ids:
        if wanted and wanted in (_key(cid), _key(_city_name(s, cid))):
            return cid
    return None


def _city(s: State, text: str) -> str:
    found = _find_city(s, text)
    if found is None:
        raise InvalidAction(f"No city is called {text!r}. Cities: {_cities(s)}.")
    return found


def _int(s: State, tok: str) -> int:
    if not tok.isascii() or not tok.isdigit() or len(tok) > 4:
        raise InvalidAction(f"Expected a card or counter number, not {tok!r}.")
    return int(tok)


def _seat(s: State, text: str) -> int:
    for i in range(s.n):
        if _key(text) in (_key(s.names[i]), _key(_player(s, i))) or _key(text) == f"player{i + 1}":
            return i
    raise InvalidAction(f"No player is called {text!r}. Players: {', '.join(_player(s, i) for i in range(s.n))}.")


def _place(s: State, text: str) -> str:
    if _key(text) in ("limbo", "available") and text.strip().isalpha():
        return text.strip().lower()
    if text.isascii() and text.isdigit():
        return f"card:{_int(s, text)}"
    said = re.sub(r"(?i)\s+(city\s+box|box)$", "", text.strip())  # "the Berlin City box" is Berlin
    found = _find_city(s, said) or _find_city(s, re.sub(r"(?i)^the\s+", "", said))
    if found is None:
        raise InvalidAction(f"No city or face-up card is called {text!r}: write a city ({_cities(s)}), the "
                            "number of a face-up card, limbo or available.")
    return f"city:{found}"


def _agent(s: State, text: str) -> str:
    """An agent counter by its number, or a Main Agent: ``Ann's Main Agent``, ``main agent of Ann``, ``main:ann``."""
    said = text.strip()
    if said.isascii() and said.isdigit():
        return str(_int(s, said))
    head, colon, rest = said.partition(":")
    if colon and head.lower() == "main":
        return f"m{_seat(s, rest)}"
    words = said.split()
    if "main" in (w.lower() for w in words):
        who = [POSSESSIVE.sub("", w) for w in words if w.lower() not in ("main", "agent", "of", "the")]
        if who:
            return f"m{_seat(s, ' '.join(who))}"
    raise InvalidAction(f"Name an agent by its number, or a Main Agent as \u201c{_player(s, 0)}'s Main Agent\u201d, "
                        f"not {text!r}.")


def _target(s: State, text: str) -> str:
    return "royal" if text.strip().lower() == "royal" else _agent(s, text)


def _play(s: State, tok: str) -> list[int]:
    card, _, track = tok.partition(":")
    c = _int(s, card)
    if c not in s.cat.cards:
        raise InvalidAction(f"There is no card {c}.")
    arrows = [t for t, _ in s.cat.cards[c].arrows]
    track = track.lower()
    if not track and len(arrows) == 1:
        track = arrows[0]
    if track not in arrows:
        raise InvalidAction(f"Card {c} has no {track or 'single'} arrow: write {card}:war or {card}:revolution.")
    return [c, arrows.index(track)]


def _cube(s: State, text: str) -> list[Any]:
    who, _, where = text.partition("@")
    if not where.strip() or not who.strip():
        raise InvalidAction(f"Write each cube as player@place (e.g. bob@Berlin), not {text!r}.")
    return [_place(s, where.strip()), _seat(s, who.strip())]


def _cube_items(tokens: list[str]) -> list[str]:
    """The cubes of an Okhrana, each ``player@place``: a comma ends one, and so does a new ``@`` after a whole one
    (``bob@berlin cat@17``); a name of several words stays one item (``Mary Ann@St. Petersburg``)."""
    items: list[list[str]] = [[]]
    for tok in tokens:
        if tok == ",":
            items.append([])
            continue
        if "@" in tok and any("@" in t for t in items[-1]):
            items.append([])
        items[-1].append(tok)
    return [" ".join(item) for item in items if item]


ONE: dict[str, Callable[[State, str], Any]] = {"int": _int, "city": _city, "place": _place, "seat": _seat,
                                                "agent": _agent, "target": _target}
MANY: dict[str, Callable[[State, str], Any]] = {"ints": _int, "plays": _play, "cubes": _cube}


def _is_keyword(tok: str, keywords: dict[str, tuple[str, str]], slot: tuple[str, str] | None,
                values: dict[str, list[str]]) -> bool:
    """Whether ``tok`` starts another value: it is one of the command's keywords, and not the word a value needs
    (the ``agent`` of ``Ann's Main Agent``; the first word of a place, as in ``claim 17``'s card)."""
    if tok.lower() not in keywords:
        return False
    if slot is None:
        return True
    got = values.get(slot[0]) or []
    if slot[1] == "place" and not got:
        return False
    return not (slot[1] in ("agent", "target") and tok.lower() == "agent" and got and got[-1].lower() == "main")


def parse_command(s: State, text: str) -> Action:
    tokens = text.strip().replace(",", " , ").split()
    if not tokens:
        raise InvalidAction("Empty command. Try: pass")
    word = tokens[0].lower()
    if word not in WORDS:
        raise InvalidAction(f"Unknown command {tokens[0]!r}. Commands: {', '.join(sorted(WORDS))}.")
    kind = WORDS[word]
    fields = SPECS[kind][1]
    keywords = {kw: (name, typ) for name, kw, typ in fields if kw}
    out: Action = {"kind": kind}
    current = [(name, typ) for name, kw, typ in fields if not kw][:1]
    slot: tuple[str, str] | None = current[0] if current else None
    values: dict[str, list[str]] = {}
    if slot:
        values[slot[0]] = []
    for tok in tokens[1:]:
        if _is_keyword(tok, keywords, slot, values):
            slot = keywords[tok.lower()]
            if slot[0] in values:
                raise InvalidAction(f"{tok!r} is given twice.")
            values[slot[0]] = []
            continue
        if slot is None:
            if tok == ",":
                continue
            raise InvalidAction(f"Unexpected {tok!r} after {word!r}.")
        values[slot[0]].append(tok)
    types = {name: typ for name, _, typ in fields}
    for name, toks in values.items():
        typ = types[name]
        if typ == "cubes":
            out[name] = [_cube(s, item) for item in _cube_items(toks)]
        elif typ in MANY:
            out[name] = [MANY[typ](s, t) for t in toks if t not in (",", "and")]
        elif not [t for t in toks if t != ","]:
            raise InvalidAction(f"{word}: {FIELD_WORDS.get(name, name)} is missing.")
        else:
            said = " ".join(t for t in toks if t != ",")
            if typ == "int" and len(said.split()) > 1:
                raise InvalidAction(f"{word}: give one number for {FIELD_WORDS.get(name, name)}, not {said!r}.")
            out[name] = ONE[typ](s, said)
    for name, kw, typ in fields:
        if not kw and name not in out:
            raise InvalidAction(f"{word}: {FIELD_WORDS.get(name, name)} is missing.")
    return out
