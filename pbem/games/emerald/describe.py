"""One line of plain English per event, as a given seat may read it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from events.envelope import Event
from events.rules import twin_repeats
from functools import lru_cache

from pbem.games.emerald.data import catalog, load_data


@lru_cache(maxsize=1)
def _cat() -> Any:
    # describe() has no state, so names come from the default data: loaded once, not per event
    return catalog(load_data(None))


Line = Callable[[Mapping[str, Any], str], str]


def _card(card: Any) -> str:
    try:
        c = _cat().cards[int(card)]
        return f"{c.name} ({c.id})"
    except (KeyError, TypeError, ValueError):
        return f"card {card}"


def _n(count: Any, noun: str) -> str:
    """``1 cube``, ``2 cubes``: counted as people write it."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _city(city: Any) -> str:
    names = _cat().city_names
    return str(names.get(city, city))


def _where(place: Any) -> str:
    if place in ("stock", "limbo"):
        return "their stock" if place == "stock" else "Limbo"
    return _city(place)


def _p(seat: Any) -> str:
    return f"seat {seat}"


STEPS = {  # what an action goes on with, as the log says it: "Ann goes on: ..."
    "move": "moving agents", "retrieve": "taking cubes back", "assassinate_more": "may assassinate again",
    "yog": "taking agents with Yog-Sothoth", "zombie_place": "placing zombies", "zombie_remove": "removing zombies",
    "end_of_turn": "both actions done, free actions may follow",
}


def _step(who: str, step: Any) -> str:
    """A step of an action in words: the next part of it, or its end."""
    if not step:
        return f"{who} is done with that action."
    name = step.get("step") if isinstance(step, Mapping) else step
    return f"{who} goes on: {STEPS.get(str(name), 'the action continues')}."


# What each event says, from its payload and the acting seat ("seat N", which the kernel turns into a name):
# one table for every call (it was built again, forty closures, for each line described).
LINES: dict[str, Line] = {
    "StacksDealt": lambda p, s: "The Game Card spaces were dealt.",
    "CardsBoxed": lambda p, s: f"{len(p['cards'])} game cards stay in the box.",
    "CardRevealed": lambda p, s: f"{_card(p['card'])} is turned face up in {_city(p['city'])}.",
    "RoyaltySlid": lambda p, s: f"{_card(p['card'])} slides to the Royalty slot of {_city(p['city'])}.",
    "DeckShuffled": lambda p, s: f"{s}'s deck is shuffled.",
    "DiscardReshuffled": lambda p, s: f"{s} shuffles {p['count']} discarded cards into a new deck.",
    "CardsDrawn": lambda p, s: f"{s} draws {', '.join(_card(c) for c in p['cards'])}.",
    "CardsDrawnCount": lambda p, s: f"{s} draws {_n(p['count'], 'card')}.",
    "IdentityDealt": lambda p, s: f"{s} is a {p['identity'].capitalize()}.",
    "IdentitiesDealt": lambda p, s: f"{p['count']} Secret Identity cards are dealt.",
    "FirstPlayerChosen": lambda p, s: f"{s} goes first.",
    "AgentPlaced": lambda p, s: f"{s} places {_n(p.get('count', 1), 'agent')} in {_city(p['city'])}.",
    "AgentRemoved": lambda p, s: f"{s} loses {_n(p.get('count', 1), 'agent')} from {_city(p['city'])}"
                                 + {"trophy": " (onto the assassin's card)", "migo": " (onto Mi-Go)",
                                    "yog": " (onto Yog-Sothoth)"}.get(p["to"], "") + ".",
    "AgentMoved": lambda p, s: f"{s} moves an agent from {_city(p['from'])} to {_city(p['to'])}.",
    "CubesMoved": lambda p, s: f"{s} moves {_n(p['count'], 'cube')} from {_where(p['from'])} to {_where(p['to'])}.",
    "CubesCleared": lambda p, s: f"The cubes in {_city(p['city'])} leave: {s}'s to Limbo, the others' to their stock.",
    "CardsPlayed": lambda p, s: f"{s} plays {', '.join(_card(c) for c in p['cards'])}"
                                + {"removed": " (out of the game)",
                                   "kept": " (beside their identity card)"}.get(p["to"], "") + ".",
    "CardClaimed": lambda p, s: f"{s} claims {_card(p['card'])} from {_city(p['city'])}.",
    "CardRemoved": lambda p, s: f"{_card(p['card'])} is removed from the game.",
    "CardsRemovedUnseen": lambda p, s: (f"{', '.join(_card(c) for c in p['cards'])} leave the game unseen from "
                                        f"{_city(p['city'])}."),
    "CardsRemovedUnseenCount": lambda p, s: (f"{_n(p['count'], 'face-down card')} of {_city(p['city'])} "
                                             f"leave{'s' if p['count'] == 1 else ''} the game unseen."),
    "VPScored": lambda p, s: f"{s} {'scores' if p['amount'] >= 0 else 'loses'} {abs(p['amount'])} {p['type']} VP"
                             + (f" ({p['reason']})" if p.get("reason") else "") + ".",
    "KillScored": lambda p, s: f"{s} scores {p['amount']} VP for assassinating an agent of {_p(p['victim'])}.",
    "MarkerMoved": lambda p, s: (f"The {'Restorationist' if p['track'] == 'resto' else 'Loyalist'} marker moves "
                                 f"to {p['to']}."),
    "SanityRolled": lambda p, s: f"{s} rolls the Sanity die: {'insanity!' if p['face'] == 'insane' else 'blank'}.",
    "SanityChanged": lambda p, s: f"{s} now has {_n(p['to'], 'sanity token')}.",
    "RoyaltyTaken": lambda p, s: f"{s} {'assassinates' if p['how'] == 'assassinated' else 'hides'} {_card(p['card'])}.",
    "IdentityRevealed": lambda p, s: f"{s} reveals: {p['side'].capitalize()}.",
    "IdentityLooked": lambda p, s: f"{s} looks at {_p(p['target'])}'s Secret Identity card.",
    "IdentitySeen": lambda p, s: f"{s} sees that {_p(p['target'])} holds a {p['identity'].capitalize()} card.",
    "SideChanged": lambda p, s: f"{s} has a Change of Heart.",
    "BlackHandPlayed": lambda p, s: f"{s} plays The Black Hand.",
    "ZombiesPlaced": lambda p, s: f"{s} places {_n(p['count'], 'zombie')} in {_city(p['city'])}.",
    "ZombiesRemoved": lambda p, s: (f"{_n(p['count'], 'zombie')} leave{'s' if p['count'] == 1 else ''} "
                                    f"{_city(p['city'])}."),
    "ZombieCardsVoided": lambda p, s: "The Zombie and Vampire cards are out of the game.",
    "StepSet": lambda p, s: _step(s, p.get("step")),
    "ActionCompleted": lambda p, s: f"{s} completes action {p.get('number', '')}.",
    "InterruptOffered": lambda p, s: f"{s} may respond.",
    "InterruptAnswered": lambda p, s: f"{s} {'plays ' + _card(p['card']) if p['used'] else 'lets it happen'}.",
    "InterruptClosed": lambda p, s: "The interrupt window closes.",
    "AgentsOwed": lambda p, s: f"{s} must place {_n(p['count'], 'agent')}.",
    "TurnStarted": lambda p, s: f"Turn {p['turn']}: {s} to play.",
    "PositionSet": lambda p, s: (f"The game starts from a position: turn {p['turn']}, {_p(p['active'])} to play."
                                 if p["phase"] == "play" else
                                 "The game starts from a position: agents are still to be placed for setup."),
    "GameEnded": lambda p, s: "The game is over: " + ", ".join(f"{_p(k)} ends a {str(v).capitalize()}"
                                                              for k, v in sorted(p["sides"].items())) + ".",
}


# a draw: the cards to the drawer, the count to everyone; cards leaving unseen: the cards to nobody, the count
TWINS = {"CardsDrawn": "CardsDrawnCount", "CardsRemovedUnseen": "CardsRemovedUnseenCount"}


def repeats(event: Event, seat: int | None) -> bool:
    """Whether the event's line only repeats, for this reader, another line of the same command: the other line of
    a draw, or "done with that action" (a step's end is only recorded where the command goes on to complete the
    action, end the turn or assassinate, and that line says it)."""
    if event.type == "emerald.StepSet" and not event.payload.get("step"):
        return True
    return twin_repeats(event, seat, TWINS)


def describe(event: Event, seat: int | None) -> str:
    """The kernel replaces "seat N" by display names where it can; card names come from the default data."""
    name = event.type.split(".", 1)[-1]
    if not event.visibility.allows(seat):
        hidden = {"CardsDrawn": "drew cards", "IdentityDealt": "was dealt a Secret Identity card",
                  "IdentitySeen": "looked at an identity card", "DeckShuffled": "a deck was shuffled",
                  "StacksDealt": "the Game Card spaces were dealt", "CardsBoxed": "unused cards were boxed",
                  "CardsRemovedUnseen": "cards left the game unseen"}
        who = event.payload.get("seat") if isinstance(event.payload, Mapping) else None
        text = hidden.get(name, "something hidden happened")
        return f"{_p(who)} {text}." if who is not None and name in ("CardsDrawn", "IdentityDealt", "IdentitySeen") \
            else text[0].upper() + text[1:] + "."
    p: Mapping[str, Any] = event.payload
    fn = LINES.get(name)
    return str(fn(p, _p(p.get("seat")))) if fn else name
