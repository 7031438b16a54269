"""What views show of cards, agents and places, and the parts of a view that only the game's data decides."""

from __future__ import annotations

from typing import Any

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


def face_table(cat: Catalog) -> dict[int, dict[str, Any]]:
    """Every card's face, made once per catalog: copy a face before handing it out (``card_face``)."""
    table = cat.__dict__.get("_faces")
    if table is None:
        table = {cid: _face(cat, cid) for cid in cat.cards}
        object.__setattr__(cat, "_faces", table)
    return table  # type: ignore[no-any-return]


def card_face(cat: Catalog, card: int) -> dict[str, Any]:
    return face_table(cat)[card].copy()


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


def agent_entry(s: State, key: str) -> dict[str, Any]:
    a = s.agents[key]
    main = key.startswith("m")
    return {"key": key, "name": f"{s.names[int(key[1:])]}'s Main Agent" if main else s.cat.cards[int(key)].name,
            "number": None if main else int(key), "owner": a["owner"], "vampire": a["vampire"], "main": main,
            "bombs": s.cat.game["main_agent_bombs"] if main else s.cat.agent_bombs[int(key)]}


def place_entry(s: State, place: str) -> dict[str, Any]:
    return {"cubes": list(s.cube_list(place)), "blocked": place in s.blocking}


def static_view(cat: Catalog) -> dict[str, Any]:
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
