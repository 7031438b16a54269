"""Invariants of every Nanty Narking position: each piece, card and coin in exactly one place."""

from __future__ import annotations

from collections import Counter
from typing import Any

from pbem.games.nanty import RULES
from pbem.games.nanty.state import State
from tests.leaks.nanty import _card_ids, _personalities


def conserved(s: State) -> None:
    g = s.cat.game
    assert s.bank >= 0 and all(p.money >= 0 for p in s.players)
    assert s.bank + sum(p.money for p in s.players) == g["bank"], "money appeared or vanished"
    cards = list(s.deck) + list(s.discard) + [c for p in s.players for c in p.hand + p.loans]
    assert Counter(cards) == Counter(list(s.cat.cards)), "a card is missing or in two places"
    for seat in range(s.n):
        assert 0 <= s.agents_on_board(seat) <= g["agents"]
        assert 0 <= len(s.buildings_of(seat)) <= g["buildings"]
    assert all(min(sp.agents) >= 0 for sp in s.spots)
    assert s.grenadiers + sum(sp.grenadiers for sp in s.spots) == g["grenadiers"]
    assert s.citizens + sum(sp.citizens for sp in s.spots) == g["citizens"]
    assert s.trouble_count() <= g["trouble_markers"]
    assert len(s.event_deck) + len(s.events_done) == 12 and set(s.event_deck).isdisjoint(s.events_done)


def no_leaks(s: State) -> None:
    """No seat's view names a card in another hand or the deck, or another player's personality."""
    if s.phase == "over":
        return
    for seat in [None, *range(s.n)]:
        view = RULES.view(s, seat)
        ids: set[int] = set()
        _card_ids(view, ids)
        hidden = set(s.deck) | {c for i, p in enumerate(s.players) if i != seat for c in p.hand}
        assert not ids & hidden, f"seat {seat} sees hidden cards {sorted(ids & hidden)}"
        people: set[str] = set()
        _personalities(view, people)
        others = {p.personality for i, p in enumerate(s.players) if i != seat} | set(s.set_aside)
        assert not people & others, f"seat {seat} sees personalities {people & others}"


def after_step(before: State, events: list[Any], after: State) -> None:
    """Turn-start personality checks are silent: nothing public names a personality until the game ends; and
    no log line, as any reader reads it, names a card in the deck or in another player's hand."""
    if after.phase == "over":
        return
    for e in events:
        if e.visibility.kind == "public":
            assert "personality" not in e.payload and "personalities" not in e.payload, e.type
    for reader in [None, *range(after.n)]:
        hidden = set(after.deck) | {c for i, p in enumerate(after.players) if i != reader for c in p.hand}
        labels = [after.cat.cards[c].label for c in hidden]
        for e in events:
            line = RULES.describe(e, reader)
            assert not [label for label in labels if label in line], (reader, line)


def read_draft(row: Any) -> dict[str, Any]:
    """An outbox row's mail draft, stored as JSON text (or deflated, where the outbox has ``draft_of``)."""
    try:
        from pbem.post.mail.outbox import draft_of  # type: ignore[attr-defined]
    except ImportError:
        import json
        draft: dict[str, Any] = json.loads(row["draft"])
        return draft
    return dict(draft_of(row))
