"""A computer player for Highdie, the kernel's test game: what a game adds to play with the bots (a sampler and an
evaluation), written as a new game would write its ``bot.py``."""

from __future__ import annotations

import random
from typing import Any, Mapping

from kernelgame import DECK, HAND, RULES, State
from pbem.bots import games
from pbem.bots.estimate import shares
from pbem.bots.hidden import Token, is_token
from pbem.bots.knowledge import Knowledge, SeenEvent
from pbem.bots.skeleton import Skeleton, sample_with


class HighdieSkeleton(Skeleton[State]):
    rules = RULES

    def feed(self, event: SeenEvent) -> None:
        s = self.state
        p = event.payload
        if p is None:
            if event.type == "dice.DeckShuffled":
                self.apply(event, {"order": self.hidden.shuffle(DECK)})
            elif event.type == "dice.HandDealt":
                self.apply(event, {"seat": int(event.visibility.seats[0]), "cards": list(s.deck[:HAND])})
            elif event.type == "dice.CardDrawn":
                self.apply(event, {"seat": int(event.visibility.seats[0]), "card": s.deck[0]})
            else:
                raise NotImplementedError(event.type)
            return
        if event.type in ("dice.HandDealt", "dice.CardDrawn"):
            for place, card in zip(s.deck, p.get("cards", [p.get("card")])):
                if is_token(place):
                    self.bind(place, card)
        elif event.type == "dice.CardPlayed" and p["card"] not in s.hands[p["seat"]]:
            self.bind(self.hidden.pick(s.hands[p["seat"]], p["card"]), p["card"])
        self.apply(event)

    def remap(self, state: State, values: Mapping[Token, Any]) -> State:
        from dataclasses import replace
        return replace(state, deck=tuple(values.get(c, c) for c in state.deck),
                       hands=tuple(tuple(values.get(c, c) for c in h) for h in state.hands))


SKELETON = HighdieSkeleton


def sample(knowledge: Knowledge, rng: random.Random) -> State:
    return sample_with(HighdieSkeleton, knowledge, rng)  # type: ignore[no-any-return]


def values(state: State) -> tuple[float, ...]:
    """The score race: each point counts, a card in hand is worth about its face."""
    return shares([s + 0.5 * sum(h) / max(1, len(h)) for s, h in zip(state.scores, state.hands)], 3.0)


def evaluate(state: State, seat: int) -> float:
    return values(state)[seat]


def register() -> None:
    from pbem import games as rules
    import sys
    rules.register(RULES)
    games.register(RULES.name, sys.modules[__name__])  # type: ignore[arg-type]


def unregister() -> None:
    from pbem import games as rules
    rules.unregister(RULES.name)
    games.unregister(RULES.name)
