"""The log as one seat reads it, folded by the game's own rules with placeholders where a payload is withheld.

A game's sampler (its ``bot.py``) subclasses ``Skeleton``: ``feed`` says what each withheld event put where (as
placeholders, ``pbem.bots.hidden``) and which placeholders a shown event binds; ``remap`` puts values in the
placeholders' places in a state. The fold itself is the rules' ``evolve``, so a sampled world is a state the
rules made, not one put together beside them. A world is then one draw of the placeholders: folding once per
decision, drawing as often as the search likes.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Generic, Mapping, TypeVar

from events.envelope import Event, Visibility
from events.rules import Rules
from pbem.bots.hidden import Hidden, Token
from pbem.bots.knowledge import Knowledge, SeenEvent

S = TypeVar("S")

_PUBLIC = Visibility("public")


def as_event(seq: int, type_: str, payload: Mapping[str, Any], actor: str = "system") -> Event:
    """An event to give ``evolve`` (which reads its type and payload only)."""
    return Event("", seq, type_, 1, payload, actor, _PUBLIC, False, "", {}, "", "")


class Skeleton(Generic[S]):
    """One seat's fold of the log so far, with its placeholders; fed event by event, decision after decision."""

    rules: Rules[Any]

    def __init__(self, knowledge: Knowledge) -> None:
        self.seat = knowledge.seat
        self.config = knowledge.config
        self.state: S = self.rules.initial_state(knowledge.config)
        self.hidden = Hidden()
        self.events: tuple[SeenEvent, ...] = ()

    def follows(self, knowledge: Knowledge) -> bool:
        """Whether ``knowledge``'s log goes on from what was fed (the same seat and game, a longer log)."""
        n = len(self.events)
        return (knowledge.seat == self.seat and len(knowledge.events) >= n
                and (knowledge.config is self.config or knowledge.config == self.config)
                and knowledge.events[:n] == self.events)

    def extend(self, events: tuple[SeenEvent, ...]) -> None:
        for event in events[len(self.events):]:
            self.feed(event)
        self.events = events

    def feed(self, event: SeenEvent) -> None:
        """Fold one event: fill in a withheld payload with placeholders, bind those a shown one reveals."""
        raise NotImplementedError

    def apply(self, event: SeenEvent, payload: Mapping[str, Any] | None = None) -> None:
        self.state = self.rules.evolve(self.state, as_event(event.seq, event.type,
                                                             event.payload if payload is None else payload,
                                                             event.actor))

    def remap(self, state: S, values: Mapping[Token, Any]) -> S:
        """``state`` with every placeholder in ``values`` replaced by its value."""
        raise NotImplementedError

    def bind(self, token: Token, value: Any) -> None:
        """Bind one placeholder and put its value in its place in the state at once."""
        self.hidden.bind(token, value)
        self.state = self.remap(self.state, {token: value})

    def world(self, rng: random.Random) -> S:
        """One world consistent with everything the seat saw, drawn at random."""
        return self.remap(self.state, self.hidden.draw(rng))


class Worlds:
    """Sampled worlds for one seat of one game, decision after decision: the fold is carried from one decision
    to the next when the new log goes on from the old one, and made afresh otherwise."""

    def __init__(self, make: Callable[[Knowledge], Skeleton[Any]]) -> None:
        self.make = make
        self.kept: Skeleton[Any] | None = None

    def skeleton(self, knowledge: Knowledge) -> Skeleton[Any]:
        found: Skeleton[Any] | None = knowledge.memo.get("skeleton")
        if found is not None and found.events is knowledge.events:  # not carried on to a later decision since
            return found
        kept = self.kept
        if kept is None or not kept.follows(knowledge):
            kept = self.make(knowledge)
        self.kept = None  # in case the fold fails half-way: never carry a half-fed skeleton
        kept.extend(knowledge.events)
        self.kept = kept
        knowledge.memo["skeleton"] = kept
        return kept


def sample_with(make: Callable[[Knowledge], Skeleton[Any]], knowledge: Knowledge, rng: random.Random) -> Any:
    """A world for ``knowledge`` (the fold is kept on it, so later samples of the same decision only draw)."""
    return Worlds(make).skeleton(knowledge).world(rng)
