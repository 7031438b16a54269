"""A Study in Emerald's secrets as words a reader could find: the labels of cards they may not know."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from events.envelope import Event
from events.replay import GameState
from tests.leaks.words import card_ids, labels_in

CARD_KEYS = ("card", "cards", "order", "stacks", "top")


def _card_ids(value: Any, found: set[int]) -> None:
    """Every card id in a payload or a view: ints under a card key (and in the lists of a ``stacks`` map), and card
    faces ``{id, number, name}``."""
    card_ids(value, found, CARD_KEYS, nested="stacks")


class Probe:
    """Labels of the cards hidden from a reader now that no event they could read ever named.

    A card named once in the open (claimed from a city, played) may later sit hidden in a hand or
    deck; the reader may know it is somewhere there, so only cards never named to them count.
    Identities are not words to look for (every page names both sides' tracks): the views' own
    allow-list test (``tests/emerald/checks.no_leaks``) and the salted commitments keep them.
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
        hidden: set[int] = set(s.boxed)
        for c in s.cities:
            hidden.update(c.stack[1:])
        for seat, p in enumerate(s.players):
            hidden.update(p.deck)
            if seat != self.reader:
                hidden.update(p.hand)
        return Secrets({c: s.cat.cards[c].label for c in hidden - self.named})


@dataclass(frozen=True)
class Secrets:
    """The cards a reader may not know now, by id and by label."""

    labels: Mapping[int, str]

    def find(self, text: str, data: Any = None) -> list[str]:
        """The secrets named in a text, and (for a JSON channel) the secret card ids in its data."""
        found = labels_in(text, self.labels.values())
        if data is not None:
            ids: set[int] = set()
            _card_ids(data, ids)
            found += [f"card id {c} ({self.labels[c]})" for c in sorted(ids & self.labels.keys())]
        return found
