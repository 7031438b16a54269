"""A Study in Emerald (1st edition)'s secrets as words a reader could find: the labels of hidden cards."""

from __future__ import annotations

from typing import Any, Sequence

from events.envelope import Event
from events.replay import GameState
from tests.leaks.emerald import Secrets, _card_ids


class Probe:
    """Labels of the cards hidden from a reader now that no event they could read ever named.

    Hidden: the stacks below their top cards, the cards put aside, the Permanent Effect deck, every
    draw deck, other players' hands and the cards removed face down. A card named once in the open
    may later sit hidden; the reader may know it is somewhere there, so only cards never named count.
    """

    def __init__(self, reader: int | None) -> None:
        self.reader = reader
        self.named: set[int] = set()

    def __call__(self, state: GameState[Any], new_events: Sequence[Event]) -> Secrets:
        for event in new_events:
            if event.visibility.allows(self.reader):
                _card_ids(dict(event.payload), self.named)
        s = state.game
        if state.ended:
            return Secrets({})
        hidden: set[int] = set(s.boxed) | set(s.pe_deck) | set(s.removed_secret)
        for stack in s.stacks.values():
            hidden.update(stack[1:])
        for seat, p in enumerate(s.players):
            hidden.update(p.deck)
            if seat != self.reader:
                hidden.update(p.hand)
        labels = {c: s.cat.cards[c].label for c in hidden - self.named}
        # Initial cards share one name and tell nothing apart: only named cards with a number are words.
        return Secrets({c: lab for c, lab in labels.items() if s.cat.cards[c].kind != "initial"})
