"""Apply one event to the state. Never validates: recorded games must replay after a rule fix."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from pbem.games.emerald.state import Kill, State, bump, replace, without

Handler = Callable[[State, Mapping[str, Any]], State]
HANDLERS: dict[str, Handler] = {}


def on(name: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        HANDLERS["emerald." + name] = fn
        return fn
    return register


def apply(state: State, type_: str, payload: Mapping[str, Any]) -> State:
    handler = HANDLERS.get(type_)
    return handler(state, payload) if handler else state


def _noop(state: State, p: Mapping[str, Any]) -> State:
    return state


for _name in ("CardsDrawnCount", "CardsRemovedUnseenCount", "DiscardReshuffled", "IdentitiesDealt", "IdentityLooked", "CardRevealed",
              "SanityRolled", "InterruptAnswered"):
    HANDLERS["emerald." + _name] = _noop


@on("StacksDealt")
def _stacks(s: State, p: Mapping[str, Any]) -> State:
    for city, cards in p["stacks"].items():
        s = s.with_city(city, stack=tuple(cards))
    return s


@on("CardsBoxed")
def _boxed(s: State, p: Mapping[str, Any]) -> State:
    return replace(s, boxed=tuple(p["cards"]))


@on("RoyaltySlid")
def _slid(s: State, p: Mapping[str, Any]) -> State:
    c = s.city(p["city"])
    return s.with_city(p["city"], stack=c.stack[1:], royalty=p["card"])


@on("DeckShuffled")
def _shuffled(s: State, p: Mapping[str, Any]) -> State:
    pl = s.players[p["seat"]]
    order = tuple(p["order"])
    return s.with_player(p["seat"], deck=pl.deck + order, discard=without(pl.discard, order))


@on("CardsDrawn")
def _drawn(s: State, p: Mapping[str, Any]) -> State:
    pl = s.players[p["seat"]]
    cards = tuple(p["cards"])
    return s.with_player(p["seat"], deck=without(pl.deck, cards), hand=pl.hand + cards)


@on("IdentityDealt")
def _ident(s: State, p: Mapping[str, Any]) -> State:
    return s.with_player(p["seat"], identity=p["identity"])


@on("FirstPlayerChosen")
def _first(s: State, p: Mapping[str, Any]) -> State:
    n, f = s.n, p["seat"]
    rounds = s.cat.game["setup_agents"]
    order = tuple((f + i) % n for _ in range(rounds) for i in range(n))
    return replace(s, first=f, active=f, setup_queue=order)


@on("AgentPlaced")
def _agent_placed(s: State, p: Mapping[str, Any]) -> State:
    seat, city, source = p["seat"], p["city"], p.get("source", "stock")
    count = p.get("count", 1)
    c = s.city(city)
    s = s.with_city(city, agents=bump(c.agents, seat, count))
    pl = s.players[seat]
    if source == "migo":
        s = s.with_player(seat, migo=pl.migo - count)
    else:
        s = s.with_player(seat, stock_agents=pl.stock_agents - count)
    why = p.get("why", "")
    if why == "setup" and s.setup_queue:
        s = replace(s, setup_queue=s.setup_queue[1:])
        if not s.setup_queue:
            s = replace(s, phase="play", active=s.first, turn=1)
    if why == "reveal" and s.owed:
        head_seat, left = s.owed[0]
        s = replace(s, owed=((head_seat, left - count),) + s.owed[1:] if left - count > 0 else s.owed[1:])
    return s


@on("AgentRemoved")
def _agent_removed(s: State, p: Mapping[str, Any]) -> State:
    seat, city, to = p["seat"], p["city"], p["to"]
    count = p.get("count", 1)
    c = s.city(city)
    s = s.with_city(city, agents=bump(c.agents, seat, -count))
    pl = s.players[seat]
    if to == "stock":
        s = s.with_player(seat, stock_agents=pl.stock_agents + count)
    elif to == "migo":
        s = s.with_player(seat, migo=pl.migo + count, migo_turn=s.turn)
    elif to == "yog":
        s = s.with_player(seat, yog=pl.yog + count)
    # "trophy": the agent lies on the assassin's card (KillScored records it)
    return s


@on("AgentMoved")
def _agent_moved(s: State, p: Mapping[str, Any]) -> State:
    seat = p["seat"]
    s = s.with_city(p["from"], agents=bump(s.city(p["from"]).agents, seat, -1))
    return s.with_city(p["to"], agents=bump(s.city(p["to"]).agents, seat, 1))


def _move_cubes(s: State, seat: int, where: str, delta: int) -> State:
    pl = s.players[seat]
    if where == "stock":
        return s.with_player(seat, stock_cubes=pl.stock_cubes + delta)
    if where == "limbo":
        return s.with_player(seat, limbo=pl.limbo + delta)
    return s.with_city(where, cubes=bump(s.city(where).cubes, seat, delta))


@on("CubesMoved")
def _cubes_moved(s: State, p: Mapping[str, Any]) -> State:
    s = _move_cubes(s, p["seat"], p["from"], -p["count"])
    return _move_cubes(s, p["seat"], p["to"], p["count"])


@on("CubesCleared")
def _cubes_cleared(s: State, p: Mapping[str, Any]) -> State:
    """The acting player's cubes go to Limbo, every other player's back to their stock."""
    city, actor = p["city"], p["seat"]
    cubes = s.city(city).cubes
    for seat, count in enumerate(cubes):
        if count:
            s = _move_cubes(s, seat, "limbo" if seat == actor else "stock", count)
    return s.with_city(city, cubes=tuple(0 for _ in cubes))


@on("CardsPlayed")
def _played(s: State, p: Mapping[str, Any]) -> State:
    seat, cards, to = p["seat"], tuple(p["cards"]), p["to"]
    pl = s.players[seat]
    s = s.with_player(seat, hand=without(pl.hand, cards))
    pl = s.players[seat]
    if to == "discard":
        return s.with_player(seat, discard=pl.discard + cards)
    if to == "kept":
        return s.with_player(seat, kept=pl.kept + cards)
    return replace(s, removed=s.removed + cards)


@on("CardClaimed")
def _claimed(s: State, p: Mapping[str, Any]) -> State:
    seat, city = p["seat"], p["city"]
    c = s.city(city)
    s = s.with_city(city, stack=c.stack[1:])
    pl = s.players[seat]
    return s.with_player(seat, discard=pl.discard + (p["card"],))


@on("CardRemoved")
def _removed(s: State, p: Mapping[str, Any]) -> State:
    card, where = p["card"], p["from"]
    if where == "stack":
        c = s.city(p["city"])
        s = s.with_city(p["city"], stack=without(c.stack, (card,)))
    elif where == "royalty":
        s = s.with_city(p["city"], royalty=0)
    else:
        seat = p["seat"]
        pl = s.players[seat]
        field = {"hand": "hand", "deck": "deck", "discard": "discard", "kept": "kept"}[where]
        s = s.with_player(seat, **{field: without(getattr(pl, field), (card,))})
    return replace(s, removed=s.removed + (card,))


@on("CardsRemovedUnseen")
def _removed_unseen(s: State, p: Mapping[str, Any]) -> State:
    """Face-down cards leave the game without being shown: they join the boxed cards, secret until the end."""
    cards = tuple(p["cards"])
    s = s.with_city(p["city"], stack=without(s.city(p["city"]).stack, cards))
    return replace(s, boxed=s.boxed + cards)


@on("VPScored")
def _vp(s: State, p: Mapping[str, Any]) -> State:
    field = {"neutral": "vp_neutral", "resto": "vp_resto", "loyal": "vp_loyal"}[p["type"]]
    pl = s.players[p["seat"]]
    return s.with_player(p["seat"], **{field: getattr(pl, field) + p["amount"]})


@on("KillScored")
def _kill(s: State, p: Mapping[str, Any]) -> State:
    pl = s.players[p["seat"]]
    return s.with_player(p["seat"], kills=pl.kills + (Kill(p["card"], p["victim"], p["amount"], p["type"]),))


@on("MarkerMoved")
def _marker(s: State, p: Mapping[str, Any]) -> State:
    return replace(s, **{"resto_track" if p["track"] == "resto" else "loyal_track": p["to"]})


@on("SanityChanged")
def _sanity(s: State, p: Mapping[str, Any]) -> State:
    pl = s.players[p["seat"]]
    return replace(s.with_player(p["seat"], sanity=p["to"]), sanity_stock=s.sanity_stock + pl.sanity - p["to"])


@on("RoyaltyTaken")
def _royalty(s: State, p: Mapping[str, Any]) -> State:
    s = s.with_city(p["city"], royalty=0)
    pl = s.players[p["seat"]]
    hidden = pl.hidden_royalty + ((p["card"],) if p["how"] == "hidden" else ())
    return s.with_player(p["seat"], kept=pl.kept + (p["card"],), hidden_royalty=hidden)


@on("IdentityRevealed")
def _revealed(s: State, p: Mapping[str, Any]) -> State:
    return s.with_player(p["seat"], revealed=True)


@on("IdentitySeen")
def _seen(s: State, p: Mapping[str, Any]) -> State:
    pl = s.players[p["seat"]]
    return s.with_player(p["seat"], seen=pl.seen + ((p["target"], p["identity"]),))


@on("SideChanged")
def _side(s: State, p: Mapping[str, Any]) -> State:
    return s.with_player(p["seat"], flipped=not s.players[p["seat"]].flipped)


@on("BlackHandPlayed")
def _black_hand(s: State, p: Mapping[str, Any]) -> State:
    return s.with_player(p["seat"], black_hand=True)


@on("ZombiesPlaced")
def _zplaced(s: State, p: Mapping[str, Any]) -> State:
    c = s.city(p["city"])
    s = s.with_city(p["city"], zombies=bump(c.zombies, p["seat"], p["count"]))
    return replace(s, zombie_supply=s.zombie_supply - p["count"])


@on("ZombiesRemoved")
def _zremoved(s: State, p: Mapping[str, Any]) -> State:
    c = s.city(p["city"])
    s = s.with_city(p["city"], zombies=bump(c.zombies, p["seat"], -p["count"]))
    return s if p.get("permanent") else replace(s, zombie_supply=s.zombie_supply + p["count"])


@on("ZombieCardsVoided")
def _voided(s: State, p: Mapping[str, Any]) -> State:
    return replace(s, leopold=True)


@on("StepSet")
def _step(s: State, p: Mapping[str, Any]) -> State:
    step = p.get("step")
    return replace(s, pending=json.dumps(step, sort_keys=True) if step else "")


@on("ActionCompleted")
def _completed(s: State, p: Mapping[str, Any]) -> State:
    return replace(s, actions_done=s.actions_done + 1, pending="")


@on("InterruptOffered")
def _offered(s: State, p: Mapping[str, Any]) -> State:
    return replace(s, interrupt=json.dumps(dict(p), sort_keys=True))


@on("InterruptClosed")
def _closed(s: State, p: Mapping[str, Any]) -> State:
    return replace(s, interrupt="")


@on("AgentsOwed")
def _owed(s: State, p: Mapping[str, Any]) -> State:
    return replace(s, owed=s.owed + ((p["seat"], p["count"]),))


@on("TurnStarted")
def _turn(s: State, p: Mapping[str, Any]) -> State:
    return replace(s, active=p["seat"], turn=p["turn"], actions_done=0, pending="")


@on("PositionSet")
def _position(s: State, p: Mapping[str, Any]) -> State:
    """A game begun from a position: everything but the stacks, the box, the hands, decks and identities (their own
    events come first)."""
    cities = tuple(replace(city, cubes=tuple(e["cubes"]), agents=tuple(e["agents"]), zombies=tuple(e["zombies"]),
                           royalty=e["royalty"]) for city, e in ((c, p["cities"][cid])
                                                                 for cid, c in zip(s.cat.city_ids, s.cities)))
    players = tuple(replace(
        pl, stock_agents=e["stock_agents"], stock_cubes=e["stock_cubes"], limbo=e["limbo"], sanity=e["sanity"],
        vp_neutral=e["vp_neutral"], vp_resto=e["vp_resto"], vp_loyal=e["vp_loyal"],
        kills=tuple(Kill(k["card"], k["victim"], k["vp"], k["type"]) for k in e["kills"]), migo=e["migo"],
        migo_turn=e["migo_turn"], yog=e["yog"], black_hand=e["black_hand"], kept=tuple(e["kept"]),
        hidden_royalty=tuple(e["hidden_royalty"]), discard=tuple(e["discard"])) for pl, e in zip(s.players, p["players"]))
    step, window = p.get("step"), p.get("interrupt")
    return replace(s, cities=cities, players=players, phase=p["phase"], turn=p["turn"], first=p["first"],
                   active=p["active"], actions_done=p["actions_done"], setup_queue=tuple(p["setup_queue"]),
                   resto_track=p["resto_track"], loyal_track=p["loyal_track"], zombie_supply=p["zombie_supply"],
                   sanity_stock=p["sanity_stock"], leopold=p["leopold"], removed=tuple(p["removed"]),
                   pending=json.dumps(step, sort_keys=True) if step else "",
                   interrupt=json.dumps(window, sort_keys=True) if window else "",
                   owed=tuple((seat, count) for seat, count in p["owed"]))


@on("GameEnded")
def _ended(s: State, p: Mapping[str, Any]) -> State:
    return replace(s, phase="over", end_reason=p["reason"], pending="", interrupt="", owed=())
