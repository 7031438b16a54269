"""A position of A Study in Emerald in the players' words (``docs/emerald-positions.md``): written from a state.

Cards are named by the number the commands accept (``docs/emerald-commands.md``), cities by their names, players
by their seat number, with their names beside; what the engine keeps as its own keys (an action's next step, an
interrupt window) is written in words. ``position_check`` reads a position back into a game's first events.
"""

from __future__ import annotations

from typing import Any

from pbem.games.emerald.state import LOYALIST, RESTORATIONIST, State

# an action's next step: the engine's name and the position's words
STEPS = {"move": "move agents", "retrieve": "take back cubes", "assassinate_more": "assassinate again",
         "yog": "take agents with Yog-Sothoth", "zombie_remove": "remove agents with zombies",
         "zombie_place": "place zombies", "end_of_turn": "end of turn"}
# what an interrupt window asks about, and what the acting player does once it is answered
EFFECTS = {"assassinate": "assassination", "shoggoth": "Shoggoth", "replace": "replacement", "zombie": "zombie",
           "cthulhu": "Cthulhu"}
THEN = {"assassinate": "assassinate again", "zombies": "go on with the zombies", "done": "end the action"}
POINTS = {"neutral": "neutral", "resto": RESTORATIONIST, "loyal": LOYALIST}


def position(state: State) -> dict[str, Any]:
    """The whole position: the board, every player's cards and pieces, and whose decision it is."""
    cat = state.cat
    out: dict[str, Any] = {
        "turn": state.turn,
        "first_player": state.first,
        "playing": state.active,
        "actions_done": state.actions_done,
    }
    if state.setup_queue:
        out["setup_placements"] = list(state.setup_queue)
    out.update({
        "tracks": {RESTORATIONIST: state.resto_track, LOYALIST: state.loyal_track},
        "zombies_in_supply": state.zombie_supply,
        "sanity_tokens_in_stock": state.sanity_stock,
        "zombie_and_vampire_cards_out": state.leopold,
        "out_of_the_game": list(state.removed),
        "in_the_box": list(state.boxed),
    })
    step = state.pend()
    if step:
        out["step"] = _step(state, step)
    if state.interrupt:
        out["waiting_for"] = _interrupt(state, state.intr())
    if state.owed:
        out["placing_agents"] = [{"seat": seat, "agents": count} for seat, count in state.owed]
    out["players"] = [_player(state, seat) for seat in range(state.n)]
    out["cities"] = {cat.city_names[cid]: _city(state, cid) for cid in cat.city_ids}
    return out


def _names(state: State, cities: list[str]) -> list[str]:
    return [state.cat.city_names[c] for c in cities]


def _step(state: State, step: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"doing": STEPS[step["step"]]}
    if "left" in step:
        out["left"] = step["left"]
    if "taken" in step:
        out["taken"] = step["taken"]
    if "cities" in step:
        out["cities"] = _names(state, step["cities"])
    return out


def _interrupt(state: State, window: dict[str, Any]) -> dict[str, Any]:
    effect, cont = window["effect"], window["cont"]
    out: dict[str, Any] = {"asked": window["seat"], "by": effect["seat"], "effect": EFFECTS[effect["type"]],
                           "city": state.cat.city_names[effect["city"]]}
    if "victim" in effect:
        out["target"] = effect["victim"]
    if "card" in effect:
        out["card"] = effect["card"]
    if "queue" in effect:
        out["still_to_ask"] = list(effect["queue"])
    out["then"] = THEN[cont["then"]]
    if "cities" in cont:
        out["zombie_cities_left"] = _names(state, cont["cities"])
    return out


def _player(state: State, seat: int) -> dict[str, Any]:
    p = state.players[seat]
    out: dict[str, Any] = {
        "seat": seat, "name": state.names[seat], "identity": p.identity, "change_of_heart": p.flipped,
        "revealed": p.revealed, "sanity": p.sanity,
        "hand": list(p.hand), "deck": list(p.deck), "discard": list(p.discard), "beside_identity": list(p.kept),
        "agents_in_stock": p.stock_agents, "cubes_in_stock": p.stock_cubes, "cubes_in_limbo": p.limbo,
        "points": {"neutral": p.vp_neutral, RESTORATIONIST: p.vp_resto, LOYALIST: p.vp_loyal},
        "assassinations": [{"card": k.card, "agent_of": k.victim, "points": k.vp, "kind": POINTS[k.type]}
                           for k in p.kills],
        "mi_go_agents": p.migo,
    }
    if p.migo:
        out["mi_go_since_turn"] = p.migo_turn
    out.update({"yog_sothoth_agents": p.yog, "black_hand": p.black_hand, "royalty_hidden": list(p.hidden_royalty),
                "identities_seen": [{"seat": target, "identity": ident} for target, ident in p.seen]})
    return out


def _city(state: State, cid: str) -> dict[str, Any]:
    c = state.city(cid)
    out: dict[str, Any] = {"cards": list(c.stack)}
    if c.royalty:
        out["royalty"] = c.royalty
    out.update({"cubes": list(c.cubes), "agents": list(c.agents), "zombies": list(c.zombies)})
    return out
