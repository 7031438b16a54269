"""Apply one event to the state. Never validates: old games must replay after a rule fix."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from pbem.games.nanty.state import BANK, Spot, State, bump, replace, without

P = Mapping[str, Any]


def _money(s: State, seat: int, delta: int) -> State:
    if seat == BANK:
        return replace(s, bank=s.bank + delta)
    return s.with_player(seat, money=s.players[seat].money + delta)


def _moved(s: State, p: P) -> State:
    return _money(_money(s, p["from"], -p["amount"]), p["to"], p["amount"])


def _drawn(s: State, p: P) -> State:
    cards = tuple(p["cards"])
    s = replace(s, deck=s.deck[len(cards):])
    return s.with_player(p["seat"], hand=s.players[p["seat"]].hand + cards)


def _played(s: State, p: P) -> State:
    s = s.with_player(p["seat"], hand=without(s.players[p["seat"]].hand, [p["card"]]))
    return replace(s, discard=s.discard + (p["card"],))


def _loan(s: State, p: P) -> State:
    s = replace(s, discard=without(s.discard, [p["card"]]))
    return s.with_player(p["seat"], loans=s.players[p["seat"]].loans + (p["card"],))


def _agents(s: State, seat: int, area: str, delta: int) -> State:
    return s.with_spot(area, agents=bump(s.spot(area).agents, seat, delta))


def _pawn(s: State, p: P, delta: int) -> State:
    field = "grenadiers" if p["pawn"] == "grenadier" else "citizens"
    s = s.with_spot(p["area"], **{field: getattr(s.spot(p["area"]), field) + delta})
    return replace(s, **{field: getattr(s, field) - delta})


FRESH_TURN = json.dumps({"plays": 1, "played": 0, "powers": [], "card": None, "i": 0, "ask": None, "event": None},
                        sort_keys=True)


def _turn(s: State, p: P) -> State:
    # a turn starts with one card to play and no power used (engine.fresh_turn, as recorded JSON)
    return replace(s, phase="play", active=p["seat"], turn=p["turn"], pending=FRESH_TURN)


def _position(s: State, p: P) -> State:
    """A game begun from a position: the public table (hands came before, each to its holder)."""
    g = s.cat.game
    spots = tuple(Spot(agents=tuple(x["agents"]), building=x["building"], trouble=x["trouble"],
                       grenadiers=x["grenadiers"], citizens=x["citizens"], disabled=x["disabled"]) for x in p["spots"])
    players = tuple(replace(pl, money=q["money"], loans=tuple(q["loans"])) for pl, q in zip(s.players, p["players"]))
    return replace(s, spots=spots, players=players, bank=p["bank"], discard=tuple(p["discard"]),
                   events_done=tuple(p["events_done"]), grenadiers=g["grenadiers"] - sum(x.grenadiers for x in spots),
                   citizens=g["citizens"] - sum(x.citizens for x in spots), phase="play", active=p["active"],
                   turn=p["turn"], pending=json.dumps(p["pending"], sort_keys=True))


def _ended(s: State, p: P) -> State:
    return replace(s, phase="over", end_reason=p["reason"], winners=tuple(p["winners"]), pending="")


HANDLERS: dict[str, Callable[[State, P], State]] = {
    "DeckShuffled": lambda s, p: replace(s, deck=tuple(p["order"])),
    "EventsShuffled": lambda s, p: replace(s, event_deck=tuple(p["order"])),
    "PersonalityDealt": lambda s, p: s.with_player(p["seat"], personality=p["personality"]),
    "PersonalitiesDealt": lambda s, p: s,
    "PersonalitiesSetAside": lambda s, p: replace(s, set_aside=tuple(p["personalities"])),
    "MoneyMoved": _moved,
    "CardsDrawn": _drawn,
    "CardsDrawnCount": lambda s, p: s,
    "CardPlayed": _played,
    "CardDiscarded": _played,
    "LoanTaken": _loan,
    "CardsRevealed": lambda s, p: replace(s, deck=s.deck[len(p["cards"]):], discard=s.discard + tuple(p["cards"])),
    "AgentPlaced": lambda s, p: _agents(s, p["seat"], p["area"], 1),
    "AgentRemoved": lambda s, p: _agents(s, p["seat"], p["area"], -1),
    "AgentMoved": lambda s, p: _agents(_agents(s, p["seat"], p["from"], -1), p["seat"], p["to"], 1),
    "BuildingPlaced": lambda s, p: s.with_spot(p["area"], building=p["seat"]),
    "BuildingRemoved": lambda s, p: s.with_spot(p["area"], building=-1),
    "PawnPlaced": lambda s, p: _pawn(s, p, 1),
    "PawnRemoved": lambda s, p: _pawn(s, p, -1),
    "TroublePlaced": lambda s, p: s.with_spot(p["area"], trouble=True),
    "TroubleRemoved": lambda s, p: s.with_spot(p["area"], trouble=False),
    "PowerUsed": lambda s, p: s,
    "PowerDisabled": lambda s, p: s.with_spot(p["area"], disabled=True),
    "EventDrawn": lambda s, p: replace(s, event_deck=s.event_deck[1:], events_done=s.events_done + (p["event"],)),
    "DieRolled": lambda s, p: s,
    "InterruptAnswered": lambda s, p: s,
    "StepSet": lambda s, p: replace(s, pending=json.dumps(p["pending"], sort_keys=True) if p["pending"] else ""),
    "TurnStarted": _turn,
    "DecksSet": lambda s, p: replace(s, deck=tuple(p["deck"]), event_deck=tuple(p["random_events"]),
                                     set_aside=tuple(p["set_aside"])),
    "HandSet": lambda s, p: s.with_player(p["seat"], hand=tuple(p["cards"])),
    "PositionSet": _position,
    "GameEnded": _ended,
}


def apply(state: State, type_: str, payload: P) -> State:
    name = type_.split(".", 1)[1]
    return HANDLERS[name](state, payload)
