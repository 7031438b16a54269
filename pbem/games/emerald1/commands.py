"""Text commands: ``parse`` turns a reply line into an action, ``format`` writes the line for an action.

A command is a word naming the action, then its values, each after its keyword (see
docs/emerald1-commands.md): ``place 101 103 on berlin``, ``move main:ann to paris``, ``pay 104``,
``play 35 at royal in paris bombs 106 107``. Cards are named by their number; a number where a place
is expected is the face-up card with that number; ``main:<player>`` is a player's Main Agent.
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


def _key(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _player(s: State, seat: int) -> str:
    return _key(s.names[seat]) or f"player{seat + 1}"


def _fmt_value(s: State, kind: str, v: Any) -> str:
    if kind == "ints":
        return " ".join(str(x) for x in v)
    if kind in ("int",):
        return str(v)
    if kind == "city":
        return str(v)
    if kind == "place":
        return str(v)[5:] if str(v).startswith(("card:", "city:")) else str(v)
    if kind == "seat":
        return _player(s, v)
    if kind == "agent":
        return f"main:{_player(s, int(v[1:]))}" if str(v).startswith("m") else str(v)
    if kind == "target":
        return "royal" if v == "royal" else _fmt_value(s, "agent", v)
    if kind == "plays":
        return " ".join(f"{c}:{s.cat.cards[c].arrows[i][0]}" for c, i in v)
    if kind == "cubes":
        return " ".join(f"{_player(s, o)}@{_fmt_value(s, 'place', p)}" for p, o in v)
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

def _city(s: State, tok: str) -> str:
    for cid in s.cat.city_ids:
        if tok in (cid, _key(cid), _key(s.cat.city[cid]["name"])):
            return cid
    raise InvalidAction(f"No city is called {tok!r}. Cities: {', '.join(s.cat.city_ids)}.")


def _int(s: State, tok: str) -> int:
    if not tok.isascii() or not tok.isdigit() or len(tok) > 4:
        raise InvalidAction(f"Expected a card or counter number, not {tok!r}.")
    return int(tok)


def _seat(s: State, tok: str) -> int:
    for i in range(s.n):
        if _key(tok) == _player(s, i):
            return i
    raise InvalidAction(f"No player is called {tok!r}. Players: {', '.join(_player(s, i) for i in range(s.n))}.")


def _place(s: State, tok: str) -> str:
    if tok in ("limbo", "available"):
        return tok
    if tok.isascii() and tok.isdigit():
        return f"card:{_int(s, tok)}"
    return f"city:{_city(s, _key(tok) if tok not in s.cat.city_ids else tok)}"


def _agent(s: State, tok: str) -> str:
    if tok.startswith("main:"):
        return f"m{_seat(s, tok[5:])}"
    return str(_int(s, tok))


def _target(s: State, tok: str) -> str:
    return "royal" if tok == "royal" else _agent(s, tok)


def _play(s: State, tok: str) -> list[int]:
    card, _, track = tok.partition(":")
    c = _int(s, card)
    if c not in s.cat.cards:
        raise InvalidAction(f"There is no card {c}.")
    arrows = [t for t, _ in s.cat.cards[c].arrows]
    if not track and len(arrows) == 1:
        track = arrows[0]
    if track not in arrows:
        raise InvalidAction(f"Card {c} has no {track or 'single'} arrow: write {card}:war or {card}:revolution.")
    return [c, arrows.index(track)]


def _cube(s: State, tok: str) -> list[Any]:
    who, _, where = tok.partition("@")
    if not where:
        raise InvalidAction(f"Write each cube as player@place (e.g. bob@berlin), not {tok!r}.")
    return [_place(s, where), _seat(s, who)]


ONE: dict[str, Callable[[State, str], Any]] = {"int": _int, "city": lambda s, t: _city(s, _key(t) if t not in
                                                s.cat.city_ids else t), "place": _place, "seat": _seat,
                                                "agent": _agent, "target": _target}
MANY: dict[str, Callable[[State, str], Any]] = {"ints": _int, "plays": _play, "cubes": _cube}


def parse_command(s: State, text: str) -> Action:
    tokens = text.strip().lower().replace(",", " ").split()
    if not tokens:
        raise InvalidAction("Empty command. Try: pass")
    if tokens[0] not in WORDS:
        raise InvalidAction(f"Unknown command {tokens[0]!r}. Commands: {', '.join(sorted(WORDS))}.")
    kind = WORDS[tokens[0]]
    fields = SPECS[kind][1]
    keywords = {kw: (name, typ) for name, kw, typ in fields if kw}
    out: Action = {"kind": kind}
    rest = tokens[1:]
    current = [(name, typ) for name, kw, typ in fields if not kw][:1]
    slot: tuple[str, str] | None = current[0] if current else None
    values: dict[str, list[str]] = {}
    if slot:
        values[slot[0]] = []
    for tok in rest:
        if tok in keywords and not (slot and slot[1] == "place" and not values.get(slot[0])):
            slot = keywords[tok]
            if slot[0] in values:
                raise InvalidAction(f"{tok!r} is given twice.")
            values[slot[0]] = []
            continue
        if slot is None:
            raise InvalidAction(f"Unexpected {tok!r} after {tokens[0]!r}.")
        values[slot[0]].append(tok)
    types = {name: typ for name, _, typ in fields}
    for name, toks in values.items():
        typ = types[name]
        if typ in MANY:
            out[name] = [MANY[typ](s, t) for t in toks]
        elif len(toks) != 1:
            raise InvalidAction(f"{tokens[0]}: give one value for {name!r}, not {len(toks)}.")
        else:
            out[name] = ONE[typ](s, toks[0])
    for name, kw, typ in fields:
        if not kw and name not in out:
            raise InvalidAction(f"{tokens[0]}: the {name} is missing.")
    return out
