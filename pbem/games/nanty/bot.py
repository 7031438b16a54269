"""Nanty Narking's computer player: the sampler of what a seat cannot see, and the evaluation of a position.

Hidden from a seat: the other players' hands, the order of the deck (the first-border pile above the second),
the other players' personalities and those set aside, and the order of the Random Event deck. A sampled world
deals them again among what the log leaves possible: a card another player was seen to play was in their hand,
a card drawn from the top of the first pile is a first-border card, a Random Event drawn is no longer in the
deck. Left out: what a player's moves suggest (a personality whose goal was met at the start of its owner's turn
would have won, so it is not theirs); the search does not reason about it.
"""

from __future__ import annotations

import math
import random
from typing import Any, Mapping

from pbem.bots.hidden import Token, is_token
from pbem.bots.knowledge import Knowledge, SeenEvent
from pbem.bots.skeleton import Skeleton, sample_with
from pbem.games.nanty import engine
from pbem.games.nanty.rules import RULES, variant
from pbem.games.nanty.scoring import measure, personality, points, riots_losers
from pbem.games.nanty.state import State, replace

NAME = "nanty"


class NantySkeleton(Skeleton[State]):
    rules = RULES

    def __init__(self, knowledge: Knowledge) -> None:
        super().__init__(knowledge)
        cat = self.state.cat
        people = [p["id"] for p in cat.personalities[variant(knowledge.config.options)]]
        self.people = self.hidden.pool(people)
        self.drawing: SeenEvent | None = None  # another player's draw, until its public count says how many

    def feed(self, event: SeenEvent) -> None:
        name = event.type.split(".", 1)[1]
        p = event.payload
        s = self.state
        if p is None:
            if name == "CardsDrawn":
                self.drawing = event
                return
            self.apply(event, self._fill(name, event))
            return
        if name == "CardsDrawnCount" and self.drawing is not None:
            drawn = {"seat": p["seat"], "cards": list(s.deck[:p["count"]])}
            self.apply(self.drawing, drawn)
            self.drawing = None
        elif name == "PersonalityDealt":
            token = self.hidden.tokens(self.people, 1, str)[0]
            self.hidden.bind(token, p["personality"])
        elif name in ("CardsDrawn", "CardsRevealed"):
            for place, card in zip(s.deck, p["cards"]):
                if is_token(place):
                    self.bind(place, card)
        elif name in ("CardPlayed", "CardDiscarded"):
            if p["card"] not in s.players[p["seat"]].hand:
                self.bind(self.hidden.pick(s.players[p["seat"]].hand, p["card"]), p["card"])
        elif name == "EventDrawn" and s.event_deck and is_token(s.event_deck[0]):
            self.bind(s.event_deck[0], p["event"])
        elif name == "GameEnded":
            for seat, pid in p["personalities"].items():
                if is_token(s.players[int(seat)].personality):
                    self.bind(s.players[int(seat)].personality, pid)
        self.apply(event)

    def _fill(self, name: str, event: SeenEvent) -> dict[str, Any]:
        cat = self.state.cat
        if name == "DeckShuffled":
            piles = [self.hidden.shuffle(sorted(c.id for c in cat.cards.values() if c.border == b))
                     for b in ("first", "second")]
            if not cat.game["first_border_on_top"]:
                piles.reverse()
            return {"order": piles[0] + piles[1]}
        if name == "EventsShuffled":
            return {"order": self.hidden.shuffle(sorted(cat.events), str)}
        if name == "PersonalityDealt":
            seat = int(event.visibility.seats[0])
            return {"seat": seat, "personality": self.hidden.tokens(self.people, 1, str)[0]}
        if name == "PersonalitiesSetAside":
            return {"personalities": self.hidden.tokens(self.people, len(self.people.items) - self.people.open, str)}
        raise NotImplementedError(f"the Nanty Narking sampler does not know the withheld event {name}")

    def remap(self, state: State, values: Mapping[Token, Any]) -> State:
        players = tuple(replace(pl, hand=_sub(pl.hand, values), personality=values.get(pl.personality,
                                                                                         pl.personality))
                        for pl in state.players)
        return replace(state, players=players, deck=_sub(state.deck, values),
                       event_deck=_sub(state.event_deck, values),
                       set_aside=tuple(sorted(_sub(state.set_aside, values), key=str)))


def _sub(items: tuple[Any, ...], values: Mapping[Token, Any]) -> tuple[Any, ...]:
    return tuple(values.get(x, x) for x in items) if any(is_token(x) for x in items) else items


SKELETON = NantySkeleton


def sample(knowledge: Knowledge, rng: random.Random) -> State:
    """A full state consistent with everything ``knowledge``'s seat knows, its hidden parts drawn at random."""
    return sample_with(NantySkeleton, knowledge, rng)  # type: ignore[no-any-return]


def to_act(state: State) -> int | None:
    """The seat that must decide now (None once the game is over): the search asks at every step, and the rules'
    prompts also word the question."""
    who = engine.acting(state)
    return who[0] if who is not None else None


# --- evaluation -----------------------------------------------------------------------------

def progress(s: State, seat: int) -> float:
    """How near the seat's personality is to winning, from 0 to 1: its best goal's share of its target (squared,
    so the last steps count most), or, for a personality that wins when the deck runs out, how near that is."""
    pers = personality(s, seat)
    n = str(s.n)
    best = 0.0
    for goal in pers["goals"]:
        share = max(0.0, min(1.0, measure(s, seat, goal["measure"]) / goal["target"][n]))
        best = max(best, share * share)
    rule = pers.get("deck_out", "")
    if rule:
        spent = 1.0 - len(s.deck) / max(1, len(s.cat.cards))
        if rule == "holmes":
            holds = s.agents_on_board(seat) > s.trouble_count()
        elif rule == "fagin":
            holds = s.trouble_count() > max((s.agents_on_board(v) for v in range(s.n) if v != seat), default=0)
        else:
            holds = True
        best = max(best, spent * spent * (0.9 if holds else 0.3))
    return best


def evaluate(state: State, seat: int) -> float:
    """The seat's chance of winning, estimated: a finished game gives its result (a shared win counts 1/k); else
    each seat's nearness to its personality's goal and its points race, as shares that add up to 1."""
    return values(state)[seat]


def values(state: State) -> tuple[float, ...]:
    """``evaluate`` for every seat at once."""
    n = state.n
    if state.phase == "over":
        won = state.winners
        return tuple((1.0 / len(won) if i in won else 0.0) for i in range(n))
    losers = riots_losers(state) if state.trouble_count() >= state.cat.game["riots_trouble"] - 2 else set()
    scores = []
    for i in range(n):
        pts = points(state, i)["total"]
        value = 6.0 * progress(state, i) + pts / 40.0 - (1.0 if i in losers else 0.0)
        scores.append(value)
    top = max(scores)
    weights = [math.exp(2.0 * (v - top)) for v in scores]
    total = sum(weights)
    return tuple(w / total for w in weights)
