"""One line of plain English per event, as a given seat may read it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any

from events.envelope import Event
from events.rules import twin_repeats
from pbem.games.nanty.data import Catalog, catalog, load_data


@lru_cache(maxsize=1)
def _cat() -> Catalog:
    # describe() has no state, so names come from the default data: loaded once, not per event
    return catalog(load_data(None))


def _card(card: Any) -> str:
    try:
        return _cat().cards[int(card)].label
    except (KeyError, TypeError, ValueError):
        return f"card {card}"


def _area(area: Any) -> str:
    info = _cat().areas.get(area)
    return info.name if info else str(area)


def _p(seat: Any) -> str:
    return "the bank" if seat == -1 else f"seat {seat}"


def _n(count: Any, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _event(eid: Any) -> str:
    e = _cat().events.get(eid)
    return str(e["name"]) if e else str(eid)


def _people(people: Mapping[str, Any]) -> str:
    def name(pid: Any) -> str:
        for table in _cat().personalities.values():
            for p in table:
                if p["id"] == pid:
                    return str(p["name"])
        return str(pid)
    return ", ".join(f"seat {k} was {name(v)}" for k, v in sorted(people.items()))


WHY = {"assassinated": "is assassinated", "removed": "is removed by a card", "murders": "is murdered",
       "zeppelin": "dies in the Zeppelin crash", "inigo_jones": "is sent away by Inigo Jones",
       "relocated": "is lifted to be placed again", "moved": "is moved by a card"}
ENDS = {"personality": "a personality's goal is met", "deck_out": "a player cannot refill their hand",
        "riots": "Riots"}


SYMBOL_WORDS = {"agent": "place an agent", "building": "place a building", "assassinate": "an assassination",
                "trouble": "remove a trouble marker", "scroll": "its scroll", "event": "a Random Event",
                "again": "play another card", "interrupt": "interrupt"}
MONEY_WHY = {"setup": "starting money", "card": "the card's money", "power": "an area power", "scroll": "a scroll",
             "loan": "a loan", "building": "a building", "subsidence": "Subsidence", "Holborn": "Holborn's protection"}
ASKS = {"interrupt": "{s} may stop it with an interrupt card.",
        "holborn": "{s} may pay to protect their pieces in {a} with Holborn.",
        "murder": "{s} chooses a pawn to remove in {a}.",
        "flood": "{s} moves an agent out of the flooded {a}.",
        "subsidence": "{s} cannot pay for every building and chooses one to lose.",
        "discard": "{s} discards a card (Westminster)."}


def _step(pending: Mapping[str, Any]) -> str:
    ask = pending.get("ask")
    if ask:
        area = ask.get("area") or (ask.get("effect") or {}).get("area", "")
        return ASKS.get(ask["kind"], "{s} must decide.").format(s=_p(ask["seat"]), a=_area(area))
    card = pending.get("card")
    if card is not None:
        c = _cat().cards.get(int(card))
        i = int(pending.get("i", 0))
        if c is not None and i < len(c.symbols):
            name, _, amount = c.symbols[i].partition(":")
            what = f"take £{amount}" if name == "money" else SYMBOL_WORDS.get(name, name)
            return f"Next on {c.name}: {what} (or skip it)."
        return "The card goes on."
    return "The card is done." if pending.get("played") else "The turn goes on."


TWINS = {"CardsDrawn": "CardsDrawnCount"}  # a draw: the cards to the drawer, the count to everyone


def repeats(event: Event, seat: int | None) -> bool:
    """Whether the event's line only repeats, for this reader, the other line of the same draw."""
    return twin_repeats(event, seat, TWINS)


# What each event says, from its payload and the acting seat ("seat N", which the kernel turns into a name):
# one table for every call, not a closure per event type built again for each line.
LINES: dict[str, Callable[[Mapping[str, Any], str], str]] = {
    "DeckShuffled": lambda p, s: "The character deck is shuffled.",
    "EventsShuffled": lambda p, s: "The Random Events are shuffled.",
    "PersonalityDealt": lambda p, s: f"{s} is dealt {_people({str(p['seat']): p['personality']}).split(' was ')[1]}.",
    "PersonalitiesDealt": lambda p, s: f"Each of the {p['count']} players is dealt a personality face down.",
    "PersonalitiesSetAside": lambda p, s: "The other personalities are set aside.",
    "MoneyMoved": lambda p, s: f"{_p(p['from'])} pays {_p(p['to'])} £{p['amount']}"
                                + (f" ({MONEY_WHY.get(p['why'], p['why'])})" if p.get("why") else "") + ".",
    "CardsDrawn": lambda p, s: f"{s} draws {', '.join(_card(c) for c in p['cards'])}.",
    "CardsDrawnCount": lambda p, s: f"{s} draws {_n(p['count'], 'card')}.",
    "CardPlayed": lambda p, s: f"{s} plays {_card(p['card'])}.",
    "CardDiscarded": lambda p, s: f"{s} discards {_card(p['card'])}.",
    "LoanTaken": lambda p, s: f"{s} takes out a loan with {_card(p['card'])}.",
    "CardsRevealed": lambda p, s: f"Fog: {', '.join(_card(c) for c in p['cards'])} are drawn and discarded.",
    "AgentPlaced": lambda p, s: f"{s} places an agent in {_area(p['area'])}.",
    "AgentRemoved": lambda p, s: (f"An agent of {s} in {_area(p['area'])} "
                                  f"{WHY.get(p.get('why', ''), 'leaves the board')}."),
    "AgentMoved": lambda p, s: f"An agent of {s} moves from {_area(p['from'])} to {_area(p['to'])}"
                                + (" (flood)" if p.get("why") == "flood" else "") + ".",
    "BuildingPlaced": lambda p, s: f"{s} builds in {_area(p['area'])} and takes its City Area card.",
    "BuildingRemoved": lambda p, s: f"The building of {s} in {_area(p['area'])} is removed"
                                     + (f" ({p['why'].replace('_', ' ')})" if p.get("why") else "") + ".",
    "PawnPlaced": lambda p, s: (f"A {'Grenadier' if p['pawn'] == 'grenadier' else 'New Citizen'} arrives in "
                                f"{_area(p['area'])}."),
    "PawnRemoved": lambda p, s: (f"A {'Grenadier' if p['pawn'] == 'grenadier' else 'New Citizen'} leaves "
                                 f"{_area(p['area'])}."),
    "TroublePlaced": lambda p, s: f"Trouble breaks out in {_area(p['area'])}.",
    "TroubleRemoved": lambda p, s: f"The trouble in {_area(p['area'])} is over.",
    "PowerUsed": lambda p, s: f"{s} uses the power of {_area(p['area'])}.",
    "PowerDisabled": lambda p, s: (f"Inigo Jones: the power of {_area(p['area'])} is lost for the rest of "
                                   "the game."),
    "EventDrawn": lambda p, s: f"Random Event: {_event(p['event'])}!",
    "DieRolled": lambda p, s: f"The die shows {p['face']}: {_area(p['area'])}.",
    "InterruptAnswered": lambda p, s: f"{s} " + (f"stops it with {_card(p['card'])}." if p["used"]
                                                 else "lets it happen."),
    "StepSet": lambda p, s: _step(p.get("pending") or {}),
    "TurnStarted": lambda p, s: f"Turn {p['turn']}: {s} to play.",
    "DecksSet": lambda p, s: (f"The deck holds {_n(len(p['deck']), 'card')}; Random Events to come: "
                              f"{len(p['random_events'])}; personalities set aside: {len(p['set_aside'])}."),
    "HandSet": lambda p, s: f"{s} holds {', '.join(_card(c) for c in p['cards']) or 'no card'}.",
    "PositionSet": lambda p, s: (f"The game begins from a position, at turn {p['turn']}: {_p(p['active'])} to play; "
                                 + "; ".join(f"{_p(i)} holds {_n(q['hand_size'], 'card')} and £{q['money']}"
                                             for i, q in enumerate(p["players"])) + "."),
    "GameEnded": lambda p, s: f"The game is over ({ENDS.get(p['reason'], p['reason'])}). Winners: "
                               + (", ".join(_p(w) for w in p["winners"]) or "nobody") + ". "
                               + _people(p["personalities"]) + ".",
}


def describe(event: Event, seat: int | None) -> str:
    """The kernel replaces "seat N" by display names where it can; card names come from the default data."""
    name = event.type.split(".", 1)[-1]
    p: Mapping[str, Any] = event.payload if isinstance(event.payload, Mapping) else {}
    if not event.visibility.allows(seat):
        # what a reader who may not see it reads: that it is private, beside the public line of the same happening
        # ("Ann draws 5 cards."), never a second happening ("Ann draws cards.")
        hidden = {"CardsDrawn": "The cards {s} draws are seen by {s} only.",
                  "PersonalityDealt": "The personality dealt to {s} is seen by {s} only.",
                  "HandSet": "The cards {s} holds are seen by {s} only."}
        if name in hidden:
            return hidden[name].format(s=_p(p.get("seat")))
        return {"DeckShuffled": "The character deck is shuffled.", "EventsShuffled": "The Random Events are shuffled.",
                "DecksSet": "The decks and the personalities set aside are laid out as the position gives them, "
                            "unseen.",
                "PersonalitiesSetAside": "The other personalities are set aside unseen."}.get(name, "Something hidden happens.")
    fn = LINES.get(name)
    line = fn(p, _p(p.get("seat"))) if fn else name
    return "The" + line[3:] if line.startswith("the ") else line
