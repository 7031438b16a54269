"""Golden counts of legal actions from fixed positions: a change in move generation is noticed."""

from __future__ import annotations

from collections import Counter

from tests.emerald1.harness import Game


def counts(game: Game) -> dict[str, int]:
    return dict(sorted(Counter(a["kind"] for a in game.legal()).items()))


def test_setup_offers_each_of_the_twelve_cities() -> None:
    game = Game.new(3, seed="golden")
    assert len(game.legal()) == 12


def test_first_turn_of_a_three_player_game() -> None:
    game = Game.new(3, seed="golden")
    game.start(["paris", "berlin", "cairo"])
    assert game.who() == 1
    assert counts(game) == {"buy": 1, "card": 26, "discard": 80, "move": 6, "pass": 1, "place": 390}
    game.act(1, {"kind": "pass"})
    assert len(game.legal()) == 504


def test_first_turn_of_a_five_player_game() -> None:
    game = Game.new(5, seed="golden5")
    game.start(["london", "madrid", "rome", "vienna", "zurich"])
    assert game.who() == 0
    assert counts(game) == {"buy": 3, "card": 26, "discard": 80, "move": 9, "pass": 1, "place": 182}
