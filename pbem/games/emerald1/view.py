"""What one seat may see, built by adding the pieces it is allowed (never copy-and-delete)."""

from __future__ import annotations

from typing import Any

from pbem.games.emerald1 import engine, scoring
from pbem.games.emerald1.data import Catalog
from pbem.games.emerald1.state import State

ACTION_WORDS = {
    "blocking_disc": "place or remove one Blocking disc",
    "assassinate_any": "assassinate royalty or an agent in any city where you have an agent",
    "irene_adler": "take an unrevealed Double-agent counter at random from a player",
    "rachkovsky": "when claimed: draw two Double-agent counters",
    "burtsev": "a player shows you their side",
    "bismarck": "lock a city you control",
    "diogenes": "draw two cards",
    "duchess": "place one cube",
    "fenians": "with an assassination: each of your agent counters in the city counts two bombs",
    "freemasons": "discard any cards, draw as many plus one",
    "hide_royalty": "hide a royal person in a city where you have an agent",
    "holy_brotherhood": "move one or two of your cubes",
    "infernal_machine": "removed from the game when used for its bombs",
    "lestrade": "one player's cubes in a City box go to their Limbo",
    "golovinsky": "War marker up to two spaces up",
    "nadar": "move one of your agents to any city for free",
    "shoggoth": "destroy an agent of another player",
    "okhrana": "one or two cubes of other players go to Limbo",
    "peoples_will": "one of your cubes from the Pool to your Available stock",
    "pinkerton": "draw four Double-agent counters, keep two",
    "terrors": "a player draws a Sanity counter",
    "third_section": "remove a stack's top card, a displayed Permanent Effect or a card of your hand",
    "vampire": "flip one of your agents to its vampire side, or convert another player's agent",
    "zombies": "kill with your zombies, then place up to three",
}
EFFECT_WORDS = {
    "change_of_heart": "you change sides",
    "cthulhu": "destroy a city; every other player draws a Sanity counter",
    "cultists": "your Control disc in a city counts two influence there and on its Game card",
    "devils_island": "free action: play a City card to send one player's cubes in that City box to Limbo",
    "watson": "your hand size is six",
    "master_of_disguise": "your attacked agents may escape with their card (a Main Agent with the city's card)",
    "mi_go": "free action: put up to two of your agents on this card, safe",
    "mrs_hudson": "free action once a turn: discard a card and draw a replacement",
    "moran": "one more bomb point always; all your agents may assassinate agents",
    "freud": "five Mad counters instead of three reveal you",
    "leopold": "vampires and zombies leave the board; the Vampire and Zombies cards are useless",
    "yog_sothoth": "action: sacrifice one of your agents (Loyalist: two VP each unless a vampire)",
}
USE_WORDS = {"action": "action", "free": "free action", "one-use": "one-use action",
             "one-use free": "one-use free action", "": ""}


def card_face(cat: Catalog, card: int) -> dict[str, Any]:
    table = cat.__dict__.get("_faces")
    if table is None:
        table = {cid: _face(cat, cid) for cid in cat.cards}
        object.__setattr__(cat, "_faces", table)
    return dict(table[card])


def _face(cat: Catalog, card: int) -> dict[str, Any]:
    c = cat.cards[card]
    does = []
    for sym in ("cube", "gold", "bomb"):
        n = getattr(c, sym)
        if n:
            does.append(f"{n} {sym}{'s' if n > 1 and sym != 'gold' else ''}")
    for track, steps in c.arrows:
        does.append(f"{track.capitalize()} {'+' if steps > 0 else ''}{steps}")
    if c.sanity:
        does.append("sanity symbol")
    text = ""
    if c.action and c.action in ACTION_WORDS:
        use = USE_WORDS.get(c.use, "")
        text = (f"{use}: " if use else "") + ACTION_WORDS[c.action]
    if c.kind == "agent":
        powers = [w for w, f in (("assassinate royalty", c.ar), ("assassinate agents", c.aa)) if f]
        extra = ", ".join(powers)
        counter = f"counter: {cat.agent_bombs[card]} bomb, {cat.agent_rvp[card]} Restorationist VP"
        text = "; ".join(x for x in (extra, text, counter) if x)
    if c.kind == "pe":
        text = EFFECT_WORDS.get(c.effect, "")
    if c.kind == "city":
        text = "City card"
    return {"id": card, "number": card, "name": c.name, "kind": c.kind, "does": ", ".join(does), "text": text}


def _agent(s: State, key: str) -> dict[str, Any]:
    a = s.agents[key]
    main = key.startswith("m")
    return {"key": key, "name": f"{s.names[int(key[1:])]}'s Main Agent" if main else s.cat.cards[int(key)].name,
            "number": None if main else int(key), "owner": a["owner"], "vampire": a["vampire"], "main": main,
            "bombs": s.cat.game["main_agent_bombs"] if main else s.cat.agent_bombs[int(key)]}


def _place(s: State, place: str) -> dict[str, Any]:
    return {"cubes": list(s.cube_list(place)), "blocked": place in s.blocking}


def _static(cat: Catalog) -> dict[str, Any]:
    """What the public view says that only the game's data decides: worked out once per catalog, read only."""
    found = cat.__dict__.get("_static_view")
    if found is None:
        found = {
            "cities": {cid: {"id": cid, "name": info["name"], "vp": info["vp"], "defence": info["defence"],
                             "royal": {"name": info["royal"]["name"], "defence": info["royal"]["defence"],
                                       "vp": info["royal"]["vp"]}}
                       for cid, info in ((c, cat.city[c]) for c in cat.city_ids)},
            "map": [{"cities": list(arms), "cost": cost} for arms, cost in cat.edges],
            "vp_spaces": dict(cat.game["track_vp"]),
            "assumed": list(cat.assumed),
        }
        object.__setattr__(cat, "_static_view", found)
    return found


def _public(s: State) -> dict[str, Any]:
    cat = s.cat
    static = _static(cat)
    on_board: dict[str, list[str]] = {}
    for k, a in s.agents.items():
        if a["where"] == "board":
            on_board.setdefault(a["city"], []).append(k)
    blocking = s.blocking
    cities = []
    for cid in cat.city_ids:
        fixed = static["cities"][cid]
        top = s.top(cid)
        royal = s.royal.get(cid)
        place = f"city:{cid}"
        cities.append({
            **fixed,
            "royal": {**fixed["royal"], "taken_by": royal[0] if royal else None, "how": royal[1] if royal else None},
            "owner": s.owner.get(cid), "bismarck": s.bismarck.get(cid), "destroyed": cid in s.destroyed,
            "cubes": list(s.cube_list(place)), "blocked": place in blocking,
            "top": ({**card_face(cat, top), **_place(s, f"card:{top}"),
                     "agent_on_card": str(top) in s.agents and s.agents[str(top)]["where"] == "card"}
                    if top is not None else None),
            "cards_left": len(s.stacks[cid]),
            "agents": [_agent(s, k) for k in sorted(on_board.get(cid, ()))],
            "zombies": list(s.zombies[cid])})
    players = []
    for i, p in enumerate(s.players):
        e: dict[str, Any] = {
            "seat": i, "name": s.names[i], "vp": scoring.public_score(s, i), "known": p.known,
            "revealed": p.revealed, "available": p.available, "pool": p.pool, "limbo": p.limbo, "mad": p.mad,
            "hand_size": len(p.hand), "deck_size": len(p.deck), "discard_size": len(p.discard),
            "discard_top": card_face(cat, p.discard[-1]) if p.discard else None,
            "permanent_effects": [card_face(cat, c) for c in p.pes],
            "double_agents": len(p.double_agents), "main_agent_dead": p.main_dead,
            "kills": [_agent(s, k) | {"from": o} for k, o in p.kills],
            "sacrificed": len(p.yog), "mi_go": [_agent(s, k) for k in sorted(s.migo) if s.agents[k]["owner"] == i],
            "discs_left": s.discs_free(i), "change_of_heart": p.flipped}
        if p.revealed:
            e["side"] = p.side
        players.append(e)
    return {
        "game": "emerald1", "phase": s.phase, "turn": s.turn, "active": s.active,
        "actions_done": s.actions_done, "actions": cat.game["actions"], "free_used": s.free_used,
        "tracks": {"war": s.war, "revolution": s.revolution, "war_max": s.war_max,
                   "revolution_max": s.revolution_max, "top_space": cat.game["track_top"],
                   "vp_spaces": static["vp_spaces"]},
        "victory_target": cat.game["victory_target"][str(s.n)],
        "cities": cities, "players": players,
        "map": static["map"],
        "permanent_effects_on_display": [{**card_face(cat, c), **_place(s, f"card:{c}")} for c in s.pe_display],
        "permanent_effects_left": len(s.pe_deck),
        "removed": [card_face(cat, c) for c in s.removed], "removed_face_down": s.removed_hidden,
        "sanity_left": len(s.sanity_pool), "double_agents_left": len(s.da_pool),
        "double_agents_revealed": list(s.da_revealed),
        "zombies_left": cat.game["zombies"] - sum(sum(r) for r in s.zombies.values()),
        "society_of_leopold": s.leopold, "safe_counters_left": cat.game["safe_counters"] - s.safe_used,
        "blocking_discs_left": cat.game["blocking_discs"] - len(s.blocking),
        "asked": ({"seat": s.window["asking"][0], "text": engine.window_text(s)} if s.window else None),
        "end_reason": s.end_reason or None,
        "assumed": static["assumed"],
    }


def build_view(s: State, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (None: a spectator)."""
    cat = s.cat
    own = s.__dict__.setdefault("_cache", {})
    cache = own.get("public")
    if cache is None:
        cache = own["public"] = _public(s)
    # Each view gets its own top-level dict and its own dict per city and player; deeper values are
    # shared between the views of one state and must be read only.
    view = dict(cache)
    view["players"] = [dict(e) for e in cache["players"]]
    view["cities"] = [dict(e) for e in cache["cities"]]
    view["seat"] = seat
    over = s.phase == "over"
    if over:
        for i, p in enumerate(s.players):
            e = view["players"][i]
            e.update(side=p.side, identity_card=p.identity, hand=[card_face(cat, c) for c in p.hand],
                     deck=[card_face(cat, c) for c in p.deck], discard=[card_face(cat, c) for c in p.discard],
                     double_agent_counters=sorted(p.double_agents),
                     vp_by_kind=scoring.breakdown(s, i, p.side, final=True))
        for e, cid in zip(view["cities"], cat.city_ids):
            e["stack"] = [card_face(cat, c) for c in s.stacks[cid]]
        view["boxed"] = [card_face(cat, c) for c in s.boxed]
        view["outcome"] = scoring.final_scores(s).to_json()
    if seat is not None and 0 <= seat < s.n:
        p = s.players[seat]
        by_kind = scoring.breakdown(s, seat, p.side)
        view["you"] = {
            "seat": seat, "identity_card": p.identity, "side": p.side,
            "hand": [card_face(cat, c) for c in p.hand], "deck_size": len(p.deck),
            "discard": [card_face(cat, c) for c in p.discard],
            "double_agents": [{"agent": a, "name": cat.cards[a].name} for a in sorted(p.double_agents)],
            "seen": [{"seat": t, "side": side} for t, side in sorted(p.seen.items())],
            "score_if_revealed": sum(by_kind.values()),
            "vp_by_kind": by_kind,
            "hand_limit": s.hand_limit(seat),
        }
        who = engine.acting(s)
        if who is not None and who[0] == seat:
            prompt = engine.prompts(s).get(seat)
            if prompt is not None:
                view["prompt"] = prompt.to_json()
            if who[1] == "turn" and s.step:
                view["step"] = dict(s.step)
    return view
