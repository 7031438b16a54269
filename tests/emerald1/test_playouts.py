"""Seeded random playouts of whole games: they end, replay, conserve every piece and leak nothing."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from events.envelope import Event
from pbem.games.emerald1 import RULES
from pbem.games.emerald1.options import OPTIONS
from tests.emerald1 import checks
from tests.emerald1.harness import Game, random_playout


def full_checks(every: int) -> Any:
    counter = {"n": 0}
    rnd = random.Random(1)

    def check(game: Game, seat: int, legal: list[dict[str, Any]]) -> None:
        counter["n"] += 1
        checks.conserved(game.state)
        if counter["n"] % every == 0:
            checks.accepts_listed(game.state, seat, legal, rnd)
            checks.refuses_unlisted(game.state, seat, legal)
            checks.no_leaks(game.state)
            checks.round_trip(game.state, legal if len(legal) <= 30 else rnd.sample(legal, 30))
    return check


@pytest.mark.parametrize("players,seed", [(p, s) for p in (2, 3, 4, 5) for s in range(2)])
def test_random_games_end_and_keep_every_invariant(players: int, seed: int) -> None:
    game = random_playout(players, seed=seed, check=full_checks(every=7))
    assert game.state.phase == "over"
    assert game.replay() == game.state
    checks.conserved(game.state)
    out = RULES.outcome(game.state)
    assert out is not None and out.winners and set(out.scores) == set(range(players))


OTHER_READINGS = {o.key: o.choices[1].value for o in OPTIONS}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games_under_every_options_other_reading_end_and_keep_every_invariant(players: int) -> None:
    game = random_playout(players, seed=7, check=full_checks(every=7), options=OTHER_READINGS)
    assert all(getattr(game.state.readings, o.key) == o.choices[1].json for o in OPTIONS)
    assert game.state.phase == "over" and game.replay() == game.state
    checks.conserved(game.state)


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_many_random_games(players: int) -> None:
    """Sixty games per player count (240 in all, with the 8 above: 248); every tenth with the full checks every 25
    steps."""
    for seed in range(100, 160):
        game = random_playout(players, seed=seed, check=full_checks(every=25) if seed % 10 == 0 else None)
        assert game.replay() == game.state
        checks.conserved(game.state)
        assert RULES.outcome(game.state) is not None


def test_evolve_never_changes_the_state_it_is_given() -> None:
    """``evolve`` copies only the containers an event touches: the old state must stay as it was."""
    from pbem.games.emerald1.evolve import HANDLERS, TOUCHES
    assert set(HANDLERS) <= set(TOUCHES)
    game = random_playout(3, seed=11)
    replayed = RULES.initial_state(game.config)
    states = []
    for ev in game.events:
        states.append((replayed, replayed.clone()))
        replayed = RULES.evolve(replayed, ev)
    assert all(old == copy for old, copy in states)


def test_replay_from_stored_json_records_equals_the_live_state() -> None:
    game = random_playout(4, seed=42)
    state = RULES.initial_state(game.config)
    for ev in game.events:
        state = RULES.evolve(state, Event.from_record(json.loads(json.dumps(ev.to_record()))))
    assert state == game.state
    assert RULES.outcome(state) == RULES.outcome(game.state)
