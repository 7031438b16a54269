"""Every registered game reads any typed command without an error of its own: a clear refusal or an action.

Typed commands arrive from mail replies, the play page's box and the CLI; a parser that fails with
anything but the rules' errors would be a server error. What it accepts must be legal or refused by
``decide`` with the rules' errors too, and nothing is written either way.
"""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings, strategies as st

from events.envelope import Event
from events.rng import Rng
from events.rules import ActionError, GameConfig, Seat
from pbem.games import all_games

WORDS = ["play", "claim", "move", "place", "using", "agent", "agents", "cubes", "from", "to", "in", "pass", "done",
         "discard", "decline", "interrupt", "bet", "roll", "²", "⑦", "٣", "１２", "999999999999", "-1", "0", "1", "3",
         "310", "S010", "london", "paris", ",", ";", "\x00", "\u200b"]
COMMANDS = st.one_of(st.text(max_size=60),
                     st.lists(st.sampled_from(WORDS), min_size=1, max_size=7).map(" ".join))


def positions(name: str, moves: int = 40, every: int = 8) -> list[tuple[Any, Any]]:
    """The game after its setup and every few random moves after it."""
    rules, pick = all_games()[name], random.Random(name)
    config = GameConfig(tuple(Seat(i, n) for i, n in enumerate(["Ann", "Ben", "Cat"][:max(rules.min_seats, 3)])),
                        {}, rules.load_data(None))
    state, seq, rng, found = rules.initial_state(config), 0, Rng("fuzz"), []

    def apply(drafts: Any) -> Any:
        nonlocal seq, state
        for draft in drafts:
            seq += 1
            state = rules.evolve(state, Event("fuzz", seq, draft.type, 1, draft.payload, "system", draft.visibility,
                                              draft.reveals, "", {}, "", ""))

    apply(rules.setup(config, rng))
    for move in range(moves):
        if move % every == 0:
            found.append((rules, state))
        prompts = rules.prompts(state)
        if not prompts:
            break
        seat = pick.choice(sorted(prompts))
        apply(rules.decide(state, seat, pick.choice(rules.legal_actions(state, seat)), Rng("fuzz", rng.counter + move)))
    return found


GAMES = [position for name in sorted(all_games()) for position in positions(name)]


@settings(max_examples=400, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(at=st.integers(min_value=0, max_value=len(GAMES) - 1), text=COMMANDS)
def test_any_typed_command_is_read_or_refused_with_the_rules_errors(at: int, text: str) -> None:
    rules, state = GAMES[at]
    try:
        action = rules.parse(state, text)
    except ActionError as refused:
        assert str(refused)
        return
    for seat in rules.prompts(state):
        try:
            rules.decide(state, seat, action, Rng("fuzz", 99))
        except ActionError as refused:
            assert str(refused)
