"""Seeded random full games at 2, 3 and 4 players, standard and classic personalities.

Every game ends; replaying its events gives the live state; every piece, card and coin is in exactly one
place after every step; no view shows another seat's hand or personality; and ``decide`` accepts exactly
what ``legal_actions`` lists (every listed action in some games, listed and near-miss actions in all).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from events.rng import Rng
from events.rules import ActionError
from pbem.games.nanty import RULES
from tests.nanty.checks import after_step, conserved, no_leaks
from tests.nanty.harness import Game, random_playout

SEEDS = range(20)        # 20 seeds x 3 player counts x 2 variants = 120 checked games
ENDS: dict[str, int] = {}


def _checker(full: bool) -> Any:
    pick = random.Random(7)

    def check(game: Game, seat: int, legal: list[dict[str, Any]]) -> None:
        s = game.state
        conserved(s)
        if pick.random() < 0.2:
            no_leaks(s)
        prompt = RULES.prompts(s)[seat]
        assert prompt.default in legal, "a deadline's default action must be legal"
        for answer in prompt.answers.values():
            assert answer in legal
        tried = legal if full else pick.sample(legal, min(3, len(legal)))
        for action in tried:
            RULES.decide(s, seat, action, Rng("probe", 0))      # accepted: no error
        for action in legal[:5]:
            for key, value in action.items():
                if key == "kind":
                    continue
                wrong = {**action, key: _other(value)}
                if wrong not in legal:
                    with pytest.raises(ActionError):
                        RULES.decide(s, seat, wrong, Rng("probe", 0))
        for other in range(s.n):
            if other != seat and other not in RULES.prompts(s):
                assert RULES.legal_actions(s, other) == []
    return check


def _other(value: Any) -> Any:
    if isinstance(value, int):
        return value + 1000
    return "atlantis"


@pytest.mark.parametrize("variant", ["standard", "classic"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_replay_and_conserve_everything(players: int, variant: str) -> None:
    for seed in SEEDS:
        game = random_playout(players, seed, variant, check=_checker(full=seed < 2))
        s = game.state
        assert s.phase == "over" and s.end_reason in ("personality", "deck_out", "riots")
        assert s.winners, "somebody always wins (ties are shared)"
        conserved(s)
        assert game.replay() == s
        outcome = RULES.outcome(s)
        assert outcome is not None and tuple(outcome.winners) == s.winners
        ENDS[s.end_reason] = ENDS.get(s.end_reason, 0) + 1


OTHER_READINGS = {"interrupts": "any_time", "fire_saved_building": "stops", "fire_spread": "rolls_on",
                  "power_relocation": "none", "relocation_adjacency": "before_lifting",
                  "grenadier_counts": "not_counted", "ties": "money", "grenadiers_disable_powers": False}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_under_every_other_reading_end_replay_and_conserve_everything(players: int) -> None:
    """The option of every contested ruling set against its default (docs/nanty-rulings.md)."""
    for seed in range(8):
        game = random_playout(players, seed, check=_checker(full=False), options=OTHER_READINGS)
        s = game.state
        assert s.phase == "over" and s.winners and game.replay() == s
        assert s.readings.interrupts == "any_time" and not s.grenadiers_disable
        conserved(s)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_steps_are_silent_about_personalities_and_log_lines_name_no_hidden_card(players: int) -> None:
    game = Game.new(players, seed=f"silent-{players}")
    pick = random.Random(players)
    while game.state.phase != "over":
        seat = pick.choice(sorted(RULES.prompts(game.state)))
        before = game.state
        events = game.act(seat, pick.choice(RULES.legal_actions(before, seat)))
        after_step(before, events, game.state)
        no_leaks(game.state)


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["standard", "classic"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_many_more_random_games_end_and_conserve_everything(players: int, variant: str) -> None:
    """50 more seeds per player count and variant (300 games): every step conserves, every game ends and replays."""
    ends: dict[str, int] = {}
    for seed in range(1000, 1050):
        game = random_playout(players, seed, variant, check=lambda g, seat, legal: conserved(g.state))
        assert game.state.phase == "over" and game.state.winners
        assert game.replay() == game.state
        ends[game.state.end_reason] = ends.get(game.state.end_reason, 0) + 1
    assert ends.get("deck_out", 0) > 0
