"""Game data: load the TOML beside the game, apply an override, validate, and index it.

:func:`load_data` returns a JSON-able dict (recorded in the game's first event);
:func:`catalog` turns such a dict into the lookup tables the rules use.
"""

from __future__ import annotations

import copy
import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from events.rules import InvalidAction

DATA_FILE = Path(__file__).with_name("data") / "nanty.toml"

GAME_INTS = ("agents", "buildings", "grenadiers", "citizens", "trouble_markers", "bank", "start_money",
             "hand_size", "agent_points", "riots_trouble", "loan_repay", "loan_penalty", "loan_net_worth",
             "power_agent_cost", "holborn_cost", "strand_cost", "city_power_money")
GAME_FLAGS = ("grenadiers_disable_powers", "first_border_on_top")
SYMBOLS = ("agent", "building", "assassinate", "money", "trouble", "scroll", "event", "again", "interrupt")
SCROLLS = ("loan", "draw", "levy_all", "levy_one", "per_trouble", "per_building", "per_area", "move_own",
           "move_other", "remove_agent", "place_trouble", "calm")
POWERS = ("place_agent", "draw_discard", "money", "remove_trouble", "protect", "discard_money", "place_trouble")
EVENTS = ("fire", "flood", "riots", "explosion", "subsidence", "murders", "inigo_jones", "new_citizens",
          "riot_act", "earthquake", "fog", "zeppelin")
MEASURES = ("occupied", "controlled", "own_buildings", "building_value", "net_worth", "pieces",
            "all_buildings", "trouble")
DECK_OUT = ("", "fagin", "holmes", "holmes_classic")
SETS = ("standard", "classic")
COUNTS = ("2", "3", "4")
RECORD_FIELDS = {
    "areas": {"name", "cost", "neighbours", "river", "start", "card"},
    "random_events": {"amount", "name"},
    "cards": {"name", "border", "symbols", "scroll", "text"},
}
KEYS = {"areas": "id", "random_events": "id", "cards": "number"}


@lru_cache(maxsize=1)
def _default_json() -> str:
    with DATA_FILE.open("rb") as fh:
        return json.dumps(tomllib.load(fh))


def default_raw() -> dict[str, Any]:
    """The data file as read (a fresh copy each call)."""
    raw: dict[str, Any] = json.loads(_default_json())
    return raw


# --- override ------------------------------------------------------------------------------

def _merge(raw: dict[str, Any], section: str, patch: Any, problems: list[str], overridden: list[str]) -> None:
    key = KEYS[section]
    if not isinstance(patch, list):
        problems.append(f"{section}: must be a list of tables")
        return
    index = {rec.get(key): rec for rec in raw[section]}
    for i, rec in enumerate(patch):
        if not isinstance(rec, dict) or key not in rec:
            problems.append(f"{section}[{i}]: each entry needs its `{key}`")
            continue
        target = index.get(rec[key])
        if target is None:
            if section != "cards":
                problems.append(f"{section}[{i}]: unknown {key} {rec[key]!r}")
                continue
            target = {key: rec[key]}
            raw[section].append(target)
            index[rec[key]] = target
        for field, value in rec.items():
            if field == key:
                continue
            if field not in RECORD_FIELDS[section]:
                problems.append(f"{section}.{rec[key]}.{field}: unknown field (known: "
                                f"{', '.join(sorted(RECORD_FIELDS[section]))})")
                continue
            target[field] = value
            overridden.append(f"{section}.{rec[key]}.{field}")


def _apply_override(raw: dict[str, Any], override: Mapping[str, Any], problems: list[str]) -> list[str]:
    overridden: list[str] = []
    for section, value in override.items():
        if section == "game":
            if not isinstance(value, dict):
                problems.append("game: must be a table")
                continue
            for k, v in value.items():
                if k not in GAME_INTS + GAME_FLAGS:
                    problems.append(f"game.{k}: unknown setting (known: {', '.join(GAME_INTS + GAME_FLAGS)})")
                    continue
                raw["game"][k] = v
                overridden.append(f"game.{k}")
        elif section == "die":
            if not isinstance(value, dict) or set(value) - {"faces"}:
                problems.append("die: only `faces` may be set")
                continue
            raw["die"]["faces"] = value.get("faces")
            overridden.append("die.faces")
        elif section == "personalities":
            if not isinstance(value, list):
                problems.append("personalities: must be a list of tables")
                continue
            for i, rec in enumerate(value):
                found = [p for p in raw["personalities"] if isinstance(rec, dict)
                         and p["set"] == rec.get("set") and p["id"] == rec.get("id")]
                if not found:
                    problems.append(f"personalities[{i}]: needs a known `set` and `id`")
                    continue
                for field in set(rec) - {"set", "id"}:
                    if field != "goals":
                        problems.append(f"personalities.{rec['set']}.{rec['id']}.{field}: only `goals` may be set")
                        continue
                    found[0]["goals"] = rec["goals"]
                    overridden.append(f"personalities.{rec['set']}.{rec['id']}.goals")
        elif section in KEYS:
            _merge(raw, section, value, problems, overridden)
        else:
            problems.append(f"{section}: unknown section (known: game, die, areas, random_events, personalities, cards)")
    return overridden


# --- validation ----------------------------------------------------------------------------

def _int(value: Any, where: str, problems: list[str], lo: int = 0, hi: int = 10_000) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        problems.append(f"{where}: must be a whole number, not {value!r}")
        return lo
    if not lo <= value <= hi:
        problems.append(f"{where}: must be between {lo} and {hi}, not {value}")
    return value


def _assumed(rec: Mapping[str, Any], fields: tuple[str, ...], prefix: str, out: list[str], over: set[str]) -> None:
    known = set(rec.get("rulebook", [])) | set(rec.get("inferred", []))
    out.extend(f"{prefix}.{f}" for f in fields if f not in known and f"{prefix}.{f}" not in over)


def _symbols(value: Any, where: str, problems: list[str]) -> list[str]:
    if not isinstance(value, list) or not value:
        problems.append(f"{where}.symbols: a non-empty list")
        return []
    out = []
    for s in value:
        name, _, amount = str(s).partition(":")
        if name not in SYMBOLS:
            problems.append(f"{where}.symbols: unknown symbol {s!r} (known: {', '.join(SYMBOLS)})")
        elif name == "money" and not (amount.isascii() and amount.isdigit() and 0 < int(amount) <= 20):
            problems.append(f"{where}.symbols: money needs an amount, e.g. \"money:2\"")
        elif name != "money" and amount:
            problems.append(f"{where}.symbols: {name} takes no amount")
        out.append(str(s))
    return out


def validate(raw: Mapping[str, Any], overridden: list[str] | None = None) -> dict[str, Any]:
    """Check the data and return its normal form; raise ``InvalidAction`` listing every problem."""
    problems: list[str] = []
    over = set(overridden or [])
    assumed: list[str] = []
    game = dict(raw.get("game", {}))
    g: dict[str, Any] = {}
    for key in GAME_INTS:
        g[key] = _int(game.get(key), f"game.{key}", problems, 0, 1000)
    for key in GAME_FLAGS:
        if not isinstance(game.get(key), bool):
            problems.append(f"game.{key}: must be true or false")
        g[key] = bool(game.get(key))
    for key in ("agents", "buildings", "hand_size"):
        if g[key] < 1:
            problems.append(f"game.{key}: must be at least 1")
    if g["bank"] < 4 * g["start_money"]:
        problems.append("game.bank: must hold the starting money of four players")
    known = set(game.get("rulebook", [])) | set(game.get("inferred", []))
    assumed += [f"game.{k}" for k in GAME_INTS + GAME_FLAGS if k not in known and f"game.{k}" not in over]

    areas: list[dict[str, Any]] = []
    ids: list[str] = []
    for i, a in enumerate(raw.get("areas", [])):
        aid = a.get("id")
        where = f"areas.{aid}"
        if not isinstance(aid, str) or not aid or aid in ids:
            problems.append(f"areas[{i}]: missing or repeated id {aid!r}")
            continue
        ids.append(aid)
        power = a.get("power", {})
        if not isinstance(power, dict) or power.get("kind") not in POWERS:
            problems.append(f"{where}.power: kind must be one of {', '.join(POWERS)}")
            power = {"kind": "money", "amount": 0}
        areas.append({"id": aid, "name": str(a.get("name", aid)), "card": _int(a.get("card"), f"{where}.card", problems, 1, 999),
                      "cost": _int(a.get("cost"), f"{where}.cost", problems, 0, 100),
                      "neighbours": list(a.get("neighbours", [])), "river": bool(a.get("river")),
                      "start": bool(a.get("start")), "power": {"kind": power["kind"], "amount": int(power.get("amount", 0))},
                      "text": str(a.get("text", ""))})
        _assumed(a, ("name", "card", "cost", "river", "start", "neighbours", "power"), where, assumed, over)
    if len(areas) != 12:
        problems.append(f"areas: there must be 12 areas, found {len(areas)}")
    by_id = {a["id"]: a for a in areas}
    for a in areas:
        for n in a["neighbours"]:
            if n not in by_id:
                problems.append(f"areas.{a['id']}.neighbours: unknown area {n!r}")
            elif a["id"] not in by_id[n]["neighbours"]:
                problems.append(f"areas.{a['id']}.neighbours: {n} does not list {a['id']} back")
    if not any(a["start"] for a in areas):
        problems.append("areas: at least one start area is needed")
    if len({a["card"] for a in areas}) != len(areas):
        problems.append("areas: every area needs its own card number")

    faces = raw.get("die", {}).get("faces")
    if not isinstance(faces, list) or sorted(map(str, faces)) != sorted(ids):
        problems.append("die.faces: must name each of the 12 areas exactly once")
        faces = ids
    if "die.faces" not in over:
        assumed.append("die.faces")

    events: list[dict[str, Any]] = []
    for e in raw.get("random_events", []):
        if e.get("id") not in EVENTS:
            problems.append(f"random_events: unknown event {e.get('id')!r}")
            continue
        events.append({"id": e["id"], "number": _int(e.get("number"), f"random_events.{e['id']}.number", problems, 1, 999),
                       "name": str(e.get("name", e["id"])), "amount": _int(e.get("amount", 0), f"random_events.{e['id']}.amount", problems, 0, 12)})
        _assumed(e, ("number",), f"random_events.{e['id']}", assumed, over)
    if sorted(e["id"] for e in events) != sorted(EVENTS):
        problems.append(f"random_events: each of the 12 events once ({', '.join(EVENTS)})")

    people: list[dict[str, Any]] = []
    for p in raw.get("personalities", []):
        where = f"personalities.{p.get('set')}.{p.get('id')}"
        if p.get("set") not in SETS:
            problems.append(f"{where}: set must be standard or classic")
            continue
        goals = []
        for j, goal in enumerate(p.get("goals", [])):
            if not isinstance(goal, dict) or goal.get("measure") not in MEASURES:
                problems.append(f"{where}.goals[{j}]: measure must be one of {', '.join(MEASURES)}")
                continue
            target = goal.get("target", {})
            if not isinstance(target, dict) or sorted(target) != list(COUNTS):
                problems.append(f'{where}.goals[{j}].target: needs a value for "2", "3" and "4" players')
                continue
            goals.append({"measure": goal["measure"],
                          "target": {k: _int(v, f"{where}.goals[{j}].target.{k}", problems, 1, 500) for k, v in target.items()}})
        if p.get("deck_out", "") not in DECK_OUT:
            problems.append(f"{where}.deck_out: one of {', '.join(d for d in DECK_OUT if d)}")
        people.append({"set": p["set"], "id": str(p.get("id")), "name": str(p.get("name", p.get("id"))), "goals": goals,
                       "deck_out": p.get("deck_out", ""), "riots_lose": bool(p.get("riots_lose", False))})
        _assumed(p, ("set",), where, assumed, over)
    for s in SETS:
        if sum(1 for p in people if p["set"] == s) < 4:
            problems.append(f"personalities: the {s} set needs at least 4 cards for 4 players")

    cards: list[dict[str, Any]] = []
    seen: set[int] = set()
    for i, c in enumerate(raw.get("cards", [])):
        num = c.get("number")
        where = f"cards.{num}"
        if not isinstance(num, str) or not (num.isascii() and num.isdigit()) or int(num) in seen or not 1 <= int(num) <= 999:
            problems.append(f"cards[{i}]: number must be digits, 001-999, and not repeated ({num!r})")
            continue
        seen.add(int(num))
        syms = _symbols(c.get("symbols"), where, problems)
        scroll = c.get("scroll") or {}
        if "scroll" in syms and (not isinstance(scroll, dict) or scroll.get("effect") not in SCROLLS):
            problems.append(f"{where}.scroll: a scroll card needs an effect ({', '.join(SCROLLS)})")
            scroll = {"effect": "draw", "amount": 0}
        if not c.get("name"):
            problems.append(f"{where}.name: missing")
        if c.get("border", "first") not in ("first", "second"):
            problems.append(f"{where}.border: first or second")
        cards.append({"number": num, "name": str(c.get("name", num)), "border": c.get("border", "first"),
                      "symbols": syms, "scroll": {"effect": scroll.get("effect", ""),
                                                  "amount": _int(scroll.get("amount", 0), f"{where}.scroll.amount", problems, 0, 50)} if scroll else {},
                      "text": str(c.get("text", ""))})
    clash = seen & ({a["card"] for a in areas} | {e["number"] for e in events})
    if clash:
        problems.append(f"cards: numbers {sorted(clash)} are taken by City Area or Random Event cards")
    if sum(1 for c in cards if c["scroll"].get("effect") == "loan") != 2:
        problems.append("cards: there must be exactly two loan cards (Mr Merryweather, City & Suburban Bank)")
    if len(cards) < 30:
        problems.append(f"cards: at least 30 character cards are needed, found {len(cards)}")
    if "cards" not in over and not any(o.startswith("cards.") for o in over):
        assumed.append("cards")
    if problems:
        raise InvalidAction("The game data has problems:\n- " + "\n- ".join(problems))
    return {"version": int(raw.get("version", 1)), "game": g, "die": list(faces), "areas": areas,
            "random_events": events, "personalities": people, "cards": cards,
            "assumed": sorted(set(assumed)), "assumed_reasons": dict(raw.get("assumed_reasons", {})),
            "overridden": sorted(over)}


def load_data(override: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The default data with ``override`` applied, validated; every problem is reported at once."""
    raw = default_raw()
    problems: list[str] = []
    overridden: list[str] = []
    if override:
        if not isinstance(override, Mapping):
            raise InvalidAction("The game data has problems:\n- the override must be a table")
        overridden = _apply_override(raw, copy.deepcopy(dict(override)), problems)
    try:
        data = validate(raw, overridden)
    except InvalidAction as err:
        extra = ("\n- " + "\n- ".join(problems)) if problems else ""
        raise InvalidAction(str(err) + extra) from None
    if problems:
        raise InvalidAction("The game data has problems:\n- " + "\n- ".join(problems))
    return data


# --- the index the rules use -----------------------------------------------------------------

@dataclass(frozen=True)
class CardDef:
    """One character card."""

    id: int
    number: str
    name: str
    border: str
    symbols: tuple[str, ...]
    scroll: str = ""
    amount: int = 0
    text: str = ""

    @property
    def label(self) -> str:
        return f"{self.name} ({self.number})"

    @property
    def interrupt(self) -> bool:
        return "interrupt" in self.symbols


@dataclass(frozen=True)
class Area:
    id: str
    name: str
    card: int
    cost: int
    neighbours: frozenset[str]
    river: bool
    start: bool
    power: str
    amount: int
    text: str


@dataclass(frozen=True)
class Catalog:
    cards: Mapping[int, CardDef]
    area_ids: tuple[str, ...]
    areas: Mapping[str, Area]
    die: tuple[str, ...]
    events: Mapping[str, Mapping[str, Any]]
    personalities: Mapping[str, tuple[Mapping[str, Any], ...]]
    game: Mapping[str, Any]
    assumed: tuple[str, ...]
    reasons: Mapping[str, str]
    data: Mapping[str, Any] = field(default_factory=dict, repr=False, compare=False)  # what it was made of

    def area_at(self, face: int) -> str:
        return self.die[face - 1]

    def personality(self, variant: str, pid: str) -> Mapping[str, Any]:
        return next(p for p in self.personalities[variant] if p["id"] == pid)


@lru_cache(maxsize=32)
def _catalog(data_json: str) -> Catalog:
    data = json.loads(data_json)
    cards = {int(c["number"]): CardDef(int(c["number"]), c["number"], c["name"], c["border"], tuple(c["symbols"]),
                                       c["scroll"].get("effect", ""), c["scroll"].get("amount", 0), c["text"])
             for c in data["cards"]}
    areas = {a["id"]: Area(a["id"], a["name"], a["card"], a["cost"], frozenset(a["neighbours"]), a["river"],
                           a["start"], a["power"]["kind"], a["power"]["amount"], a["text"]) for a in data["areas"]}
    people: dict[str, list[Mapping[str, Any]]] = {s: [] for s in SETS}
    for p in data["personalities"]:
        people[p["set"]].append(p)
    return Catalog(cards=cards, area_ids=tuple(a["id"] for a in data["areas"]), areas=areas, die=tuple(data["die"]),
                   events={e["id"]: e for e in data["random_events"]},
                   personalities={k: tuple(v) for k, v in people.items()}, game=data["game"],
                   assumed=tuple(data.get("assumed", ())), reasons=data.get("assumed_reasons", {}), data=data)


def catalog(data: Mapping[str, Any]) -> Catalog:
    """The index of ``data`` (cached by content)."""
    return _catalog(json.dumps(data, sort_keys=True))
