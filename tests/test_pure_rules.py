"""Every game's rules leave the state they are given as it was (``events.rules``: pure functions of an immutable
state).

The kernel relies on it: the state cache carries a cached state forward by folding the events after it, and an
audit folds a command onto the state before it and then shows both. A rule that changed its argument in place would
make both wrong without an error. Checked over a seeded game of each game: before every ``decide`` and every
``evolve``, the state as a snapshot stores it (``events.snapshots``: what the game made from its data alone, its
catalog with the caches it fills as it is read, named by that data), compared with the same afterwards; and the
views read before a step, unchanged by it. It fails for a rule that changes its argument: see the last test.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from events.envelope import Event
from events.rng import Rng
from events.snapshots import SnapshotCodec
from pbem.bots.table import config_for
from pbem.games import all_games

STEPS = 150


def play(rules: Any) -> None:
    codec = SnapshotCodec(lambda digest: {})  # every data "stored": named by its digest, never pickled
    made_from_data = tuple(getattr(rules, "made_from_data", ()))

    def frozen(value: Any) -> bytes:
        return codec.dumps(value, made_from_data)

    config = config_for(rules, 3)
    rng = Rng(f"pure-{rules.name}")
    state = rules.initial_state(config)
    pick = random.Random(3)
    seq = 0
    made = rules.setup(config, rng)
    steps = 0
    while steps < STEPS:
        for new in made:
            seq += 1
            event = Event("pure", seq, new.type, 1, new.payload, new.actor or "system", new.visibility, new.reveals,
                          "", {}, "", "")
            before, views = frozen(state), [frozen(rules.view(state, seat)) for seat in (None, 0, 1, 2)]
            after = rules.evolve(state, event)
            assert frozen(state) == before, f"evolve changed the state it was given (event {seq}, {new.type})"
            assert [frozen(rules.view(state, seat)) for seat in (None, 0, 1, 2)] == views
            state = after
        prompts = rules.prompts(state)
        if not prompts:
            break
        seat = pick.choice(sorted(prompts))
        legal = rules.legal_actions(state, seat)
        action = pick.choice([a for a in legal if a["kind"] not in ("pass", "discard")] or legal)
        before = frozen(state)
        made = rules.decide(state, seat, action, rng)
        assert frozen(state) == before, f"decide changed the state it was given (step {steps}, {action})"
        steps += 1
    assert steps == STEPS or rules.outcome(state) is not None


@pytest.mark.parametrize("game_type", sorted(all_games()))
def test_no_rule_changes_the_state_it_is_given(game_type: str) -> None:
    play(all_games()[game_type])


class Careless:
    """A game's rules whose ``evolve`` also writes into the state it was given (what the check is for)."""

    def __init__(self, rules: Any) -> None:
        self.rules = rules

    def __getattr__(self, name: str) -> Any:
        return getattr(self.rules, name)

    def evolve(self, state: Any, event: Event) -> Any:
        after = self.rules.evolve(state, event)
        if event.seq == 30:
            vars(state)[next(iter(vars(state)))] = None
        return after


def test_the_check_fails_for_a_rule_that_changes_its_argument() -> None:
    with pytest.raises(AssertionError, match="evolve changed the state it was given"):
        play(Careless(all_games()["emerald"]))
