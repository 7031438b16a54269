"""One line of plain English per event, as a given seat may read it (the kernel puts names for "seat N")."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from events.envelope import Event, actor_seat
from events.rules import twin_repeats
from pbem.games.emerald1.data import Catalog, catalog, load_data


@lru_cache(maxsize=1)
def _cat() -> Catalog:
    # describe() has no state: names come from the default data, loaded once
    return catalog(load_data(None))


def _card(card: Any) -> str:
    try:
        return _cat().cards[int(card)].label
    except (KeyError, TypeError, ValueError):
        return f"card {card}"


def _cards(cards: Any) -> str:
    return ", ".join(_card(c) for c in cards)


def _n(count: Any, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _city(city: Any) -> str:
    info = _cat().city.get(str(city))
    return str(info["name"]) if info else str(city)


def city_box(name: str) -> str:
    """A City box in words: ``the Berlin City box``, ``The Hague City box`` (never "the The Hague")."""
    return f"{name} City box" if name.lower().startswith("the ") else f"the {name} City box"


def _place(place: Any) -> str:
    p = str(place)
    if p.startswith("city:"):
        return city_box(_city(p[5:]))
    if p.startswith("card:"):
        return _card(p[5:])
    return {"available": "their Available stock", "pool": "the Pool", "limbo": "Limbo"}.get(p, p)


def _p(seat: Any) -> str:
    return f"seat {seat}"


def _agent(key: Any) -> str:
    k = str(key)
    return f"{_p(k[1:])}'s Main Agent" if k.startswith("m") else _cat().cards[int(k)].name


SIDE = {"loyalist": "Loyalist", "restorationist": "Restorationist"}
ENDS = {"war_track": "the War marker reached the top of its track",
        "revolution_track": "the Revolution marker reached the top of its track",
        "victory_points": "a player reached the Victory Point target",
        "restorationist_main_agent_killed": "a Restorationist's Main Agent was killed",
        "restorationist_mad": "a Restorationist went mad",
        "zombies": "the Zombies card was played with all eight zombies on the board"}
HIDDEN = {"CardsDrawn": "draws cards", "IdentityDealt": "is dealt a Secret Identity card",
          "IdentitySeen": "sees a side", "DoubleAgentsTaken": "takes Double-agent counters",
          "DoubleAgentsReturned": "shuffles counters back", "DoubleAgentStolen": "takes a counter",
          "CardsDiscarded": "discards cards", "CardRemovedFace": "removes a card face down",
          "PositionHand": "takes up their cards and counters of the position"}
# What a reader who may not see a server-only event reads of it: what was shuffled or dealt, and whose, not how.
SECRET: dict[str, Callable[[str], str]] = {
    "StacksDealt": lambda s: "The Game cards are dealt face down, a stack to each city.",
    "CardsBoxed": lambda s: "The other Game cards are put aside unseen.",
    "PEDeckShuffled": lambda s: "The Permanent Effect cards are shuffled face down.",
    "DoubleAgentsShuffled": lambda s: "The Double-agent counters are shuffled face down.",
    "SanityShuffled": lambda s: "The Sanity counters are shuffled face down.",
    "DeckShuffled": lambda s: f"{s}'s deck is shuffled face down.",
    "PositionSecrets": lambda s: "The decks, stacks and counters of the position lie face down.",
}


LINES: dict[str, Callable[[Mapping[str, Any], str], str]] = {
    "IdentityDealt": lambda p, s: f"{s} is a {SIDE.get(p['identity'], p['identity'])}.",
    "IdentitiesDealt": lambda p, s: f"{p['count']} Secret Identity cards are dealt.",
    "StacksDealt": lambda p, s: "The Game cards are dealt to the cities.",
    "CardsBoxed": lambda p, s: f"{len(p['cards'])} Game cards are put aside unseen.",
    "TopTurned": lambda p, s: f"{_card(p['card'])} is turned face up in {_city(p['city'])}.",
    "PEDeckShuffled": lambda p, s: "The Permanent Effect cards are shuffled.",
    "PEDisplayed": lambda p, s: f"{_card(p['card'])} goes on display.",
    "DoubleAgentsShuffled": lambda p, s: "The Double-agent counters are shuffled.",
    "DoubleAgentsTaken": lambda p, s: f"{s} takes Double-agent counters: {', '.join(_agent(a) for a in p['agents'])}.",
    "DoubleAgentsCount": lambda p, s: f"{s} draws {_n(p.get('count', 0), 'Double-agent counter')}.",
    "DoubleAgentsReturned": lambda p, s: f"{s} shuffles back {', '.join(_agent(a) for a in p['agents'])}.",
    "DoubleAgentsReturnedCount": lambda p, s: f"{s} shuffles back {_n(p.get('count', 0), 'counter')}.",
    "DoubleAgentStolen": lambda p, s: f"{s} takes {_agent(p['agent'])} from {_p(p['from_seat'])} (Irene Adler).",
    "DoubleAgentStolenCount": lambda p, s: f"{s} takes a Double-agent counter from {_p(p['from_seat'])} (Irene Adler).",
    "DoubleAgentRevealed": lambda p, s: f"{s} reveals a Double-agent counter: {_agent(p['agent'])}.",
    "SanityShuffled": lambda p, s: "The Sanity counters are shuffled face down.",
    "DeckShuffled": lambda p, s: f"{s}'s deck is shuffled.",
    "DiscardReshuffled": lambda p, s: f"{s} shuffles their discard pile ({_n(p.get('count', 0), 'card')}) into a "
                                 "new deck.",
    "CardsDrawn": lambda p, s: f"{s} draws {_cards(p['cards'])}.",
    "CardsDrawnCount": lambda p, s: f"{s} draws {_n(p.get('count', 0), 'card')}.",
    "CardsDrawnBack": lambda p, s: f"{s} takes {_card(p['card'])} back into their hand from Mi-go.",
    "FirstPlayerChosen": lambda p, s: f"{s} goes first.",
    "MainAgentPlaced": lambda p, s: f"{s} places their Main Agent in {_city(p['city'])}.",
    "TurnStarted": lambda p, s: f"Turn {p['turn']}: {s} to play.",
    "CardsPlayed": lambda p, s: f"{s} plays {_cards(p['cards'])}" + (f" for {p['use']}" if p.get("use") else "")
                           + {"removed": " (out of the game)", "mi_go": " (onto Mi-go)"}.get(p["to"], "") + ".",
    "CardShown": lambda p, s: f"{s} shows {_card(p['card'])}" + (f" to {p['use']}" if p.get("use") else "")
                          + " and keeps it.",
    "CardsDiscarded": lambda p, s: f"{s} discards {_cards(p['cards'])}.",
    "CardsDiscardedCount": lambda p, s: f"{s} discards {_n(p.get('count', 0), 'card')}, showing {_card(p['shown'])}.",
    "CardRemovedFace": lambda p, s: f"{s} removes {_card(p['card'])} from the game face down.",
    "CardRemovedHidden": lambda p, s: f"{s} removes a card from their hand face down.",
    "CardTransferred": lambda p, s: f"{_p(p['from_seat'])} hands {_card(p['card'])} to {s}.",
    "CardGone": lambda p, s: f"{_card(p['card'])} leaves the game" + (f" ({p['why']})" if p.get("why") else "") + ".",
    "CubesMoved": lambda p, s: f"{s} moves {_n(p['count'], 'cube')} from {_place(p['from'])} to {_place(p['to'])}.",
    "CubesCleared": lambda p, s: f"The cubes on {_place(p['place'])} leave it"
                            + (f": {_p(p['claimer'])}'s to Limbo, the others' home." if "claimer" in p
                               else f" for {_place(p.get('all_to', ''))}."),
    "CardClaimed": lambda p, s: f"{s} claims {_card(p['card'])}" + (f" from {_p(p['from_seat'])}" if "from_seat" in p
                                                                 else "") + ".",
    "AgentControlled": lambda p, s: f"{_agent(p['agent'])} joins {s} in {_city(p['city'])}.",
    "AgentOwnerChanged": lambda p, s: f"{_agent(p['agent'])} now works for {s}"
                                 + (" as a vampire" if p.get("vampire") else "") + ".",
    "AgentMoved": lambda p, s: f"{s} moves {_agent(p['agent'])} from {_city(p['from'])} to {_city(p['to'])}"
                          + (f" ({p['cost']} gold)" if p.get("cost") else "") + ".",
    "AgentFlipped": lambda p, s: f"{_agent(p['agent'])} turns to its {'vampire' if p['vampire'] else 'human'} side.",
    "AgentToMiGo": lambda p, s: f"{s} sends {_agent(p['agent'])}'s brain to Pluto (Mi-go).",
    "AgentKilled": lambda p, s: f"{s} kills {_agent(p['agent'])} of {_p(p['owner'])}"
                           + (f" in {_city(p['city'])}" if p.get("city") else "") + f" ({p.get('how', '')}).",
    "AgentLost": lambda p, s: f"{_agent(p['agent'])} leaves the board ({p.get('why', '')}).",
    "MainAgentSurvives": lambda p, s: f"{s}'s Main Agent, a Loyalist's, stays on the board.",
    "Sacrificed": lambda p, s: f"{s} sacrifices {_agent(p['agent'])} to Yog-Sothoth.",
    "AttackFoiled": lambda p, s: f"{s}'s attack fails ({p.get('how', '')}).",
    "MarkerMoved": lambda p, s: f"The {p['track'].capitalize()} marker moves from {p.get('from', '?')} to {p['to']}.",
    "SanityDrawn": lambda p, s: f"{s} draws a Sanity counter: "
                           + {"sane": "Sane", "mad": "Mad!", "none": "none are left (as if mad)"}[p["result"]] + ".",
    "IdentityRevealed": lambda p, s: f"{s} reveals their identity: {SIDE.get(p['side'], p['side'])}.",
    "IdentityLooked": lambda p, s: f"{s} looks at {_p(p['target'])}'s side (Vladimir Burtsev).",
    "IdentitySeen": lambda p, s: f"{s} sees that {_p(p['target'])} is a {SIDE.get(p['side'], p['side'])}.",
    "SideChanged": lambda p, s: f"{s} has a Change of Heart.",
    "KnownToAuthorities": lambda p, s: f"{s} is now known to the authorities.",
    "RoyalTaken": lambda p, s: f"{s} {'assassinates' if p['how'] == 'assassinated' else 'hides'} "
                          f"{_cat().city[p['city']]['royal']['name']} of {_city(p['city'])}.",
    "CityLost": lambda p, s: f"{s} loses control of {_city(p['city'])}.",
    "BlockingPlaced": lambda p, s: f"A Blocking disc goes on {_place(p['place'])}.",
    "BlockingRemoved": lambda p, s: f"The Blocking disc on {_place(p['place'])} returns to the Pool.",
    "ZombiePlaced": lambda p, s: f"{s} places a zombie in {_city(p['city'])}.",
    "ZombiesRemoved": lambda p, s: f"{_n(p['count'], 'zombie')} of {s} leave {_city(p['city'])}.",
    "BismarckPlayed": lambda p, s: f"{s} locks {_city(p['city'])} with Bismarck.",
    "CityDestroyed": lambda p, s: f"Cthulhu destroys {_city(p['city'])}.",
    "SocietyOfLeopold": lambda p, s: "The Society of Leopold: vampires and zombies leave the board.",
    "StepSet": lambda p, s: f"{s} goes on with the action." if p.get("step") else "That part of the action is done.",
    "WindowSet": lambda p, s: "Players are asked whether to respond." if p.get("window") else "Nobody else responds.",
    "ActionDone": lambda p, s: f"{s} finishes a{' free' if p.get('free') else 'n'} action.",
    "MrsHudsonUsed": lambda p, s: f"{s} uses Mrs Hudson.",
    "PositionSet": lambda p, s: "The game begins from a position"
                           + (f": turn {p['turn']}, seat {p['active']} to play." if p.get("phase") == "play"
                              else ", in the middle of the setup."),
    "PositionSecrets": lambda p, s: "The decks, stacks and counters of the position lie face down.",
    "PositionHand": lambda p, s: f"{s} takes up their cards and counters of the position.",
    "GameEnded": lambda p, s: f"The game is over: {ENDS.get(p['reason'], p['reason'])}. "
                         + ", ".join(f"seat {k} is {SIDE.get(v, v)}" for k, v in sorted(p["sides"].items())) + ".",
}


# What is recorded twice, for its owner with the cards or counters and for everyone with their number: each private
# event's public twin (Irene Adler's theft is private to the thief and the player robbed, ``from_seat``).
TWINS = {"CardsDrawn": "CardsDrawnCount", "DoubleAgentsTaken": "DoubleAgentsCount",
         "DoubleAgentsReturned": "DoubleAgentsReturnedCount", "DoubleAgentStolen": "DoubleAgentStolenCount"}


def repeats(event: Event, seat: int | None) -> bool:
    """Whether the event's line only repeats, for this reader, its twin's line: each reader reads a draw (or a
    taking of counters) once, with what they may see of it."""
    return twin_repeats(event, seat, TWINS)


def describe(event: Event, seat: int | None) -> str:
    name = event.type.split(".", 1)[-1]
    p: Mapping[str, Any] = event.payload if isinstance(event.payload, Mapping) else {}
    # who: the payload's seat, else the seat whose command it is (a step of their action names no seat)
    who = p.get("seat") if p.get("seat") is not None else actor_seat(event.actor)
    s = _p(who) if who is not None else "The player"
    if not event.visibility.allows(seat):
        if name in HIDDEN and "seat" in p:
            return f"{s} {HIDDEN[name]}."
        if name in SECRET:
            return SECRET[name](s)
        return "Something is shuffled or dealt face down."
    fn = LINES.get(name)
    return fn(p, s) if fn else name
