"""Golden counts of legal actions from fixed positions (perft-style): a change in move generation shows here."""

from __future__ import annotations

from collections import Counter

from pbem.games.emerald import RULES
from tests.emerald.harness import Game, give, put, started


def _kinds(legal: list[dict]) -> dict[str, int]:  # type: ignore[type-arg]
    return dict(sorted(Counter(a["kind"] for a in legal).items()))


def test_setup_placement() -> None:
    g = Game.new(3, seed="golden")
    assert len(RULES.legal_actions(g.state, g.who())) == 9


def test_first_turn_after_setup() -> None:
    g = Game.new(3, seed="golden")
    while g.state.phase == "setup":
        g.act(g.who(), RULES.legal_actions(g.state, g.who())[4])
    seat = g.who()
    legal = RULES.legal_actions(g.state, seat)
    assert (seat, len(legal)) == (2, 67)
    assert _kinds(legal) == {"discard": 31, "move": 1, "pass": 1, "place": 27, "retrieve": 7}


def test_a_busy_hand_of_nine() -> None:
    g = started()
    give(g, 0, 201, 202, 203, 204, 205, 206, 52, 48, 35)
    put(g, "paris", 0, cubes=2, agents=3)
    put(g, "paris", 1, cubes=1, agents=1)
    put(g, "st_petersburg", 2, cubes=2, agents=1)
    legal = RULES.legal_actions(g.state, 0)
    assert len(legal) == 838
    assert _kinds(legal) == {"assassinate": 2, "claim": 4, "discard": 511, "pass": 1, "place": 54, "play": 266}


def test_assassination_payments() -> None:
    g = started()
    put(g, "paris", 0, cubes=1, agents=1)
    put(g, "paris", 1, agents=1)
    give(g, 0, 39, 202, 203, 206, 208, 46)
    legal = [a for a in RULES.legal_actions(g.state, 0) if a["kind"] == "assassinate"]
    # defence 4, one agent: the Infernal Machine alone or the three one-bomb cards, for each assassin card;
    # Infernal Machine with a one-bomb card would overpay
    assert len(legal) == 4
    assert {"kind": "assassinate", "city": "paris", "target": 1, "card": 39, "bombs": [46]} in legal
    assert {"kind": "assassinate", "city": "paris", "target": 1, "card": 39, "bombs": [203, 206, 208]} in legal
