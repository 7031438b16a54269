"""Game data: load the TOML beside the game, apply an override, validate, and index it.

:func:`load_data` returns a JSON-able dict (it is recorded in the game's first event);
:func:`catalog` turns such a dict into the lookup tables the rules use.
"""

from __future__ import annotations

import copy
import json
import re
import tomllib
from collections.abc import Mapping
import dataclasses
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from events.rules import InvalidAction

DATA_FILE = Path(__file__).with_name("data") / "emerald.toml"

SYMBOLS = ("cube", "claim", "retrieve", "move", "assassinate", "bomb", "resto", "loyal", "insanity",
           "agent", "vp_neutral", "vp_resto", "vp_loyal", "kill_vp")
KILL_TYPES = ("neutral", "resto", "loyal")
TEXTS = ("black_hand", "change_of_heart", "cthulhu", "draw_two", "duchess", "fenians", "freemasons",
         "mrs_hudson", "hide_royalty", "holy_brotherhood", "infernal_machine", "lestrade", "irene_adler",
         "golovinski", "mi_go", "okhrana", "peoples_will", "pinkerton", "sherlock", "shoggoth", "freud",
         "leopold", "terrors", "third_section", "vampires", "burtsev", "yog_sothoth", "zombies")
TEXT_TYPES = ("", "action", "free action", "interrupt", "one-use action", "one-use free action",
              "one-use benefit", "one-use", "one-use action or interrupt")
GAME_KEYS = ("agents", "cubes", "cubes_in_limbo", "hand_size", "sanity_tokens", "sanity_stock", "zombies",
             "track_max", "lowest_side_penalty", "setup_agents", "loyalist_reveal_agents", "identities",
             "victory_target", "cards_per_space")
DIE_FACES = ("insane", "blank")
GAME_CARD_TOTAL = 66
RECORD_FIELDS = {
    "cities": {"name", "number", "defence", "symbols"},
    "royalty": {"number", "name", "defence", "vp"},
    "starting_cards": {"name", "symbols", "text", "text_type"},
    "game_cards": {"name", "copies", "symbols", "text", "text_type"},
}
STARTING_CARD_TOTAL = 10

_DIGITS = re.compile(r"[0-9]{1,3}")  # ASCII: str.isdigit() also takes "²", which int() refuses


def _read_default() -> dict[str, Any]:
    with DATA_FILE.open("rb") as fh:
        return tomllib.load(fh)


@lru_cache(maxsize=1)
def _default_raw_json() -> str:
    return json.dumps(_read_default())


def default_raw() -> dict[str, Any]:
    """The data file as read (a fresh copy each call)."""
    raw: dict[str, Any] = json.loads(_default_raw_json())
    return raw


def _merge_records(base: list[dict[str, Any]], patch: Any, key: str, where: str,
                   problems: list[str], overridden: list[str]) -> None:
    if not isinstance(patch, list):
        problems.append(f"{where}: must be a list of tables")
        return
    index = {rec.get(key): rec for rec in base}
    for i, rec in enumerate(patch):
        if not isinstance(rec, dict) or key not in rec:
            problems.append(f"{where}[{i}]: each entry needs its `{key}`")
            continue
        target = index.get(rec[key])
        if target is None:
            if where == "game_cards":
                target = {key: rec[key]}
                base.append(target)
                index[rec[key]] = target
            else:
                problems.append(f"{where}[{i}]: unknown {key} {rec[key]!r}")
                continue
        for field, value in rec.items():
            if field == key:
                continue
            if field not in RECORD_FIELDS[where]:
                problems.append(f"{where}.{rec[key]}.{field}: unknown field (known: "
                                f"{', '.join(sorted(RECORD_FIELDS[where]))})")
                continue
            if field == "symbols" and isinstance(value, dict) and isinstance(target.get("symbols"), dict):
                target["symbols"] = {**target["symbols"], **value}
            else:
                target[field] = value
            overridden.append(f"{where}.{rec[key]}.{field}")


def _apply_override(raw: dict[str, Any], override: Mapping[str, Any], problems: list[str]) -> list[str]:
    overridden: list[str] = []
    for section, value in override.items():
        if section == "game":
            if not isinstance(value, dict):
                problems.append("game: must be a table")
                continue
            for k, v in value.items():
                if k not in GAME_KEYS:
                    problems.append(f"game.{k}: unknown setting (known: {', '.join(GAME_KEYS)})")
                    continue
                if isinstance(v, dict) and isinstance(raw["game"].get(k), dict):
                    raw["game"][k] = {**raw["game"][k], **v}
                else:
                    raw["game"][k] = v
                overridden.append(f"game.{k}")
        elif section == "sanity_die":
            if not isinstance(value, dict) or set(value) - {"faces"}:
                problems.append("sanity_die: only `faces` may be set")
                continue
            raw["sanity_die"]["faces"] = value.get("faces")
            overridden.append("sanity_die.faces")
        elif section == "cities":
            _merge_records(raw["cities"], value, "id", "cities", problems, overridden)
        elif section == "royalty":
            _merge_records(raw["royalty"], value, "city", "royalty", problems, overridden)
        elif section == "starting_cards":
            _merge_records(raw["starting_cards"], value, "number", "starting_cards", problems, overridden)
        elif section == "game_cards":
            _merge_records(raw["game_cards"], value, "number", "game_cards", problems, overridden)
        else:
            problems.append(f"{section}: unknown section (known: game, sanity_die, cities, royalty, "
                            "starting_cards, game_cards)")
    return overridden


def _int(value: Any, where: str, problems: list[str], lo: int = 0, hi: int = 10_000) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        problems.append(f"{where}: must be a whole number, not {value!r}")
        return lo
    if not lo <= value <= hi:
        problems.append(f"{where}: must be between {lo} and {hi}, not {value}")
    return value


def _symbols(raw: Any, where: str, problems: list[str]) -> dict[str, Any]:
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        problems.append(f"{where}.symbols: must be a table")
        return {}
    out: dict[str, Any] = {}
    for k, v in raw.items():
        if k == "kill_vp_type":
            if v not in KILL_TYPES:
                problems.append(f"{where}.symbols.kill_vp_type: must be one of {', '.join(KILL_TYPES)}")
            out[k] = v
        elif k not in SYMBOLS:
            problems.append(f"{where}.symbols.{k}: unknown symbol (known: {', '.join(SYMBOLS)}, kill_vp_type)")
        else:
            out[k] = _int(v, f"{where}.symbols.{k}", problems, 0, 10)
    for flag in ("assassinate", "insanity"):
        if out.get(flag, 0) > 1:
            problems.append(f"{where}.symbols.{flag}: is 0 or 1")
    return {k: v for k, v in out.items() if v}


def _provenance(rec: Mapping[str, Any], fields: tuple[str, ...], prefix: str,
                assumed: list[str], overridden: set[str]) -> None:
    known = set(rec.get("rulebook", [])) | set(rec.get("inferred", []))
    for f in fields:
        key = f"{prefix}.{f}"
        if f not in known and key not in overridden:
            assumed.append(key)


def validate(raw: Mapping[str, Any], overridden: list[str] | None = None) -> dict[str, Any]:
    """Check the data and return its normal form; raise ``InvalidAction`` listing every problem."""
    problems: list[str] = []
    over = set(overridden or [])
    assumed: list[str] = []
    game = dict(raw.get("game", {}))
    g: dict[str, Any] = {}
    for key in GAME_KEYS:
        if key not in game:
            problems.append(f"game.{key}: missing")
    for key in ("agents", "cubes", "cubes_in_limbo", "hand_size", "sanity_tokens", "sanity_stock", "zombies",
                "track_max", "lowest_side_penalty", "setup_agents", "loyalist_reveal_agents"):
        if key in game:
            g[key] = _int(game[key], f"game.{key}", problems, 0, 100)
    if g.get("agents", 0) < 1 or g.get("cubes", 0) < 1 or g.get("hand_size", 0) < 1 or g.get("track_max", 0) < 1:
        problems.append("game: agents, cubes, hand_size and track_max must be at least 1")
    if g.get("cubes_in_limbo", 0) > g.get("cubes", 0):
        problems.append("game.cubes_in_limbo: cannot exceed game.cubes")
    if g.get("setup_agents", 0) > g.get("agents", 0) or g.get("loyalist_reveal_agents", 0) > g.get("agents", 0):
        problems.append("game.setup_agents / loyalist_reveal_agents: cannot exceed game.agents")
    if g.get("sanity_tokens", 0) < 1:
        problems.append("game.sanity_tokens: must be at least 1")
    ident = game.get("identities", {})
    if not isinstance(ident, dict) or set(ident) != {"loyalist", "restorationist"}:
        problems.append("game.identities: needs exactly `loyalist` and `restorationist` counts")
        ident = {"loyalist": 3, "restorationist": 3}
    g["identities"] = {k: _int(v, f"game.identities.{k}", problems, 0, 20) for k, v in ident.items()}
    if sum(g["identities"].values()) < 5:
        problems.append("game.identities: at least 5 identity cards are needed for 5 players")
    for key in ("victory_target", "cards_per_space"):
        table = game.get(key, {})
        if not isinstance(table, dict) or set(table) != {"2", "3", "4", "5"}:
            problems.append(f'game.{key}: needs a value for each player count "2" to "5"')
            table = {}
        g[key] = {k: _int(v, f"game.{key}.{k}", problems, 1, 500) for k, v in table.items()}
    for key in GAME_KEYS:
        if key not in game.get("rulebook", []) and f"game.{key}" not in over:
            assumed.append(f"game.{key}")

    faces = raw.get("sanity_die", {}).get("faces")
    if not isinstance(faces, list) or not faces or any(f not in DIE_FACES for f in faces):
        problems.append(f"sanity_die.faces: a non-empty list of {' / '.join(DIE_FACES)}")
        faces = ["blank"]
    if "sanity_die.faces" not in over:
        assumed.append("sanity_die.faces")

    cities: list[dict[str, Any]] = []
    seen_c: set[str] = set()
    for i, c in enumerate(raw.get("cities", [])):
        cid = c.get("id")
        where = f"cities.{cid}"
        if not isinstance(cid, str) or not cid or cid in seen_c:
            problems.append(f"cities[{i}]: missing or repeated id {cid!r}")
            continue
        seen_c.add(cid)
        num = c.get("number")
        if not isinstance(num, str) or not _DIGITS.fullmatch(num):
            problems.append(f"{where}.number: a three-digit string")
            num = "0"
        cities.append({"id": cid, "name": str(c.get("name", cid)), "number": num,
                       "defence": _int(c.get("defence"), f"{where}.defence", problems, 1, 50),
                       "symbols": _symbols(c.get("symbols"), where, problems)})
        _provenance(c, ("name", "number", "defence", "symbols"), where, assumed, over)
    if len(cities) != 9:
        problems.append(f"cities: there must be 9 cities, found {len(cities)}")

    royalty: list[dict[str, Any]] = []
    seen_r: set[str] = set()
    for i, r in enumerate(raw.get("royalty", [])):
        city = r.get("city")
        where = f"royalty.{city}"
        if city not in seen_c or city in seen_r:
            problems.append(f"royalty[{i}]: city {city!r} unknown or given twice")
            continue
        seen_r.add(city)
        num = r.get("number")
        if not isinstance(num, str) or not _DIGITS.fullmatch(num):
            problems.append(f"{where}.number: a three-digit string")
            num = "0"
        royalty.append({"city": city, "number": num, "name": str(r.get("name", "")),
                        "defence": _int(r.get("defence"), f"{where}.defence", problems, 1, 50),
                        "vp": _int(r.get("vp"), f"{where}.vp", problems, 0, 50)})
        _provenance(r, ("name", "defence", "vp"), where, assumed, over)
    if seen_r != seen_c:
        problems.append(f"royalty: every city needs one royalty card (missing: {', '.join(sorted(seen_c - seen_r))})")

    def cards(section: str, total: int) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        seen: set[str] = set()
        count = 0
        for i, rec in enumerate(raw.get(section, [])):
            num = rec.get("number")
            where = f"{section}.{num}"
            if not isinstance(num, str) or not num or num in seen:
                problems.append(f"{section}[{i}]: missing or repeated number {num!r}")
                continue
            seen.add(num)
            digits = num[1:] if section == "starting_cards" else num
            if not _DIGITS.fullmatch(digits) or int(digits) < 1 or int(digits) > 999:
                problems.append(f"{where}.number: must be digits 001-999" + (" after S" if section == "starting_cards" else ""))
                digits = "1"
            copies = _int(rec.get("copies", 1), f"{where}.copies", problems, 0 if section == "game_cards" else 1, 9)
            text = rec.get("text", "")
            if text and text not in TEXTS:
                problems.append(f"{where}.text: unknown effect {text!r} (known: {', '.join(TEXTS)})")
            ttype = rec.get("text_type", "")
            if ttype not in TEXT_TYPES:
                problems.append(f"{where}.text_type: unknown {ttype!r}")
            if not rec.get("name"):
                problems.append(f"{where}.name: missing")
            sym = _symbols(rec.get("symbols"), where, problems)
            out.append({"number": num, "name": str(rec.get("name", num)), "copies": copies,
                        "symbols": sym, "text": text, "text_type": ttype})
            _provenance(rec, ("name", "copies", "symbols", "text", "text_type") if section == "game_cards"
                        else ("name", "symbols"), where, assumed, over)
            count += copies
        if count != total:
            problems.append(f"{section}: there must be {total} cards in all (counting copies), found {count}")
        return out

    game_cards = cards("game_cards", GAME_CARD_TOTAL)
    starting = cards("starting_cards", STARTING_CARD_TOTAL)
    problems.extend(_one_of_a_kind(game_cards, starting))
    if problems:
        raise InvalidAction("The game data has problems:\n- " + "\n- ".join(problems))
    reasons = dict(raw.get("assumed_reasons", {}))
    return {"version": int(raw.get("version", 1)), "game": g, "sanity_die": {"faces": list(faces)},
            "cities": cities, "royalty": royalty, "starting_cards": starting, "game_cards": game_cards,
            "assumed": sorted(set(assumed)), "assumed_reasons": reasons, "overridden": sorted(over)}


ONE_OF_A_KIND = ("sherlock", "vampires", "zombies", "mi_go", "yog_sothoth", "change_of_heart", "black_hand",
                 "fenians")
"""Text effects the rules treat as one card's ("the Zombie card", "place them on this card", "You cannot play two
Fenian cards to quadruple their value"): at most one card in the game may carry each, whatever its number."""


def _one_of_a_kind(game_cards: list[dict[str, Any]], starting: list[dict[str, Any]]) -> list[str]:
    """The problems of effects that must be one card's: counted by text effect over every card in play (each
    starting card is in every player's deck, so none may carry such an effect)."""
    carriers: dict[str, list[tuple[str, int]]] = {}
    for c in game_cards:
        if c["text"] in ONE_OF_A_KIND and c["copies"]:
            carriers.setdefault(c["text"], []).append((f"game_cards.{c['number']}", c["copies"]))
    for c in starting:
        if c["text"] in ONE_OF_A_KIND:
            carriers.setdefault(c["text"], []).append((f"starting_cards.{c['number']}", 5))  # one a player
    problems = []
    for text, found in sorted(carriers.items()):
        count = sum(copies for _, copies in found)
        if count > 1:
            where = ", ".join(f"{w}.text" + ("" if copies == 1 else " (in every player's deck)"
                                             if w.startswith("starting") else f" ({copies} copies)")
                              for w, copies in found)
            problems.append(f"{where}: the {text} effect is one of a kind (at most one card in the game), "
                            f"not {count} cards")
    return problems


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
        text = str(err)
        if problems:
            text = text + "\n- " + "\n- ".join(problems)
        raise InvalidAction(text) from None
    if problems:
        raise InvalidAction("The game data has problems:\n- " + "\n- ".join(problems))
    return data


# --- the index the rules use -------------------------------------------------------------

@dataclass(frozen=True)
class CardDef:
    """One physical card."""

    id: int
    number: str
    name: str
    kind: str  # "game" | "city" | "royalty" | "start"
    symbols: Mapping[str, Any]
    text: str = ""
    text_type: str = ""
    city: str = ""       # city and royalty cards
    defence: int = 0     # royalty
    vp: int = 0          # royalty
    seat: int = -1       # starting cards: the owner

    def sym(self, name: str) -> int:
        return int(self.symbols.get(name, 0))

    @property
    def one_use(self) -> bool:
        return self.text_type.startswith("one-use")

    @property
    def label(self) -> str:
        return f"{self.name} ({self.id})"


@dataclass(frozen=True)
class Catalog:
    cards: Mapping[int, CardDef]
    city_ids: tuple[str, ...]
    city_names: Mapping[str, str]
    city_defence: Mapping[str, int]
    city_card: Mapping[str, int]
    royalty_card: Mapping[str, int]
    game_card_ids: tuple[int, ...]
    game: Mapping[str, Any]
    die: tuple[str, ...]
    assumed: tuple[str, ...]
    by_text: Mapping[str, tuple[int, ...]]
    source: str = dataclasses.field(default="", repr=False, compare=False)  # the data as canonical JSON: what it was made of
    data: Mapping[str, Any] = dataclasses.field(default_factory=dict, repr=False, compare=False)  # the same, as values

    def __reduce_ex__(self, protocol: Any) -> Any:
        """Pickled (in a snapshot) as the data it was made of: small, and read back from the cache of catalogs.
        (One read from an older snapshot, which kept every field, is pickled field by field as before.)"""
        if self.source:
            return _catalog, (self.source,)
        return super().__reduce_ex__(protocol)

    def starting_ids(self, seat: int) -> tuple[int, ...]:
        return tuple(cid for cid, c in self.cards.items() if c.kind == "start" and c.seat == seat)


def game_card_id(number: str, copy_index: int) -> int:
    return int(number) + 1000 * copy_index


def start_card_id(seat: int, number: str) -> int:
    return 100 * (seat + 2) + int(number[1:])


@lru_cache(maxsize=32)
def _catalog(data_json: str) -> Catalog:
    data = json.loads(data_json)
    cards: dict[int, CardDef] = {}
    game_ids: list[int] = []
    by_text: dict[str, list[int]] = {}
    for c in data["game_cards"]:
        for k in range(c["copies"]):
            cid = game_card_id(c["number"], k)
            cards[cid] = CardDef(cid, c["number"], c["name"], "game", c["symbols"], c["text"], c["text_type"])
            game_ids.append(cid)
            if c["text"]:
                by_text.setdefault(c["text"], []).append(cid)
    for c in data["cities"]:
        cid = 100 + int(c["number"])
        cards[cid] = CardDef(cid, c["number"], c["name"], "city", c["symbols"], city=c["id"])
    for r in data["royalty"]:
        cid = 100 + int(r["number"])
        cards[cid] = CardDef(cid, r["number"], r["name"], "royalty", {}, city=r["city"],
                             defence=r["defence"], vp=r["vp"])
    for seat in range(5):
        for c in data["starting_cards"]:
            cid = start_card_id(seat, c["number"])
            cards[cid] = CardDef(cid, c["number"], c["name"], "start", c["symbols"], c["text"], c["text_type"],
                                 seat=seat)
    return Catalog(
        cards=cards,
        city_ids=tuple(c["id"] for c in data["cities"]),
        city_names={c["id"]: c["name"] for c in data["cities"]},
        city_defence={c["id"]: c["defence"] for c in data["cities"]},
        city_card={c["id"]: 100 + int(c["number"]) for c in data["cities"]},
        royalty_card={r["city"]: 100 + int(r["number"]) for r in data["royalty"]},
        game_card_ids=tuple(game_ids),
        game=data["game"],
        die=tuple(data["sanity_die"]["faces"]),
        assumed=tuple(data.get("assumed", ())),
        by_text={k: tuple(v) for k, v in by_text.items()},
        source=data_json,
        data=data,
    )


def catalog(data: Mapping[str, Any]) -> Catalog:
    """The index of ``data`` (cached by content)."""
    return _catalog(json.dumps(data, sort_keys=True))
