"""No call changes a state once made: ``evolve`` and ``decide`` share containers with the state they are given.

``evolve`` copies only the containers an event writes, and ``decide`` works on a state that copies each container
the first time one of its events writes it; both rely on the handlers replacing what is inside a container
instead of changing it. Checked over a whole seeded game of each player count: every state is compared, after
the calls that were given it, with a deep copy taken before them.
"""

from __future__ import annotations

import random

import pytest

from events.rng import Rng
from pbem.games.emerald1 import RULES
from tests.emerald1.harness import Game, make_event


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_decide_and_evolve_leave_the_states_they_are_given_as_they_were(players: int) -> None:
    game = Game.new(players, seed=f"unchanged-{players}")
    pick = random.Random(players)
    probe = random.Random(100 + players)
    state = game.state
    while state.phase != "over":
        seat = sorted(RULES.prompts(state))[0]
        copy = state.clone()
        legal = RULES.legal_actions(state, seat)
        for a in probe.sample(legal, min(3, len(legal))):
            RULES.decide(state, seat, a, Rng("probe"))
        doing = [a for a in legal if a["kind"] not in ("pass", "discard")] or legal
        made = [(state, copy)]
        for ne in RULES.decide(state, seat, pick.choice(doing), game.rng):
            state = RULES.evolve(state, make_event(0, ne))
            made.append((state, state.clone()))
        RULES.view(state, None)
        assert all(old == was for old, was in made)
