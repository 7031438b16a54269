"""Game data of the 1st edition: load the TOML beside the game, apply an override, validate, index.

:func:`load_data` returns a JSON-able dict (recorded in the game's first event, overrides and the
list of assumed values included); :func:`catalog` turns it into the lookup tables the rules use.
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

DATA_FILE = Path(__file__).with_name("data") / "emerald1.toml"

ACTIONS = ("blocking_disc", "assassinate_any", "irene_adler", "rachkovsky", "burtsev", "bismarck", "diogenes",
           "duchess", "fenians", "freemasons", "hide_royalty", "holy_brotherhood", "infernal_machine", "lestrade",
           "golovinsky", "nadar", "shoggoth", "okhrana", "peoples_will", "pinkerton", "terrors", "third_section",
           "vampire", "zombies")
USES = ("", "action", "free", "one-use", "one-use free")
EFFECTS = ("change_of_heart", "cthulhu", "cultists", "devils_island", "watson", "master_of_disguise", "mi_go",
           "mrs_hudson", "moran", "freud", "leopold", "yog_sothoth")
TRACKS = ("revolution", "war")
PLAYER_COUNTS = ("2", "3", "4", "5")
SECTIONS = {"game": None, "cities": "id", "agents": "number", "game_cards": "name", "city_cards": "city",
            "initial_cards": "n", "permanent_effects": "name", "map": None}
PROVENANCE = ("rulebook", "inferred", "source", "note")


@lru_cache(maxsize=1)
def _default_json() -> str:
    with DATA_FILE.open("rb") as fh:
        return json.dumps(tomllib.load(fh))


def default_raw() -> dict[str, Any]:
    """The data file as read (a fresh copy each call)."""
    raw: dict[str, Any] = json.loads(_default_json())
    return raw


# --- override ----------------------------------------------------------------------------

def _apply_override(raw: dict[str, Any], override: Mapping[str, Any], problems: list[str]) -> list[str]:
    done: list[str] = []
    for section, value in override.items():
        if section not in SECTIONS:
            problems.append(f"{section}: unknown section (known: {', '.join(SECTIONS)})")
            continue
        key = SECTIONS[section]
        if key is None:
            if not isinstance(value, dict):
                problems.append(f"{section}: must be a table")
                continue
            for k, v in value.items():
                if k not in raw[section]:
                    problems.append(f"{section}.{k}: unknown setting (known: {', '.join(sorted(raw[section]))})")
                    continue
                raw[section][k] = v
                done.append(f"{section}.{k}")
            continue
        if not isinstance(value, list):
            problems.append(f"{section}: must be a list of tables")
            continue
        index = {rec.get(key): rec for rec in raw[section]}
        for i, rec in enumerate(value):
            if not isinstance(rec, dict) or key not in rec:
                problems.append(f"{section}[{i}]: each entry needs its `{key}`")
                continue
            target = index.get(rec[key])
            if target is None:
                problems.append(f"{section}[{i}]: unknown {key} {rec[key]!r}")
                continue
            for f, v in rec.items():
                if f == key:
                    continue
                if f in PROVENANCE or (f not in target and f not in ("ar", "aa", "action", "use", "sanity",
                                                                       "royal", "symbols", "copies")):
                    problems.append(f"{section}.{rec[key]}.{f}: unknown field")
                    continue
                target[f] = v
                done.append(f"{section}.{rec[key]}.{f}")
    return done


# --- validation --------------------------------------------------------------------------

def _int(v: Any, where: str, problems: list[str], lo: int = 0, hi: int = 1000) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        problems.append(f"{where}: must be a whole number, not {v!r}")
        return lo
    if not lo <= v <= hi:
        problems.append(f"{where}: must be between {lo} and {hi}, not {v}")
    return v


def _symbols(raw: Any, where: str, problems: list[str]) -> dict[str, Any]:
    if not isinstance(raw, dict):
        problems.append(f"{where}.symbols: must be a table")
        return {}
    out: dict[str, Any] = {}
    for k, v in raw.items():
        if k == "arrows":
            arrows = []
            for j, a in enumerate(v if isinstance(v, list) else [None]):
                if not isinstance(a, dict) or a.get("track") not in TRACKS:
                    problems.append(f"{where}.symbols.arrows[{j}]: needs track = revolution or war")
                    continue
                steps = _int(a.get("steps"), f"{where}.symbols.arrows[{j}].steps", problems, -5, 5)
                if steps == 0:
                    problems.append(f"{where}.symbols.arrows[{j}].steps: cannot be 0")
                arrows.append({"track": a["track"], "steps": steps})
            out["arrows"] = arrows
        elif k in ("cube", "gold", "bomb"):
            out[k] = _int(v, f"{where}.symbols.{k}", problems, 0, 5)
        elif k == "sanity":
            out[k] = _int(v, f"{where}.symbols.sanity", problems, 0, 1)
        else:
            problems.append(f"{where}.symbols.{k}: unknown symbol (known: cube, gold, bomb, sanity, arrows)")
    return out


def _assumed(rec: Mapping[str, Any], fields: tuple[str, ...], prefix: str, assumed: list[str],
             overridden: set[str]) -> None:
    known = set(rec.get("rulebook", [])) | set(rec.get("inferred", []))
    for f in fields:
        sub = [k for k in known if k.startswith(f + ".")]
        if f in known or f"{prefix}.{f}" in overridden:
            continue
        if f == "royal" and isinstance(rec.get("royal"), dict):
            for part in ("name", "defence", "vp"):
                if f"royal.{part}" not in known:
                    assumed.append(f"{prefix}.royal.{part}")
        elif f == "symbols" and sub:
            assumed.append(f"{prefix}.symbols (except {', '.join(s[8:] for s in sorted(sub))})")
        else:
            assumed.append(f"{prefix}.{f}")


def validate(raw: Mapping[str, Any], overridden: list[str] | None = None) -> dict[str, Any]:
    """Check the data and return its normal form; raise ``InvalidAction`` listing every problem."""
    problems: list[str] = []
    over = set(overridden or [])
    assumed: list[str] = []
    g = dict(raw.get("game", {}))
    game: dict[str, Any] = {}
    plain = ("cubes", "cubes_available", "discs", "hand_size", "watson_hand_size", "actions", "sanity_sane",
             "sanity_mad", "mad_to_reveal", "freud_mad_to_reveal", "safe_counters", "blocking_discs", "zombies",
             "zombie_place", "zombie_bonus", "double_agents", "pe_on_display", "war_on_empty_stack",
             "main_agent_bombs", "necronomicon_vp", "black_hand_vp", "yog_vp", "golovinsky_steps", "track_top")
    for k in plain:
        if k not in g:
            problems.append(f"game.{k}: missing")
        else:
            game[k] = _int(g[k], f"game.{k}", problems, 0, 200)
    if game.get("cubes_available", 0) > game.get("cubes", 0):
        problems.append("game.cubes_available: cannot exceed game.cubes")
    if game.get("track_top", 1) < 1 or game.get("hand_size", 1) < 1 or game.get("actions", 1) < 1:
        problems.append("game: track_top, hand_size and actions must be at least 1")
    for k in ("double_agents_each", "stack_size", "victory_target"):
        table = g.get(k)
        if not isinstance(table, dict) or set(table) != set(PLAYER_COUNTS):
            problems.append(f"game.{k}: needs a value for each player count 2, 3, 4 and 5")
            table = {n: 1 for n in PLAYER_COUNTS}
        game[k] = {n: _int(table[n], f"game.{k}.{n}", problems, 1, 100) for n in PLAYER_COUNTS}
    tv = g.get("track_vp")
    if not isinstance(tv, dict) or not tv:
        problems.append("game.track_vp: a table of space = VP")
        tv = {}
    game["track_vp"] = {}
    for space, vp in tv.items():
        if not str(space).isascii() or not str(space).isdigit() or int(space) > game.get("track_top", 0):
            problems.append(f"game.track_vp.{space}: must be a space of the track (0 to track_top)")
            continue
        game["track_vp"][str(int(space))] = _int(vp, f"game.track_vp.{space}", problems, 0, 50)
    ident = g.get("identities")
    if not isinstance(ident, dict) or set(ident) != {"loyalist", "restorationist"}:
        problems.append("game.identities: needs exactly `loyalist` and `restorationist` counts")
        ident = {"loyalist": 3, "restorationist": 3}
    game["identities"] = {k: _int(v, f"game.identities.{k}", problems, 0, 10) for k, v in ident.items()}
    if sum(game["identities"].values()) < 5:
        problems.append("game.identities: at least 5 identity cards are needed for 5 players")
    if game.get("sanity_sane", 0) + game.get("sanity_mad", 0) < 1:
        problems.append("game: at least one Sanity counter is needed")
    known_game = set(g.get("rulebook", [])) | set(g.get("inferred", []))
    assumed += [f"game.{k}" for k in [*plain, "double_agents_each", "stack_size", "victory_target", "track_vp",
                                      "identities"] if k not in known_game and f"game.{k}" not in over]

    cities: list[dict[str, Any]] = []
    city_ids: list[str] = []
    for i, c in enumerate(raw.get("cities", [])):
        where = f"cities.{c.get('id', i)}"
        royal = c.get("royal") if isinstance(c.get("royal"), dict) else {}
        if not royal:
            problems.append(f"{where}.royal: needs name, defence and vp")
        entry = {"id": str(c.get("id")), "name": str(c.get("name", "")), "card": _int(c.get("card"), f"{where}.card",
                                                                                   problems, 1, 999),
                 "vp": _int(c.get("vp"), f"{where}.vp", problems, 0, 20),
                 "defence": _int(c.get("defence"), f"{where}.defence", problems, 0, 20),
                 "royal": {"name": str(royal.get("name", "")),
                           "defence": _int(royal.get("defence"), f"{where}.royal.defence", problems, 0, 20),
                           "vp": _int(royal.get("vp"), f"{where}.royal.vp", problems, 0, 20)}}
        cities.append(entry)
        city_ids.append(entry["id"])
        _assumed(c, ("vp", "defence", "royal"), where, assumed, over)
    if len(set(city_ids)) != 12:
        problems.append(f"cities: there must be 12 different cities, not {len(set(city_ids))}")

    m = raw.get("map", {})
    edges: list[list[Any]] = []
    for j, e in enumerate(m.get("connections", [])):
        if not (isinstance(e, list) and len(e) == 3 and e[0] in city_ids and e[1] in city_ids and e[0] != e[1]):
            problems.append(f"map.connections[{j}]: must be [city, other city, cost] with known cities")
            continue
        edges.append([[e[0], e[1]], _int(e[2], f"map.connections[{j}].cost", problems, 1, 3)])
    for j, jn in enumerate(m.get("junctions", [])):
        if not (isinstance(jn, list) and len(jn) == 2 and isinstance(jn[0], list) and len(jn[0]) >= 3
                and all(x in city_ids for x in jn[0]) and len(set(jn[0])) == len(jn[0])):
            problems.append(f"map.junctions[{j}]: must be [[three or more cities], cost]")
            continue
        edges.append([list(jn[0]), _int(jn[1], f"map.junctions[{j}].cost", problems, 1, 3)])
    reach = {city_ids[0]} if city_ids else set()
    grown = True
    while grown:
        grown = False
        for arms, _ in edges:
            if reach & set(arms) and not set(arms) <= reach:
                reach |= set(arms)
                grown = True
    if city_ids and reach != set(city_ids):
        problems.append(f"map: not every city can be reached (cut off: {', '.join(sorted(set(city_ids) - reach))})")
    if "map" not in over and not any(k.startswith("map.") for k in over):
        assumed.append("map (every connection, junction and cost)")

    def symbolled(rec: Mapping[str, Any], where: str) -> dict[str, Any]:
        s = _symbols(rec.get("symbols", {}), where, problems)
        action, use = rec.get("action", ""), rec.get("use", "")
        if action and action not in ACTIONS:
            problems.append(f"{where}.action: unknown action {action!r}")
        if use not in USES:
            problems.append(f"{where}.use: must be one of {', '.join(repr(u) for u in USES)}")
        return {"symbols": s, "action": action, "use": use}

    initial = []
    for rec in raw.get("initial_cards", []):
        where = f"initial_cards.{rec.get('n')}"
        initial.append({"n": _int(rec.get("n"), f"{where}.n", problems, 1, 10), "name": str(rec.get("name", "")),
                        **symbolled(rec, where)})
        _assumed(rec, (), where, assumed, over)
    if sorted(r["n"] for r in initial) != list(range(1, 11)):
        problems.append("initial_cards: there must be exactly the ten cards n = 1 to 10")

    agents = []
    for rec in raw.get("agents", []):
        where = f"agents.{rec.get('number')}"
        agents.append({"number": _int(rec.get("number"), f"{where}.number", problems, 1, 22),
                       "name": str(rec.get("name", "")), "ar": bool(rec.get("ar", False)),
                       "aa": bool(rec.get("aa", False)),
                       "bombs": _int(rec.get("bombs", 0), f"{where}.bombs", problems, 0, 5),
                       "resto_vp": _int(rec.get("resto_vp", 0), f"{where}.resto_vp", problems, 0, 10),
                       **symbolled(rec, where)})
        _assumed(rec, ("bombs", "resto_vp", "symbols"), where, assumed, over)
    if sorted(a["number"] for a in agents) != list(range(1, 23)):
        problems.append("agents: there must be exactly the 22 agents numbered 1 to 22")

    others = []
    for rec in raw.get("game_cards", []):
        where = f"game_cards.{rec.get('name')}"
        others.append({"name": str(rec.get("name", "")),
                       "copies": _int(rec.get("copies", 1), f"{where}.copies", problems, 0, 10),
                       **symbolled(rec, where)})
        _assumed(rec, ("symbols", "use"), where, assumed, over)
    total = len(agents) + sum(o["copies"] for o in others)
    if total < 48:
        problems.append(f"game_cards: {total} Game cards cannot fill twelve stacks of four (48 are needed)")

    city_cards = []
    for rec in raw.get("city_cards", []):
        where = f"city_cards.{rec.get('city')}"
        if rec.get("city") not in city_ids:
            problems.append(f"{where}: unknown city")
        city_cards.append({"city": rec.get("city"), **symbolled(rec, where)})
        _assumed(rec, ("symbols",), where, assumed, over)
    if sorted(str(c["city"]) for c in city_cards) != sorted(city_ids):
        problems.append("city_cards: there must be one City card per city")

    pes = []
    for rec in raw.get("permanent_effects", []):
        where = f"permanent_effects.{rec.get('name')}"
        if rec.get("effect") not in EFFECTS:
            problems.append(f"{where}.effect: unknown effect {rec.get('effect')!r}")
        pes.append({"name": str(rec.get("name", "")), "effect": rec.get("effect"),
                    "sanity": _int(rec.get("sanity", 0), f"{where}.sanity", problems, 0, 1)})
    if sorted(str(p["effect"]) for p in pes) != sorted(EFFECTS):
        problems.append("permanent_effects: there must be exactly the twelve Permanent Effect cards")
    assumed += [f"game_cards.{o['name']}.symbols" for o in []]
    if problems:
        raise InvalidAction("The game data has problems:\n- " + "\n- ".join(problems))
    return {"version": raw.get("version", 1), "game": game, "cities": cities, "edges": edges,
            "initial_cards": sorted(initial, key=lambda r: r["n"]), "agents": sorted(agents, key=lambda r: r["number"]),
            "game_cards": others, "city_cards": city_cards, "permanent_effects": pes,
            "assumed": assumed, "assumed_reasons": dict(raw.get("assumed_reasons", {})),
            "overridden": sorted(over), "manifest_note": MANIFEST_NOTE}


MANIFEST_NOTE = ("The card manifest as printed lists 61 Game cards (141 cards in all) against the rulebook's "
                 "'Sixty Game cards' and '140 cards': the 61 itemised cards are kept.")


def load_data(override: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The data file with ``override`` applied and validated; every problem is reported at once."""
    raw = default_raw()
    problems: list[str] = []
    done: list[str] = []
    if override:
        if not isinstance(override, Mapping):
            raise InvalidAction("The data override must be a table.")
        done = _apply_override(raw, copy.deepcopy(dict(override)), problems)
    try:
        data = validate(raw, done)
    except InvalidAction as bad:
        if problems:
            raise InvalidAction(str(bad) + "\n- " + "\n- ".join(problems)) from None
        raise
    if problems:
        raise InvalidAction("The game data has problems:\n- " + "\n- ".join(problems))
    return data


# --- the catalog the rules read ----------------------------------------------------------

@dataclass(frozen=True)
class Card:
    id: int
    name: str
    kind: str                     # initial | agent | game | city | pe
    cube: int = 0
    gold: int = 0
    bomb: int = 0
    sanity: int = 0
    arrows: tuple[tuple[str, int], ...] = ()
    action: str = ""
    use: str = ""
    city: str = ""                # City cards
    effect: str = ""              # Permanent Effects
    ar: bool = False
    aa: bool = False

    @property
    def label(self) -> str:
        return f"{self.name} ({self.id})"

    @property
    def free(self) -> bool:
        return self.use in ("free", "one-use free")

    @property
    def one_use(self) -> bool:
        return self.use.startswith("one-use")


@dataclass(frozen=True)
class Catalog:
    data: Mapping[str, Any]
    game: Mapping[str, Any]
    cards: Mapping[int, Card]
    city_ids: tuple[str, ...]
    city: Mapping[str, Mapping[str, Any]]
    city_card: Mapping[str, int]
    card_city: Mapping[int, str]
    edges: tuple[tuple[tuple[str, ...], int], ...]
    agent_bombs: Mapping[int, int]
    agent_rvp: Mapping[int, int]
    game_card_ids: tuple[int, ...]
    pe_ids: tuple[int, ...]
    pe_by_effect: Mapping[str, int]
    assumed: tuple[str, ...]
    neighbours: Mapping[str, tuple[str, ...]] = field(default_factory=dict)

    def initial_ids(self, seat: int) -> tuple[int, ...]:
        return tuple(100 * (seat + 1) + n for n in range(1, 11))

    def name(self, card: int) -> str:
        return self.cards[card].name


def _syms(s: Mapping[str, Any]) -> dict[str, Any]:
    return {"cube": s.get("cube", 0), "gold": s.get("gold", 0), "bomb": s.get("bomb", 0),
            "sanity": s.get("sanity", 0),
            "arrows": tuple((a["track"], a["steps"]) for a in s.get("arrows", []))}


@lru_cache(maxsize=8)
def _catalog(data_json: str) -> Catalog:
    data = json.loads(data_json)
    cards: dict[int, Card] = {}
    for seat in range(5):
        for r in data["initial_cards"]:
            cid = 100 * (seat + 1) + r["n"]
            cards[cid] = Card(cid, r["name"], "initial", **_syms(r["symbols"]), action=r["action"], use=r["use"])
    bombs, rvp = {}, {}
    for a in data["agents"]:
        cards[a["number"]] = Card(a["number"], a["name"], "agent", **_syms(a["symbols"]), action=a["action"],
                                  use=a["use"], ar=a["ar"], aa=a["aa"])
        bombs[a["number"]] = a["bombs"]
        rvp[a["number"]] = a["resto_vp"]
    nid = 23
    game_ids = list(range(1, 23))
    for o in data["game_cards"]:
        for _ in range(o["copies"]):
            ar = o["action"] in ("assassinate_any",)
            cards[nid] = Card(nid, o["name"], "game", **_syms(o["symbols"]), action=o["action"], use=o["use"],
                              ar=ar, aa=ar)
            game_ids.append(nid)
            nid += 1
    city = {c["id"]: c for c in data["cities"]}
    city_card = {c["id"]: c["card"] for c in data["cities"]}
    for cc in data["city_cards"]:
        cid = city_card[cc["city"]]
        cards[cid] = Card(cid, city[cc["city"]]["name"], "city", **_syms(cc["symbols"]), city=cc["city"])
    pe_ids = []
    by_effect = {}
    base = max(city_card.values()) + 1
    for i, p in enumerate(data["permanent_effects"]):
        cid = base + i
        cards[cid] = Card(cid, p["name"], "pe", sanity=p["sanity"], effect=p["effect"])
        pe_ids.append(cid)
        by_effect[p["effect"]] = cid
    ids = tuple(c["id"] for c in data["cities"])
    edges = tuple((tuple(arms), cost) for arms, cost in data["edges"])
    nb = {c: tuple(sorted({x for arms, _ in edges if c in arms for x in arms if x != c}, key=ids.index)) for c in ids}
    return Catalog(data=data, game=data["game"], cards=cards, city_ids=ids, city=city, city_card=city_card,
                   card_city={v: k for k, v in city_card.items()}, edges=edges, agent_bombs=bombs, agent_rvp=rvp,
                   game_card_ids=tuple(game_ids), pe_ids=tuple(pe_ids), pe_by_effect=by_effect,
                   assumed=tuple(data["assumed"]), neighbours=nb)


def catalog(data: Mapping[str, Any]) -> Catalog:
    """The index of ``data`` (cached by content)."""
    return _catalog(json.dumps(data, sort_keys=True))
