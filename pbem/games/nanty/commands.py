"""The text command syntax (email replies, the CLI): ``parse_command`` and ``format_action``.

``parse_command(state, format_action(state, a)) == a`` for every legal action ``a``.
See docs/nanty-commands.md.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any

from events.rules import InvalidAction
from pbem.games.nanty.state import State

Action = dict[str, Any]
PAWNS = ("grenadier", "citizen")
KEYWORDS = r"\b(in|and|from|to|on|discard|seat|grenadier|citizen|the|building|nothing|agents?)\b"

HELP = ("Commands: play <card>, skip, end, agent <area> [from <area>], build <area> [from <area>], "
        "assassinate <player|grenadier|citizen> in <area>, take, remove trouble in <area>, scroll [...], "
        "power <area> [to/from/on <area>] [discard <card>], discard <card>, interrupt <card>, decline, "
        "protect ..., murder <player|grenadier|citizen>, flood to <area>, lose <area>.")


def _fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    text = text.replace("’", "'").replace("_", " ").replace(".", "").replace(",", " ")
    return re.sub(r"\s+", " ", text.strip().lower())


# --- names -------------------------------------------------------------------------------------

def area_name(state: State, area: str) -> str:
    return state.cat.areas[area].name


def parse_area(state: State, text: str) -> str:
    want = _fold(text)
    want = re.sub(r"^the ", "", want)
    for aid in state.cat.area_ids:
        if want in (_fold(aid), _fold(state.cat.areas[aid].name)):
            return aid
    names = ", ".join(state.cat.areas[a].name for a in state.cat.area_ids)
    raise InvalidAction(f"Unknown area {text.strip()!r}. The areas of London: {names}.")


def _player_ok(state: State, i: int) -> bool:
    folded = _fold(state.names[i])
    if not folded or re.search(KEYWORDS, folded) or re.fullmatch(r"\d+", folded) or folded in ("nothing",):
        return False
    return sum(1 for n in state.names if _fold(n) == folded) == 1


def player_name(state: State, seat: int) -> str:
    return state.names[seat] if _player_ok(state, seat) else f"seat {seat}"


def parse_player(state: State, text: str) -> int:
    want = _fold(text)
    m = re.fullmatch(r"seat (\d+)", want)
    if m and int(m.group(1)) < state.n:
        return int(m.group(1))
    for i in range(state.n):
        if _player_ok(state, i) and _fold(state.names[i]) == want:
            return i
    raise InvalidAction(f"Unknown player {text.strip()!r}. Players: "
                        + ", ".join(player_name(state, i) for i in range(state.n)) + ".")


def parse_card(state: State, text: str) -> int:
    t = text.strip()
    m = re.fullmatch(r".*?\((\d+)\)", t)
    if m:
        t = m.group(1)
    if t.isascii() and t.isdigit() and int(t) in state.cat.cards:
        return int(t)
    for c in state.cat.cards.values():
        if _fold(c.name) == _fold(t):
            return c.id
    raise InvalidAction(f"Unknown card {text.strip()!r}: give the number printed on the card (e.g. 012).")


def _target(state: State, text: str) -> int | str:
    t = _fold(text)
    for pawn in PAWNS:
        if t in (pawn, pawn + "s", "new " + pawn, "new " + pawn + "s"):
            return pawn
    return parse_player(state, text)


def _target_name(state: State, target: Any) -> str:
    return target if isinstance(target, str) else player_name(state, target)


# --- format ------------------------------------------------------------------------------------

def format_action(state: State, action: Mapping[str, Any]) -> str:
    a = dict(action)
    kind = a.get("kind")
    def A(key: str) -> str:  # noqa: N802 - a short local reader of an area field
        return area_name(state, a[key])

    def card(key: str) -> str:
        return state.cat.cards[a[key]].number

    if kind in ("end", "skip", "take", "decline"):
        return str(kind)
    if kind == "play":
        return f"play {card('card')}"
    if kind in ("agent", "build"):
        return f"{kind} {A('area')}" + (f" from {A('from')}" if "from" in a else "")
    if kind == "assassinate":
        return f"assassinate {_target_name(state, a['target'])} in {A('area')}"
    if kind == "remove_trouble":
        return f"remove trouble in {A('area')}"
    if kind == "scroll":
        out = "scroll"
        if "player" in a:
            out += f" {player_name(state, a['player'])}"
        if "area" in a:
            out += f" in {A('area')}"
        if "from" in a:
            out += f" from {A('from')} to {A('to')}"
        return out
    if kind == "power":
        out = f"power {A('area')}"
        if "to" in a:
            out += f" to {A('to')}"
        if "from" in a:
            out += f" from {A('from')}"
        if "target" in a:
            out += f" on {A('target')}"
        if "card" in a:
            out += f" discard {card('card')}"
        return out
    if kind in ("discard", "interrupt"):
        return f"{kind} {card('card')}"
    if kind == "protect":
        parts = []
        if a["agents"]:
            parts.append(f"{a['agents']} agent" + ("s" if a["agents"] != 1 else ""))
        if a["building"]:
            parts.append("the building")
        return "protect " + (" and ".join(parts) if parts else "nothing")
    if kind == "murder":
        return f"murder {_target_name(state, a['target'])}"
    if kind == "flood":
        return f"flood to {A('to')}"
    if kind == "lose":
        return f"lose {A('area')}"
    raise InvalidAction(f"Unknown action {kind!r}.")


# --- parse -------------------------------------------------------------------------------------

def parse_command(state: State, text: str) -> Action:
    t = _fold(text)
    if not t:
        raise InvalidAction("An empty command. " + HELP)
    word, _, rest = t.partition(" ")
    rest = rest.strip()
    if word in ("end", "skip", "take", "decline") and not rest:
        return {"kind": word}
    if word == "play":
        return {"kind": "play", "card": parse_card(state, rest)}
    if word in ("discard", "interrupt"):
        return {"kind": word, "card": parse_card(state, rest)}
    if word in ("agent", "build"):
        m = re.fullmatch(r"(.+?)(?: from (.+))?", rest)
        if not m or not rest:
            raise InvalidAction(f"Say where: {word} <area> (and from <area> to lift one of yours).")
        out: Action = {"kind": word, "area": parse_area(state, m.group(1))}
        if m.group(2):
            out["from"] = parse_area(state, m.group(2))
        return out
    if word == "assassinate":
        m = re.fullmatch(r"(.+) in (.+)", rest)
        if not m:
            raise InvalidAction("Say whom and where: assassinate <player|grenadier|citizen> in <area>.")
        return {"kind": "assassinate", "area": parse_area(state, m.group(2)), "target": _target(state, m.group(1))}
    if word == "remove":
        m = re.fullmatch(r"trouble (?:in |from )?(.+)", rest)
        if not m:
            raise InvalidAction("Say where: remove trouble in <area>.")
        return {"kind": "remove_trouble", "area": parse_area(state, m.group(1))}
    if word == "scroll":
        return _parse_scroll(state, rest)
    if word == "power":
        return _parse_power(state, rest)
    if word == "protect":
        return _parse_protect(rest)
    if word == "murder":
        if not rest:
            raise InvalidAction("Say whom: murder <player|grenadier|citizen>.")
        return {"kind": "murder", "target": _target(state, rest)}
    if word == "flood":
        m = re.fullmatch(r"(?:to )?(.+)", rest)
        if not m or not rest:
            raise InvalidAction("Say where the agent goes: flood to <area>.")
        return {"kind": "flood", "to": parse_area(state, m.group(1))}
    if word == "lose":
        return {"kind": "lose", "area": parse_area(state, rest)}
    raise InvalidAction(f"Unknown command {word!r}. " + HELP)


def _parse_scroll(state: State, rest: str) -> Action:
    out: Action = {"kind": "scroll"}
    m = re.fullmatch(r"(?:(.+?) )?from (.+) to (.+)", rest)
    if m:
        if m.group(1):
            out["player"] = parse_player(state, m.group(1))
        out["from"], out["to"] = parse_area(state, m.group(2)), parse_area(state, m.group(3))
        return out
    m = re.fullmatch(r"(?:(.+?) )?in (.+)", rest) or re.fullmatch(r"()in (.+)", rest)
    if m:
        if m.group(1):
            out["player"] = parse_player(state, m.group(1))
        out["area"] = parse_area(state, m.group(2))
        return out
    if rest:
        out["player"] = parse_player(state, rest)
    return out


def _parse_power(state: State, rest: str) -> Action:
    m = re.fullmatch(r"(.+?)((?: (?:to|from|on|discard) .+?)*)", rest)
    if not m or not rest:
        raise InvalidAction("Say which area's power: power <area> (e.g. power Lambeth).")
    out: Action = {"kind": "power", "area": parse_area(state, m.group(1))}
    for key, value in re.findall(r" (to|from|on|discard) (.+?)(?= (?:to|from|on|discard) |$)", m.group(2)):
        if key == "discard":
            out["card"] = parse_card(state, value)
        else:
            out["target" if key == "on" else key] = parse_area(state, value)
    return out


def _parse_protect(rest: str) -> Action:
    if rest in ("nothing", "none", ""):
        return {"kind": "protect", "agents": 0, "building": 0}
    agents = building = 0
    for part in rest.split(" and "):
        m = re.fullmatch(r"(\d+) agents?", part.strip())
        if m:
            agents = int(m.group(1))
        elif part.strip() in ("the building", "building"):
            building = 1
        else:
            raise InvalidAction("Say what to keep: protect 2 agents, protect the building, protect 1 agent and "
                                "the building, or protect nothing.")
    return {"kind": "protect", "agents": agents, "building": building}
