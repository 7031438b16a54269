"""What one seat may see, built by adding the pieces it is allowed (never copy-and-delete)."""

from __future__ import annotations

from typing import Any

from pbem.games.nanty import engine
from pbem.games.nanty.data import Catalog
from pbem.games.nanty.scoring import measure
from pbem.games.nanty.state import State


def card_json(cat: Catalog, card: int) -> dict[str, Any]:
    """The face of a card (a fresh dict each call; the faces are built once per catalog)."""
    table = cat.__dict__.get("_card_json")
    if table is None:
        table = {}
        for cid, c in cat.cards.items():
            face: dict[str, Any] = {"id": c.id, "number": c.number, "name": c.name, "symbols": list(c.symbols)}
            if c.text:
                face["text"] = c.text
            table[cid] = face
        object.__setattr__(cat, "_card_json", table)
    return dict(table[card])


def personality_json(state: State, pid: str) -> dict[str, Any]:
    p = state.cat.personality(state.variant, pid)
    n = str(state.n)
    return {"id": pid, "name": p["name"], "deck_out": p["deck_out"], "riots_lose": p["riots_lose"],
            "goals": [{"measure": g["measure"], "target": g["target"][n]} for g in p["goals"]]}


def _public(state: State) -> dict[str, Any]:
    cached: dict[str, Any] | None = state.__dict__.get("_public_view")
    if cached is not None:
        return cached
    cat = state.cat
    p = state.pend()
    base: dict[str, Any] = {
        "game": "nanty", "phase": state.phase, "turn": state.turn, "active": state.active,
        "personalities": state.variant, "bank": state.bank, "deck_size": len(state.deck),
        "events_left": len(state.event_deck), "events_done": list(state.events_done),
        "events_done_names": [cat.events[e]["name"] for e in state.events_done],
        "trouble": state.trouble_count(), "grenadiers_in_supply": state.grenadiers,
        "citizens_in_supply": state.citizens, "uses_assumed_data": bool(cat.assumed),
        "grenadiers_disable_powers": state.grenadiers_disable,
        "riots_at": cat.game["riots_trouble"],
        "discard": [card_json(cat, c) for c in state.discard[-10:]], "discard_size": len(state.discard),
        "playing": card_json(cat, p["card"]) if p.get("card") is not None else None,
        "symbol": p.get("i", 0), "plays_left": p.get("plays", 0), "played": p.get("played", 0),
        "powers_used": list(p.get("powers", [])), "ask": p.get("ask"), "event": p.get("event"),
    }
    areas = []
    for a, sp in zip(cat.area_ids, state.spots):
        info = cat.areas[a]
        areas.append({"id": a, "name": info.name, "card": info.card, "cost": info.cost, "river": info.river,
                      "neighbours": sorted(info.neighbours), "power": info.power, "power_text": info.text,
                      "agents": list(sp.agents), "building": sp.building, "trouble": sp.trouble,
                      "grenadiers": sp.grenadiers, "citizens": sp.citizens, "disabled": sp.disabled,
                      "power_works": state.power_works(a), "die": cat.die.index(a) + 1})
    players = []
    for i, pl in enumerate(state.players):
        players.append({"seat": i, "name": state.names[i], "money": pl.money, "hand_size": len(pl.hand),
                        "agents_on_board": state.agents_on_board(i), "agents_in_stock": state.agents_in_stock(i),
                        "buildings_in_stock": state.buildings_in_stock(i), "area_cards": state.buildings_of(i),
                        "loans": [card_json(cat, c) for c in pl.loans]})
    public = {"base": base, "areas": areas, "players": players}
    state.__dict__["_public_view"] = public
    return public


def build_view(state: State, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (None: a spectator)."""
    cat = state.cat
    over = state.phase == "over"
    public = _public(state)
    view: dict[str, Any] = dict(public["base"])
    view["seat"] = seat
    view["assumed"] = list(cat.assumed)
    view["areas"] = [dict(a) for a in public["areas"]]
    view["players"] = players = [dict(e) for e in public["players"]]
    if over:
        for i, pl in enumerate(state.players):
            players[i]["personality"] = personality_json(state, pl.personality)
            players[i]["hand"] = [card_json(cat, c) for c in pl.hand]
        view["deck"] = [card_json(cat, c) for c in state.deck]
        view["events_unused"] = list(state.event_deck)
        view["set_aside"] = [personality_json(state, pid) for pid in state.set_aside]
        view["end_reason"] = state.end_reason
        from pbem.games.nanty.scoring import final
        view["outcome"] = final(state).to_json()
    if seat is not None and 0 <= seat < state.n:
        pl = state.players[seat]
        mine = personality_json(state, pl.personality) if pl.personality else None
        if mine is not None:
            for g in mine["goals"]:
                g["now"] = measure(state, seat, g["measure"])
        view["you"] = {"seat": seat, "hand": [card_json(cat, c) for c in pl.hand], "personality": mine,
                       "money": pl.money}
        who = engine.acting(state)
        prompt = engine.prompts(state).get(seat) if who is not None and who[0] == seat else None
        if prompt is not None:
            view["prompt"] = prompt.to_json()
    return view
