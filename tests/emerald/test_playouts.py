"""Seeded random playouts of whole games: they end, replay, conserve pieces and leak nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.emerald import checks
from tests.emerald.harness import Game, random_playout

MAX_STEPS = 6000


def _full_checks(every: int = 1) -> Any:
    counter = {"n": 0}
    rnd = random.Random(1)

    def check(game: Game, seat: int, legal: list[dict[str, Any]]) -> None:
        counter["n"] += 1
        checks.conserved(game.state)
        checks.prompt_sound(game.state, seat, legal)
        if counter["n"] % every == 0:
            checks.accepts_listed(game.state, seat, legal, rnd)
            checks.no_leaks(game.state)
            checks.refuses_unlisted(game.state, seat, legal)
        sample = legal if len(legal) <= 40 else rnd.sample(legal, 40)
        checks.round_trip(game.state, sample)
    return check


@pytest.mark.parametrize("players,seed", [(p, s) for p in (2, 3, 4, 5) for s in range(3)])
def test_random_games_end_and_keep_every_invariant(players: int, seed: int) -> None:
    game = random_playout(players, seed=seed, max_steps=MAX_STEPS, check=_full_checks(every=3))
    assert game.state.phase == "over"
    assert game.replay() == game.state
    checks.conserved(game.state)
    from pbem.games.emerald import RULES
    out = RULES.outcome(game.state)
    assert out is not None and out.winners and set(out.scores) == set(range(players))


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_hundreds_of_random_games(players: int) -> None:
    for seed in range(100):
        game = random_playout(players, seed=1000 + seed, max_steps=MAX_STEPS,
                              check=_full_checks(every=25) if seed % 10 == 0 else None)
        assert game.replay() == game.state
        checks.conserved(game.state)


def test_replay_from_stored_json_records_equals_the_live_state() -> None:
    import json

    from events.envelope import Event
    from pbem.games.emerald import RULES
    game = random_playout(4, seed=42)
    state = RULES.initial_state(game.config)
    for ev in game.events:
        stored = Event.from_record(json.loads(json.dumps(ev.to_record())))
        state = RULES.evolve(state, stored)
    assert state == game.state
    assert RULES.outcome(state) == RULES.outcome(game.state)
