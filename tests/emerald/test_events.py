"""Event types: stable names, and every payload the rules write passes its schema."""

from __future__ import annotations

from pbem.games.emerald import RULES
from pbem.games.emerald.evolve import HANDLERS
from tests.emerald.harness import random_playout


def test_every_event_written_in_playouts_matches_its_schema() -> None:
    types = {t.name: t for t in RULES.event_types}
    seen = set()
    for players, seed in ((2, 11), (3, 12), (4, 13), (5, 14), (3, 15), (4, 16)):
        game = random_playout(players, seed)
        for ev in game.events:
            assert ev.type in types, ev.type
            errors = types[ev.type].schema().validate(dict(ev.payload))
            assert not errors, (ev.type, errors, ev.payload)
            seen.add(ev.type)
    assert len(seen) > 30


def test_names_are_stable_strings_and_every_type_is_handled_or_informational() -> None:
    names = [t.name for t in RULES.event_types]
    assert len(names) == len(set(names))
    assert all(n.startswith("emerald.") and n.split(".")[1][0].isupper() for n in names)
    assert set(names) <= set(HANDLERS)
    assert all(t.version == 1 and t.doc for t in RULES.event_types)
