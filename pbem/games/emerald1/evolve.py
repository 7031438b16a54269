"""Applying one event to a state whose containers the event writes are already its own. Never validates.

The caller (``evolve``, or ``decide``'s working state) has copied, one level deep, the containers named in
``TOUCHES``; what is inside them (an agent's record, a stack, a row of cubes or zombies, a player's list) may still
be shared with earlier states, so a handler replaces it instead of changing it (``_without``, ``_plus``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pbem.games.emerald1.state import State

Handler = Callable[[State, Mapping[str, Any]], None]
HANDLERS: dict[str, Handler] = {}


def on(name: str) -> Callable[[Handler], Handler]:
    def wrap(fn: Handler) -> Handler:
        HANDLERS["emerald1." + name] = fn
        return fn
    return wrap


P, ONE, AG = "players", "player", "agents"
TOUCHES: dict[str, frozenset[str]] = {"emerald1." + k: frozenset(v) for k, v in {
    "IdentityDealt": [ONE], "StacksDealt": ["stacks"], "CardsBoxed": ["boxed"], "TopTurned": [AG],
    "PEDeckShuffled": ["pe_deck"], "PEDisplayed": ["pe_deck", "pe_display"], "DoubleAgentsShuffled": ["da_pool"],
    "DoubleAgentsTaken": ["da_pool", ONE], "DoubleAgentsReturned": ["da_pool", ONE], "DoubleAgentStolen": [P],
    "DoubleAgentRevealed": [ONE, "da_revealed"], "SanityShuffled": ["sanity_pool"], "DeckShuffled": [ONE],
    "CardsDrawn": [ONE], "FirstPlayerChosen": [], "MainAgentPlaced": [AG, "setup_queue"], "TurnStarted": [],
    "CardsPlayed": [ONE, "removed"], "CardsDiscarded": [ONE], "CardRemovedHidden": [],
    "CardRemovedFace": [ONE, "removed_secret"], "CardsDrawnBack": [ONE], "CardTransferred": [P],
    "CardGone": [P, "stacks", "pe_display", "removed"], "CubesMoved": [ONE, "cubes"], "CubesCleared": [P, "cubes"],
    "CardClaimed": [P, "pe_display", "removed", "owner", "stacks"], "AgentControlled": [AG],
    "AgentOwnerChanged": [AG], "AgentMoved": [AG, "migo"], "AgentFlipped": [AG], "AgentToMiGo": [AG, "migo"],
    "AgentKilled": [AG, P], "AgentLost": [AG, P, "migo"], "Sacrificed": [AG, ONE], "MarkerMoved": [],
    "SanityDrawn": [ONE, "sanity_pool", "sanity_out"], "IdentityRevealed": [ONE], "IdentitySeen": [ONE],
    "SideChanged": [ONE], "KnownToAuthorities": [ONE], "RoyalTaken": ["royal"], "CityLost": ["owner"],
    "BlockingPlaced": ["blocking"], "BlockingRemoved": ["blocking"], "ZombiePlaced": ["zombies"],
    "ZombiesRemoved": ["zombies"], "BismarckPlayed": ["bismarck"], "CityDestroyed": ["destroyed", "bismarck"],
    "SocietyOfLeopold": [], "StepSet": [], "WindowSet": [], "ActionDone": [], "MrsHudsonUsed": [],
    "GameEnded": [P], "PositionSet": [P], "PositionSecrets": [P], "PositionHand": [ONE]}.items()}
"""The containers each event's handler mutates: ``evolve`` copies only those (the rest is shared);
``player`` is the player at the payload's ``seat`` only."""


def plan(type_: str) -> tuple[Handler, tuple[str, ...], int] | None:
    """What applying an event of ``type_`` takes, worked out once per type (``PLANS``): its handler, the
    containers it writes other than players, and which players (0: none, 1: the one at the payload's seat, 2: every
    one); None for an event that changes nothing."""
    found = PLANS.get(type_)
    if found is None and type_ in HANDLERS:
        fields = TOUCHES[type_]
        found = PLANS[type_] = (HANDLERS[type_], tuple(sorted(f for f in fields if f not in (ONE, P))),
                                2 if P in fields else 1 if ONE in fields else 0)
    return found


PLANS: dict[str, tuple[Handler, tuple[str, ...], int]] = {}  # bounded: one entry per event type


def apply(s: State, type_: str, p: Mapping[str, Any]) -> None:
    """Mutate ``s`` by the event (the caller owns ``s``)."""
    handler = HANDLERS.get(type_)
    if handler is not None:
        handler(s, p)


def _without(items: list[Any], item: Any) -> list[Any]:
    """A copy of ``items`` with the first ``item`` removed (ValueError if there is none, as ``list.remove``)."""
    out = list(items)
    out.remove(item)
    return out


def _plus(items: list[Any], *more: Any) -> list[Any]:
    return [*items, *more]


def _take_card(s: State, seat: int, card: int) -> str:
    """Take ``card`` out of a player's hand, deck or discard pile; returns where it was ("" if nowhere)."""
    pl = s.players[seat]
    for where in ("hand", "deck", "discard"):
        pile = getattr(pl, where)
        if card in pile:
            setattr(pl, where, _without(pile, card))
            return where
    return ""


def _add(s: State, place: str, seat: int, count: int) -> None:
    pl = s.players[seat]
    if place == "available":
        pl.available += count
    elif place == "pool":
        pl.pool += count
    elif place == "limbo":
        pl.limbo += count
    else:
        row = list(s.cube_list(place))
        row[seat] += count
        if any(row):
            s.cubes[place] = row
        else:
            s.cubes.pop(place, None)


# --- setup -------------------------------------------------------------------------------

@on("IdentityDealt")
def _identity(s: State, p: Mapping[str, Any]) -> None:
    s.players[p["seat"]].identity = p["identity"]


@on("StacksDealt")
def _stacks(s: State, p: Mapping[str, Any]) -> None:
    for city, cards in p["stacks"].items():
        s.stacks[city] = list(cards)


@on("CardsBoxed")
def _boxed(s: State, p: Mapping[str, Any]) -> None:
    s.boxed = list(p["cards"])


@on("TopTurned")
def _top(s: State, p: Mapping[str, Any]) -> None:
    card = p["card"]
    if s.cat.cards[card].kind == "agent":
        s.agents[str(card)] = {"owner": None, "where": "card", "city": p["city"], "vampire": False, "main": False}


@on("PEDeckShuffled")
def _pe_deck(s: State, p: Mapping[str, Any]) -> None:
    s.pe_deck = list(p["order"])


@on("PEDisplayed")
def _pe_shown(s: State, p: Mapping[str, Any]) -> None:
    if p["card"] in s.pe_deck:
        s.pe_deck.remove(p["card"])
    s.pe_display.append(p["card"])


@on("DoubleAgentsShuffled")
def _da_pool(s: State, p: Mapping[str, Any]) -> None:
    s.da_pool = list(p["order"])


@on("DoubleAgentsTaken")
def _da_taken(s: State, p: Mapping[str, Any]) -> None:
    pl = s.players[p["seat"]]
    mine = list(pl.double_agents)
    for a in p["agents"]:
        if a in s.da_pool:
            s.da_pool.remove(a)
        mine.append(a)
    pl.double_agents = mine


@on("DoubleAgentsReturned")
def _da_back(s: State, p: Mapping[str, Any]) -> None:
    pl = s.players[p["seat"]]
    for a in p["agents"]:
        pl.double_agents = _without(pl.double_agents, a)
        s.da_pool.append(a)


@on("DoubleAgentStolen")
def _da_stolen(s: State, p: Mapping[str, Any]) -> None:
    if "agent" in p:
        giver = s.players[p["from_seat"]]
        giver.double_agents = _without(giver.double_agents, p["agent"])
        taker = s.players[p["seat"]]
        taker.double_agents = _plus(taker.double_agents, p["agent"])


@on("DoubleAgentRevealed")
def _da_revealed(s: State, p: Mapping[str, Any]) -> None:
    pl = s.players[p["seat"]]
    if p["agent"] in pl.double_agents:
        pl.double_agents = _without(pl.double_agents, p["agent"])
    s.da_revealed.append(p["agent"])


@on("SanityShuffled")
def _sanity_pool(s: State, p: Mapping[str, Any]) -> None:
    s.sanity_pool = list(p["order"])


@on("DeckShuffled")
def _deck(s: State, p: Mapping[str, Any]) -> None:
    pl = s.players[p["seat"]]
    order = list(p["order"])
    gone = set(order)
    pl.discard = [c for c in pl.discard if c not in gone]
    pl.deck = order


@on("CardsDrawn")
def _drawn(s: State, p: Mapping[str, Any]) -> None:
    pl = s.players[p["seat"]]
    deck, hand = list(pl.deck), list(pl.hand)
    for c in p["cards"]:
        if c in deck:
            deck.remove(c)
        hand.append(c)
    pl.deck, pl.hand = deck, hand


@on("FirstPlayerChosen")
def _first(s: State, p: Mapping[str, Any]) -> None:
    s.first = p["seat"]
    s.setup_queue = s.seat_order_from(p["seat"])


@on("MainAgentPlaced")
def _main(s: State, p: Mapping[str, Any]) -> None:
    seat = p["seat"]
    s.agents[f"m{seat}"] = {"owner": seat, "where": "board", "city": p["city"], "vampire": False, "main": True}
    if seat in s.setup_queue:
        s.setup_queue.remove(seat)


@on("TurnStarted")
def _turn(s: State, p: Mapping[str, Any]) -> None:
    s.phase = "play"
    s.active = p["seat"]
    s.turn = p["turn"]
    s.actions_done = 0
    s.free_used = False
    s.hudson_used = False
    s.step = {}


# --- cards -------------------------------------------------------------------------------

@on("CardsPlayed")
def _played(s: State, p: Mapping[str, Any]) -> None:
    pl = s.players[p["seat"]]
    hand, discard = list(pl.hand), list(pl.discard)
    for c in p["cards"]:
        if c in hand:
            hand.remove(c)
        if p["to"] == "discard":
            discard.append(c)
        elif p["to"] == "removed":
            s.removed.append(c)
    pl.hand, pl.discard = hand, discard
        # "kept": on a Permanent Effect or in a City box, tracked by that effect


@on("CardsDiscarded")
def _discarded(s: State, p: Mapping[str, Any]) -> None:
    pl = s.players[p["seat"]]
    hand, discard = list(pl.hand), list(pl.discard)
    for c in p["cards"]:
        hand.remove(c)
        discard.append(c)
    pl.hand, pl.discard = hand, discard


@on("CardRemovedHidden")
def _removed_hidden(s: State, p: Mapping[str, Any]) -> None:
    s.removed_hidden += 1


@on("CardRemovedFace")
def _removed_face(s: State, p: Mapping[str, Any]) -> None:
    pl = s.players[p["seat"]]
    pl.hand = _without(pl.hand, p["card"])
    s.removed_secret.append(p["card"])
    if s.readings.revision >= 2 and s.cat.cards[p["card"]].name == "Necronomicon":
        pl.hidden_necronomicons += 1  # its points stay on the track until the game ends


@on("CardsDrawnBack")
def _drawn_back(s: State, p: Mapping[str, Any]) -> None:
    pl = s.players[p["seat"]]
    pl.hand = _plus(pl.hand, p["card"])


@on("CardTransferred")
def _transfer(s: State, p: Mapping[str, Any]) -> None:
    if _take_card(s, p["from_seat"], p["card"]) or p.get("from") == "city_deck":
        pl = s.players[p["seat"]]
        pl.discard = _plus(pl.discard, p["card"])


@on("CardGone")
def _gone(s: State, p: Mapping[str, Any]) -> None:
    """A card leaves the game from wherever it is (a player's cards, a stack, the display)."""
    card = p["card"]
    if p.get("from_seat") is not None:
        _take_card(s, p["from_seat"], card)
    for city, stack in list(s.stacks.items()):
        if card in stack:
            s.stacks[city] = _without(stack, card)
    if card in s.pe_display:
        s.pe_display.remove(card)
    s.removed.append(card)


# --- claims, cubes, board ----------------------------------------------------------------

@on("CubesMoved")
def _cubes(s: State, p: Mapping[str, Any]) -> None:
    _add(s, p["from"], p["seat"], -p["count"])
    _add(s, p["to"], p["seat"], p["count"])


@on("CubesCleared")
def _cleared(s: State, p: Mapping[str, Any]) -> None:
    row = s.cubes.pop(p["place"], None) or []
    for seat, count in enumerate(row):
        if count:
            dest = p.get("all_to") or ("limbo" if seat == p.get("claimer") else "available")
            _add(s, dest, seat, count)


@on("CardClaimed")
def _claimed(s: State, p: Mapping[str, Any]) -> None:
    seat, card = p["seat"], p["card"]
    kind = s.cat.cards[card].kind
    if kind == "pe":
        s.pe_display.remove(card)
        if s.cat.cards[card].effect != "cthulhu":
            pl = s.players[seat]
            pl.pes = _plus(pl.pes, card)
        else:
            s.removed.append(card)
    elif kind == "city":
        city = s.cat.card_city[card]
        prev = s.owner.get(city)
        if prev is not None:
            _take_card(s, prev, card)
        pl = s.players[seat]
        pl.discard = _plus(pl.discard, card)
        s.owner[city] = seat
    else:
        s.stacks[p["city"]] = _without(s.stacks[p["city"]], card)
        pl = s.players[seat]
        pl.discard = _plus(pl.discard, card)


@on("AgentControlled")
def _controlled(s: State, p: Mapping[str, Any]) -> None:
    s.agents[p["agent"]] = {**s.agents[p["agent"]], "owner": p["seat"], "where": "board", "city": p["city"]}


@on("AgentOwnerChanged")
def _owner(s: State, p: Mapping[str, Any]) -> None:
    a = {**s.agents[p["agent"]], "owner": p["seat"]}
    if p.get("vampire"):
        a["vampire"] = True
    s.agents[p["agent"]] = a


@on("AgentMoved")
def _moved(s: State, p: Mapping[str, Any]) -> None:
    s.agents[p["agent"]] = {**s.agents[p["agent"]], "where": "board", "city": p["to"]}
    s.migo.pop(p["agent"], None)


@on("AgentFlipped")
def _flipped(s: State, p: Mapping[str, Any]) -> None:
    s.agents[p["agent"]] = {**s.agents[p["agent"]], "vampire": p["vampire"]}


@on("AgentToMiGo")
def _migo(s: State, p: Mapping[str, Any]) -> None:
    s.agents[p["agent"]] = {**s.agents[p["agent"]], "where": "migo", "city": None}
    s.migo[p["agent"]] = p["turn"]


@on("AgentKilled")
def _killed(s: State, p: Mapping[str, Any]) -> None:
    a = s.agents[p["agent"]] = {**s.agents[p["agent"]], "where": "killed", "city": None}
    killer = s.players[p["seat"]]
    killer.kills = _plus(killer.kills, [p["agent"], p["owner"]])
    if a.get("main"):
        s.players[p["owner"]].main_dead = True


@on("AgentLost")
def _lost(s: State, p: Mapping[str, Any]) -> None:
    a = s.agents[p["agent"]]
    if a.get("main"):
        s.players[a["owner"]].main_dead = True
    s.agents[p["agent"]] = {**a, "where": p.get("to", "gone"), "city": None}
    s.migo.pop(p["agent"], None)


@on("Sacrificed")
def _sacrificed(s: State, p: Mapping[str, Any]) -> None:
    s.agents[p["agent"]] = {**s.agents[p["agent"]], "where": "yog", "city": None}
    pl = s.players[p["seat"]]
    pl.yog = _plus(pl.yog, p["agent"])
    pl.yog_vp += p["vp"]


@on("MarkerMoved")
def _marker(s: State, p: Mapping[str, Any]) -> None:
    if p["track"] == "war":
        s.war = p["to"]
        s.war_max = max(s.war_max, p["to"])
    else:
        s.revolution = p["to"]
        s.revolution_max = max(s.revolution_max, p["to"])


@on("SanityDrawn")
def _sanity(s: State, p: Mapping[str, Any]) -> None:
    pl = s.players[p["seat"]]
    if p["result"] == "none":
        pl.sanity_forced = True
        return
    s.sanity_pool.pop(0)
    if p["result"] == "mad":
        pl.mad += 1
    else:
        s.sanity_out.append("sane")


@on("IdentityRevealed")
def _revealed(s: State, p: Mapping[str, Any]) -> None:
    s.players[p["seat"]].revealed = True


@on("IdentitySeen")
def _seen(s: State, p: Mapping[str, Any]) -> None:
    pl = s.players[p["seat"]]
    pl.seen = {**pl.seen, p["target"]: p["side"]}


@on("SideChanged")
def _side(s: State, p: Mapping[str, Any]) -> None:
    pl = s.players[p["seat"]]
    pl.flipped = not pl.flipped


@on("KnownToAuthorities")
def _known(s: State, p: Mapping[str, Any]) -> None:
    s.players[p["seat"]].known = True


@on("RoyalTaken")
def _royal(s: State, p: Mapping[str, Any]) -> None:
    s.royal[p["city"]] = [p["seat"], p["how"]]
    if p["how"] == "hidden":
        s.safe_used += 1


@on("CityLost")
def _city_lost(s: State, p: Mapping[str, Any]) -> None:
    s.owner.pop(p["city"], None)


@on("BlockingPlaced")
def _block(s: State, p: Mapping[str, Any]) -> None:
    s.blocking.append(p["place"])


@on("BlockingRemoved")
def _unblock(s: State, p: Mapping[str, Any]) -> None:
    if p["place"] in s.blocking:
        s.blocking.remove(p["place"])


@on("ZombiePlaced")
def _zombie(s: State, p: Mapping[str, Any]) -> None:
    row = list(s.zombies[p["city"]])
    row[p["seat"]] += 1
    s.zombies[p["city"]] = row


@on("ZombiesRemoved")
def _zombies_gone(s: State, p: Mapping[str, Any]) -> None:
    row = list(s.zombies[p["city"]])
    row[p["seat"]] -= p["count"]
    s.zombies[p["city"]] = row


@on("BismarckPlayed")
def _bismarck(s: State, p: Mapping[str, Any]) -> None:
    s.bismarck[p["city"]] = p["seat"]


@on("CityDestroyed")
def _destroyed(s: State, p: Mapping[str, Any]) -> None:
    s.destroyed.append(p["city"])
    s.bismarck.pop(p["city"], None)


@on("SocietyOfLeopold")
def _leopold(s: State, p: Mapping[str, Any]) -> None:
    s.leopold = True


# --- turn flow ---------------------------------------------------------------------------

@on("StepSet")
def _step(s: State, p: Mapping[str, Any]) -> None:
    s.step = dict(p.get("step") or {})


@on("WindowSet")
def _window(s: State, p: Mapping[str, Any]) -> None:
    s.window = dict(p.get("window") or {})


@on("ActionDone")
def _done(s: State, p: Mapping[str, Any]) -> None:
    if p.get("free"):
        s.free_used = True
    else:
        s.actions_done += 1


@on("MrsHudsonUsed")
def _hudson(s: State, p: Mapping[str, Any]) -> None:
    s.hudson_used = True
    s.free_used = True


@on("GameEnded")
def _ended(s: State, p: Mapping[str, Any]) -> None:
    s.phase = "over"
    s.end_reason = p["reason"]
    s.step = {}
    s.window = {}
    for pl in s.players:
        pl.revealed = True


# --- a game begun from a position (``from_position``): each handler gives the state new containers ------------

@on("PositionSet")
def _position(s: State, p: Mapping[str, Any]) -> None:
    for name in ("phase", "turn", "first", "active", "actions_done", "free_used", "hudson_used", "war", "revolution",
                 "war_max", "revolution_max", "safe_used", "leopold", "removed_hidden"):
        setattr(s, name, p[name])
    s.setup_queue = list(p["setup_queue"])
    s.sanity_out = ["sane"] * p["sanity_out"]
    s.da_revealed, s.pe_display, s.removed = list(p["da_revealed"]), list(p["pe_display"]), list(p["removed"])
    s.owner, s.bismarck, s.migo = dict(p["owner"]), dict(p["bismarck"]), dict(p["migo"])
    s.royal = {c: list(x) for c, x in p["royal"].items()}
    s.cubes = {place: list(row) for place, row in p["cubes"].items()}
    s.zombies = {c: list(row) for c, row in p["zombies"].items()}
    s.blocking, s.destroyed = list(p["blocking"]), list(p["destroyed"])
    s.agents = {k: dict(a) for k, a in p["agents"].items()}
    s.window = dict(p.get("window") or {})
    for pl, q in zip(s.players, p["players"]):
        pl.revealed, pl.known, pl.flipped = q["revealed"], q["known"], q["flipped"]
        pl.available, pl.pool, pl.limbo, pl.mad = q["available"], q["pool"], q["limbo"], q["mad"]
        pl.sanity_forced, pl.main_dead, pl.yog_vp = q["sanity_forced"], q["main_dead"], q["yog_vp"]
        pl.pes, pl.yog, pl.kills = list(q["pes"]), list(q["yog"]), [list(k) for k in q["kills"]]


@on("PositionSecrets")
def _position_secrets(s: State, p: Mapping[str, Any]) -> None:
    for pl, deck in zip(s.players, p["decks"]):
        pl.deck = list(deck)
    s.stacks = {c: list(stack) for c, stack in p["stacks"].items()}
    s.boxed, s.pe_deck = list(p["boxed"]), list(p["pe_deck"])
    s.sanity_pool, s.da_pool, s.removed_secret = list(p["sanity_pool"]), list(p["da_pool"]), list(p["removed_secret"])


@on("PositionHand")
def _position_hand(s: State, p: Mapping[str, Any]) -> None:
    pl = s.players[p["seat"]]
    pl.identity, pl.hidden_necronomicons = p["identity"], p["hidden_necronomicons"]
    pl.hand, pl.discard, pl.double_agents = list(p["hand"]), list(p["discard"]), list(p["double_agents"])
    pl.seen = {int(t): side for t, side in p["seen"].items()}
    if p.get("step"):
        s.step = dict(p["step"])
