"""A game of Nanty Narking begun from a position (``docs/nanty-positions.md``): the position checked like data,
then its first events, each hidden as a deal's would be.

Every problem raises ``InvalidAction`` naming the field (``players[1].hand``, ``areas.City.agents``,
``turn.question.player``), so that whoever wrote the position can find it.
"""

from __future__ import annotations

import json
import unicodedata
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from events.envelope import NewEvent, Visibility
from events.rules import GameConfig, InvalidAction
from pbem.games.nanty.data import Catalog
from pbem.games.nanty.evolve import FRESH_TURN
from pbem.games.nanty.position import ASK, EFFECT, EVENT, PAWNS, QUESTION_KINDS, STEP
from pbem.games.nanty.state import State

TOP = ("bank", "deck", "discard", "random_events", "random_events_done", "personalities_set_aside", "players",
       "areas", "turn")
PLAYER = ("seat", "name", "personality", "money", "hand", "loans")
AREA = ("agents", "building", "trouble", "grenadiers", "new_citizens", "power_lost")
STAGES = {"fire": ("start", "roll", "burn"), "explosion": ("start", "roll", "hit"),
          "earthquake": ("start", "roll", "hit"), "zeppelin": ("start", "crash"), "inigo_jones": ("start", "agent"),
          "riot_act": ("start",), "new_citizens": ("start",), "fog": ("start",), "riots": ("start",),
          "subsidence": ("start", "pay"), "murders": ("start", "roll", "choose", "kill"),
          "flood": ("start", "guard", "move")}
EFFECTS = ("assassinate", "remove", "move")


def bad(field: str, why: str) -> InvalidAction:
    return InvalidAction(f"The position's {field}: {why}.")


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip().casefold()


class Reader:
    """Reads the position's values against the game's data and number of players."""

    def __init__(self, cat: Catalog, n: int, variant: str) -> None:
        self.cat, self.n, self.variant = cat, n, variant
        self.areas = {_fold(cat.areas[a].name): a for a in cat.area_ids}
        self.cards = {c.number: c.id for c in cat.cards.values()}
        self.events = {_fold(str(e["name"])): eid for eid, e in cat.events.items()}
        self.people = {_fold(str(p["name"])): str(p["id"]) for p in cat.personalities[variant]}

    def table(self, value: Any, field: str, known: Sequence[str]) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise bad(field, "a table is expected")
        unknown = sorted(set(value) - set(known))
        if unknown:
            raise bad(f"{field}.{unknown[0]}" if field else unknown[0],
                      f"not a field of a position (known: {', '.join(known)})")
        return value

    def count(self, value: Any, field: str, lo: int = 0, hi: int = 10_000) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise bad(field, f"a whole number from {lo} to {hi} is expected, not {value!r}")
        return value

    def flag(self, value: Any, field: str) -> bool:
        if not isinstance(value, bool):
            raise bad(field, f"true or false is expected, not {value!r}")
        return value

    def items(self, value: Any, field: str) -> list[Any]:
        if not isinstance(value, list):
            raise bad(field, "a list is expected")
        return value

    def seat(self, value: Any, field: str) -> int:
        return self.count(value, field, 0, self.n - 1)

    def area(self, value: Any, field: str) -> str:
        found = self.areas.get(_fold(value)) if isinstance(value, str) else None
        if found is None:
            names = ", ".join(self.cat.areas[a].name for a in self.cat.area_ids)
            raise bad(field, f"{value!r} is not an area of London ({names})")
        return found

    def card(self, value: Any, field: str) -> int:
        found = self.cards.get(value) if isinstance(value, str) else None
        if found is None:
            raise bad(field, f"{value!r} is not a card's printed number (a string such as \"052\")")
        return found

    def cards_of(self, value: Any, field: str) -> list[int]:
        return [self.card(c, f"{field}[{i}]") for i, c in enumerate(self.items(value, field))]

    def event(self, value: Any, field: str) -> str:
        found = self.events.get(_fold(value)) if isinstance(value, str) else None
        if found is None:
            names = ", ".join(str(e["name"]) for e in self.cat.events.values())
            raise bad(field, f"{value!r} is not a Random Event ({names})")
        return found

    def person(self, value: Any, field: str) -> str:
        found = self.people.get(_fold(value)) if isinstance(value, str) else None
        if found is None:
            names = ", ".join(str(p["name"]) for p in self.cat.personalities[self.variant])
            raise bad(field, f"{value!r} is not a personality of the {self.variant} game ({names})")
        return found


def _players(r: Reader, value: Any) -> list[dict[str, Any]]:
    rows = r.items(value, "players")
    if len(rows) != r.n:
        raise bad("players", f"one table for each of the game's {r.n} players is expected, not {len(rows)}")
    out = []
    for seat, row in enumerate(rows):
        field = f"players[{seat}]"
        row = r.table(row, field, PLAYER)
        if row.get("seat", seat) != seat:
            raise bad(f"{field}.seat", f"the players are listed in seat order: {seat} is expected here")
        if not isinstance(row.get("name", ""), str):
            raise bad(f"{field}.name", "a name is expected")
        loans = r.cards_of(row.get("loans", []), f"{field}.loans")
        for i, card in enumerate(loans):
            if r.cat.cards[card].scroll != "loan":
                raise bad(f"{field}.loans[{i}]", f"{r.cat.cards[card].label} is not a loan card")
        out.append({"personality": r.person(row.get("personality"), f"{field}.personality"),
                    "money": r.count(row.get("money", 0), f"{field}.money"),
                    "hand": r.cards_of(row.get("hand", []), f"{field}.hand"), "loans": loans})
    return out


def _spots(r: Reader, value: Any) -> list[dict[str, Any]]:
    given = r.table(value, "areas", list(value) if isinstance(value, Mapping) else [])
    found: dict[str, dict[str, Any]] = {}
    for name, row in given.items():
        area = r.area(name, f"areas.{name}")
        if area in found:
            raise bad(f"areas.{name}", "this area is given twice")
        field = f"areas.{name}"
        row = r.table(row, field, AREA)
        agents = r.items(row.get("agents", [0] * r.n), f"{field}.agents")
        if len(agents) != r.n:
            raise bad(f"{field}.agents", f"one count for each of the {r.n} players, in seat order")
        found[area] = {"area": area,
                       "agents": [r.count(a, f"{field}.agents[{i}]", 0, 100) for i, a in enumerate(agents)],
                       "building": r.seat(row["building"], f"{field}.building") if "building" in row else -1,
                       "trouble": r.flag(row.get("trouble", False), f"{field}.trouble"),
                       "grenadiers": r.count(row.get("grenadiers", 0), f"{field}.grenadiers", 0, 100),
                       "citizens": r.count(row.get("new_citizens", 0), f"{field}.new_citizens", 0, 100),
                       "disabled": r.flag(row.get("power_lost", False), f"{field}.power_lost")}
    empty = {"agents": [0] * r.n, "building": -1, "trouble": False, "grenadiers": 0, "citizens": 0, "disabled": False}
    return [found.get(area, {"area": area, **empty}) for area in r.cat.area_ids]


def _counts(r: Reader, players: list[dict[str, Any]], spots: list[dict[str, Any]], bank: int) -> None:
    g = r.cat.game
    for seat in range(r.n):
        if sum(s["agents"][seat] for s in spots) > g["agents"]:
            raise bad("areas", f"player {seat} has more than their {g['agents']} agents on the board")
        if sum(1 for s in spots if s["building"] == seat) > g["buildings"]:
            raise bad("areas", f"player {seat} has more than their {g['buildings']} buildings on the board")
    for key, word in (("grenadiers", "grenadiers"), ("citizens", "new_citizens")):
        if sum(s[key] for s in spots) > g[key]:
            raise bad("areas", f"more {word.replace('_', ' ')} than the game's {g[key]}")
    if sum(1 for s in spots if s["trouble"]) > g["trouble_markers"]:
        raise bad("areas", f"more trouble markers than the game's {g['trouble_markers']}")
    if bank + sum(p["money"] for p in players) != g["bank"]:
        raise bad("bank", f"the bank and the players' money make the game's £{g['bank']}: the bank holds "
                          f"£{g['bank'] - sum(p['money'] for p in players)} with this money")


def _step(r: Reader, value: Any, players: list[dict[str, Any]], discard: list[int]) -> tuple[int, int, dict[str, Any]]:
    turn = r.table(value, "turn", ["number", "player"] + [w for _, w in STEP])
    number = r.count(turn.get("number", 1), "turn.number", 0, 100_000)
    active = r.seat(turn.get("player"), "turn.player")
    pending: dict[str, Any] = json.loads(FRESH_TURN)
    pending["plays"] = r.count(turn.get("cards_to_play", pending["plays"]), "turn.cards_to_play", 0, 50)
    pending["played"] = r.count(turn.get("cards_played", pending["played"]), "turn.cards_played", 0, 50)
    # a power used this turn may since have lost its building (a Random Event, a building moved)
    pending["powers"] = sorted(r.area(name, f"turn.powers_used[{i}]")
                               for i, name in enumerate(r.items(turn.get("powers_used", []), "turn.powers_used")))
    if "card" in turn:
        card = r.card(turn["card"], "turn.card")
        if card not in discard and card not in players[active]["loans"]:
            raise bad("turn.card", "the card being played lies on the discard pile (or, a loan, before its player)")
        symbols = r.cat.cards[card].symbols
        pending["card"] = card
        # one past the last: the last symbol's question is open, and the card is done once it is answered
        pending["i"] = r.count(turn.get("next_symbol", 1), "turn.next_symbol", 1, len(symbols) + 1) - 1
    elif "next_symbol" in turn:
        raise bad("turn.next_symbol", "there is no card being played")
    if "question" in turn:
        pending["ask"] = _question(r, turn["question"])
    if "random_event" in turn:
        if "question" not in turn:
            raise bad("turn.random_event", "a Random Event in progress waits on a question")
        pending["event"] = _event(r, turn["random_event"])
    return number, active, pending


def _question(r: Reader, value: Any) -> dict[str, Any]:
    q = r.table(value, "turn.question", [w for _, w in ASK])
    kinds = {w: k for k, w in QUESTION_KINDS.items()}
    kind = kinds.get(str(q.get("kind")))
    if kind is None:
        raise bad("turn.question.kind", f"one of {', '.join(kinds)}")
    ask: dict[str, Any] = {"kind": kind, "seat": r.seat(q.get("player"), "turn.question.player")}
    needs = {"interrupt": ("effect",), "holborn": ("area", "agents", "building", "random_event"),
             "murder": ("area",), "flood": ("area",), "subsidence": (), "discard": ()}[kind]
    allowed = set(needs) | ({"still_to_ask"} if kind == "interrupt" else set()) | {"kind", "player"}
    for word in q:
        if word not in allowed:
            raise bad(f"turn.question.{word}", f"not a field of this question ({q['kind']})")
    for word in needs:
        if word not in q:
            raise bad(f"turn.question.{word}", f"this question ({q['kind']}) needs it")
    if "area" in q:
        ask["area"] = r.area(q["area"], "turn.question.area")
    if kind == "holborn":
        ask["agents"] = r.count(q["agents"], "turn.question.agents", 0, 100)
        ask["building"] = r.count(q["building"], "turn.question.building", 0, 1)
        ask["event"] = r.event(q["random_event"], "turn.question.random_event")
    if kind == "interrupt":
        e = r.table(q["effect"], "turn.question.effect", [w for _, w in EFFECT])
        what = e.get("what")
        if what not in EFFECTS:
            raise bad("turn.question.effect.what", f"one of {', '.join(EFFECTS)}")
        effect: dict[str, Any] = {"type": what, "seat": r.seat(e.get("by"), "turn.question.effect.by"),
                                  "victim": r.seat(e.get("victim"), "turn.question.effect.victim"),
                                  "area": r.area(e.get("area"), "turn.question.effect.area")}
        if what == "move":
            effect["to"] = r.area(e.get("to"), "turn.question.effect.to")
        elif "to" in e:
            raise bad("turn.question.effect.to", f"only a move goes somewhere, not {what}")
        ask["effect"] = effect
        if "still_to_ask" in q:
            ask["next"] = [r.seat(s, f"turn.question.still_to_ask[{i}]")
                           for i, s in enumerate(r.items(q["still_to_ask"], "turn.question.still_to_ask"))]
    return ask


def _event(r: Reader, value: Any) -> dict[str, Any]:
    e = r.table(value, "turn.random_event", [w for _, w in EVENT])
    eid = r.event(e.get("name"), "turn.random_event.name")
    stage = e.get("stage", "start")
    if stage not in STAGES[eid]:
        raise bad("turn.random_event.stage", f"{r.cat.events[eid]['name']} is at one of {', '.join(STAGES[eid])}")
    event: dict[str, Any] = {"id": eid, "stage": stage}
    for key, word in EVENT[2:]:
        if word not in e:
            continue
        field, v = f"turn.random_event.{word}", e[word]
        if key in ("area", "last"):
            event[key] = r.area(v, field)
        elif key == "owner":
            event[key] = r.seat(v, field)
        elif key in ("left", "move"):
            event[key] = r.count(v, field, 0, 100)
        elif key == "flooded":
            event[key] = [r.area(a, f"{field}[{i}]") for i, a in enumerate(r.items(v, field))]
        elif key == "queue":
            event[key] = [_queued(r, q, f"{field}[{i}]") for i, q in enumerate(r.items(v, field))]
        elif key == "target":
            pawns = {w: k for k, w in PAWNS.items()}
            event[key] = pawns[v] if v in pawns else r.seat(v, field)
        elif key == "saved":
            s = r.table(v, field, ["agents", "building"])
            event[key] = {"agents": r.count(s.get("agents", 0), f"{field}.agents"),
                          "building": r.count(s.get("building", 0), f"{field}.building", 0, 1)}
    return event


def _queued(r: Reader, value: Any, field: str) -> Any:
    if isinstance(value, Mapping):
        q = r.table(value, field, ["player", "area"])
        return [r.seat(q.get("player"), f"{field}.player"), r.area(q.get("area"), f"{field}.area")]
    return r.seat(value, field)


def _once(found: Sequence[Any], every: Sequence[Any], field: str, what: str, name: Any) -> None:
    counts = Counter(found)
    twice = sorted((x for x, c in counts.items() if c > 1), key=str)
    if twice:
        raise bad(field, f"{name(twice[0])} is given twice")
    missing = [x for x in every if x not in counts]
    if missing:
        raise bad(field, f"every {what} once: {name(missing[0])} is missing")


def setup_events(config: GameConfig, state: State, position: Mapping[str, Any]) -> list[NewEvent]:
    """The first events of a game begun from ``position``, in the state ``initial_state`` gave.

    :raises InvalidAction: naming the first field that is not a position of this game.
    """
    cat, n = state.cat, state.n
    r = Reader(cat, n, state.variant)
    position = r.table(position, "", TOP)
    for key in TOP:
        if key not in position:
            raise bad(key, "missing")
    players = _players(r, position["players"])
    spots = _spots(r, position["areas"])
    deck = r.cards_of(position["deck"], "deck")
    discard = r.cards_of(position["discard"], "discard")
    cards = deck + discard + [c for p in players for c in p["hand"] + p["loans"]]
    _once(cards, sorted(cat.cards), "deck, discard, hands and loans", "character card",
          lambda c: cat.cards[c].label)
    upcoming = [r.event(e, f"random_events[{i}]") for i, e in enumerate(r.items(position["random_events"],
                                                                                "random_events"))]
    done = [r.event(e, f"random_events_done[{i}]") for i, e in enumerate(r.items(position["random_events_done"],
                                                                                "random_events_done"))]
    _once(upcoming + done, sorted(cat.events), "random_events and random_events_done", "Random Event",
          lambda e: cat.events[e]["name"])
    aside = [r.person(p, f"personalities_set_aside[{i}]")
             for i, p in enumerate(r.items(position["personalities_set_aside"], "personalities_set_aside"))]
    _once([p["personality"] for p in players] + aside, [str(p["id"]) for p in cat.personalities[state.variant]],
          "players' personalities and personalities_set_aside", "personality",
          lambda pid: cat.personality(state.variant, pid)["name"])
    bank = r.count(position["bank"], "bank")
    _counts(r, players, spots, bank)
    number, active, pending = _step(r, position["turn"], players, discard)
    events = [NewEvent("nanty.DecksSet", {"deck": deck, "random_events": upcoming, "set_aside": aside},
                       Visibility.server())]
    events += [NewEvent("nanty.PersonalityDealt", {"seat": seat, "personality": p["personality"]},
                        Visibility.to(seat), True) for seat, p in enumerate(players)]
    events.append(NewEvent("nanty.PersonalitiesDealt", {"count": n}))
    events += [NewEvent("nanty.HandSet", {"seat": seat, "cards": p["hand"]}, Visibility.to(seat), True)
               for seat, p in enumerate(players)]
    events.append(NewEvent("nanty.PositionSet", {
        "turn": number, "active": active, "bank": bank, "discard": discard, "events_done": done,
        "players": [{"money": p["money"], "hand_size": len(p["hand"]), "loans": p["loans"]} for p in players],
        "spots": spots, "pending": pending}))
    return events
