"""A claim tied on influence and on agents: either tied player may claim, or nobody may (the option
``claim_full_tie``; docs/emerald1-rulings.md, 4 and 48).

Rulebook (Claim one card): "You can claim a card if no other player has more points of influence assigned to it
than you do. ... If there is a tie for points then the tied player who has the most agents in the city has the
higher total." Example two: "Note that if he only had one cube in the box he would not be able to claim the card as
he would not have more points of influence than Agent Monday." The summary: "Claim a card if you have the most
points of influence assigned to it".
"""

from __future__ import annotations

from typing import Any

import pytest

from events.rules import IllegalAction
from tests.emerald1.harness import Game
from tests.emerald1.position import arrange, cubes, started

CLAIM = {"kind": "claim", "target": "city:rome"}


def two_cubes_each_in_rome(**options: Any) -> Game:
    """Seats 0 and 1 have two cubes each in the Rome City box and no agent in Rome: a full tie."""
    game = started(cities=["cairo", "cairo", "cairo"], **options)
    s = arrange(game)
    cubes(s, "city:rome", 0, 2)
    cubes(s, "city:rome", 1, 2)
    return game


def test_either_tied_player_may_claim() -> None:
    game = two_cubes_each_in_rome()
    assert CLAIM in game.legal(0)
    events = game.act(0, CLAIM)
    assert [(e.type.split(".")[1], e.payload) for e in events] == [
        ("CardClaimed", {"seat": 0, "card": 69, "city": "rome"}),
        ("CubesCleared", {"place": "city:rome", "claimer": 0}),
        ("ActionDone", {"seat": 0, "free": False}),
        ("KnownToAuthorities", {"seat": 0}),
    ]
    st = game.state
    assert st.owner["rome"] == 0 and st.players[0].limbo == 2 and st.players[1].available == 8


def test_the_table_may_rule_that_nobody_claims_a_full_tie() -> None:
    game = two_cubes_each_in_rome(options={"claim_full_tie": "nobody"})
    assert CLAIM not in game.legal(0)
    with pytest.raises(IllegalAction, match="You cannot claim now"):
        game.act(0, CLAIM)
    s = arrange(game)
    cubes(s, "city:rome", 0, 3)                       # one more cube breaks the tie
    assert CLAIM in game.legal(0)


def test_a_game_recorded_before_the_option_lets_either_claim() -> None:
    assert CLAIM in two_cubes_each_in_rome(recorded={}).legal(0)
