"""What one seat may see, built by adding the pieces it is allowed (never copy-and-delete)."""

from __future__ import annotations

from typing import Any

from pbem.games.emerald import engine
from pbem.games.emerald.data import Catalog
from pbem.games.emerald.state import State, acting


def card_json(cat: Catalog, card: int) -> dict[str, Any]:
    """The public face of a card (a fresh dict each call; built once per catalog)."""
    table = cat.__dict__.get("_card_json")
    if table is None:
        table = {cid: _card_json(cat, cid) for cid in cat.cards}
        object.__setattr__(cat, "_card_json", table)
    return dict(table[card])


def _card_json(cat: Catalog, card: int) -> dict[str, Any]:
    c = cat.cards[card]
    out: dict[str, Any] = {"id": c.id, "number": c.number, "name": c.name, "kind": c.kind,
                           "symbols": dict(c.symbols)}
    if c.text:
        out["text"] = c.text
        out["text_type"] = c.text_type
    if c.kind == "royalty":
        out.update(city=c.city, defence=c.defence, vp=c.vp)
    return out


def _public(state: State) -> dict[str, Any]:
    """What everyone may see of a state, built once per (immutable) state and shared by its views."""
    cached: dict[str, Any] | None = state.__dict__.get("_public_view")
    if cached is not None:
        return cached
    cat = state.cat
    base: dict[str, Any] = {
        "game": "emerald",
        "phase": state.phase,
        "turn": state.turn,
        "active": state.active,
        "actions_done": state.actions_done,
        "tracks": {"restorationist": state.resto_track, "loyalist": state.loyal_track,
                   "max": cat.game["track_max"], "points": state.track_points()},
        "victory_target": cat.game["victory_target"][str(state.n)],
        "zombie_supply": state.zombie_supply,
        "sanity_stock": state.sanity_stock,
        "zombie_cards_voided": state.leopold,
        "uses_assumed_data": bool(cat.assumed),
    }
    cities = []
    for city, c in zip(cat.city_ids, state.cities):
        cities.append({"id": city, "name": cat.city_names[city], "defence": cat.city_defence[city],
                       "cubes": list(c.cubes), "agents": list(c.agents), "zombies": list(c.zombies),
                       "cards_left": len(c.stack),
                       "top": card_json(cat, c.stack[0]) if c.stack else None,
                       "royalty": card_json(cat, c.royalty) if c.royalty else None})
    players = []
    for i, p in enumerate(state.players):
        entry: dict[str, Any] = {
            "seat": i, "name": state.names[i], "vp": state.total_vp(i),
            "agents_in_stock": p.stock_agents, "cubes_in_stock": p.stock_cubes, "limbo": p.limbo,
            "sanity": p.sanity, "hand_size": len(p.hand), "deck_size": len(p.deck),
            "discard_size": len(p.discard),
            "discard_top": card_json(cat, p.discard[-1]) if p.discard else None,
            "kept": [card_json(cat, c) for c in p.kept],
            "kills": [{"card": k.card, "victim": k.victim, "vp": k.vp} for k in p.kills],
            "mi_go_agents": p.migo, "yog_sothoth_agents": p.yog,
            "change_of_heart": p.flipped, "revealed": p.revealed}
        if p.revealed:
            entry["side"] = p.side
        players.append(entry)
    public = {"base": base, "cities": cities, "players": players,
              "removed": [card_json(cat, c) for c in state.removed]}
    state.__dict__["_public_view"] = public
    return public


def build_view(state: State, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (None: a spectator).

    The public part is computed once per state; each view gets its own top-level dict and its own
    dict per city and per player (nested lists and card faces are shared between views: read-only).
    """
    cat = state.cat
    over = state.phase == "over"
    public = _public(state)
    view: dict[str, Any] = dict(public["base"])
    view["seat"] = seat
    view["removed"] = list(public["removed"])
    view["assumed"] = list(cat.assumed)
    view["cities"] = cities = [dict(e) for e in public["cities"]]
    view["players"] = players = [dict(e) for e in public["players"]]
    if over:
        for entry, c in zip(cities, state.cities):
            entry["stack"] = [card_json(cat, x) for x in c.stack]
        for i, p in enumerate(state.players):
            entry = players[i]
            entry["side"] = p.side
            entry["identity_card"] = p.identity
            entry["hand"] = [card_json(cat, c) for c in p.hand]
            entry["deck"] = [card_json(cat, c) for c in p.deck]
            entry["discard"] = [card_json(cat, c) for c in p.discard]
            entry["vp_by_type"] = {"neutral": p.vp_neutral, "restorationist": p.vp_resto,
                                   "loyalist": p.vp_loyal}
    if seat is not None and 0 <= seat < state.n:
        p = state.players[seat]
        view["you"] = {
            "seat": seat, "identity_card": p.identity, "side": p.side, "sanity": p.sanity,
            "hand": [card_json(cat, c) for c in p.hand], "deck_size": len(p.deck),
            "discard": [card_json(cat, c) for c in p.discard],
            "vp_by_type": {"neutral": p.vp_neutral, "restorationist": p.vp_resto, "loyalist": p.vp_loyal},
            "seen": [{"seat": t, "identity_card": ident} for t, ident in p.seen],
        }
        who = acting(state)
        prompt = engine.prompts(state).get(seat) if who is not None and who[0] == seat else None
        if prompt is not None:
            view["prompt"] = prompt.to_json()
            view["step"] = state.pend() if prompt.kind == "turn" else {}
            if state.interrupt and prompt.kind == "interrupt":
                effect = state.intr()["effect"]
                from pbem.games.emerald.effects import interrupt_cards
                view["interrupt"] = {"effect": effect, "cards": interrupt_cards(state, seat, effect["type"])}
    if over:
        view["boxed"] = [card_json(cat, c) for c in state.boxed]
        from pbem.games.emerald.scoring import final_scores
        view["outcome"] = final_scores(state).to_json()
    return view
