"""Nanty Narking's secrets as words a reader could find: cards they may not know, and personalities.

Cards: the labels of cards in the deck and in other players' hands that no event the reader could read
ever named (a card once played in the open may later be known to sit somewhere). Personalities: their
names are public (the game's data, recorded when it is created, lists every one), so they are looked for
in the JSON channels as what they would be there: a ``personality`` field naming one the reader may not
know (another player's, or one set aside).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from events.envelope import Event
from events.replay import GameState
from tests.leaks.words import card_ids, labels_in

CARD_KEYS = ("card", "cards", "order")


def _card_ids(value: Any, found: set[int]) -> None:
    """Every card id in a payload or a view: ints under a card key, and card faces ``{id, number, name}``."""
    card_ids(value, found, CARD_KEYS)


def _personalities(value: Any, found: set[str]) -> None:
    """Every personality a JSON value names in a ``personality`` field (an id, or a card ``{id, name}``)."""
    if isinstance(value, dict):
        for k, v in value.items():
            if k in ("personality", "personalities"):
                if isinstance(v, str):
                    found.add(v)
                elif isinstance(v, dict) and isinstance(v.get("id"), str):
                    found.add(v["id"])
                elif isinstance(v, dict):
                    found.update(x for x in v.values() if isinstance(x, str))
                elif isinstance(v, list):
                    found.update(x for x in v if isinstance(x, str))
            _personalities(v, found)
    elif isinstance(value, list):
        for v in value:
            _personalities(v, found)


class Probe:
    def __init__(self, reader: int | None) -> None:
        self.reader = reader
        self.named: set[int] = set()

    def __call__(self, state: GameState[Any], new_events: Sequence[Event]) -> Secrets:
        for event in new_events:
            if event.visibility.allows(self.reader):
                _card_ids(dict(event.payload), self.named)
        s = state.game
        if state.ended or s.phase == "over":
            return Secrets({}, ())
        hidden: set[int] = set(s.deck)
        for seat, p in enumerate(s.players):
            if seat != self.reader:
                hidden.update(p.hand)
        labels = {c: s.cat.cards[c].label for c in hidden - self.named}
        own = s.players[self.reader].personality if self.reader is not None else ""
        people = [p.personality for i, p in enumerate(s.players) if i != self.reader] + list(s.set_aside)
        return Secrets(labels, tuple(sorted({pid for pid in people if pid and pid != own})))


@dataclass(frozen=True)
class Secrets:
    labels: Mapping[int, str]
    personalities: tuple[str, ...]

    def find(self, text: str, data: Any = None) -> list[str]:
        found = labels_in(text, self.labels.values())
        if data is not None:
            ids: set[int] = set()
            _card_ids(data, ids)
            named: set[str] = set()
            _personalities(data, named)
            found += [f"personality {pid}" for pid in sorted(named & set(self.personalities))]
            found += [f"card id {c} ({self.labels[c]})" for c in sorted(ids & self.labels.keys())]
        return found
