"""How far Devil's Island reaches: the City box only, or the city's Game card too (the option ``devils_island``;
docs/emerald1-rulings.md, 30 and 50).

Rulebook, Devil's Island: "You can play a City card as a free action and remove all Influence cubes belonging to
one player from that city. Place the cubes in Limbo." Bismarck: "Remove all Influence cubes from the city and its
associated Game card and place them in Limbo". Cthulhu: "Any Influence cubes in the City box or associated Game
card are placed back in the Pool."
"""

from __future__ import annotations

from typing import Any

from tests.emerald1.harness import Game
from tests.emerald1.position import arrange, cubes, hand, pe, started

BERLIN_CARD = 62


def cubes_in_berlin_and_on_its_card(**options: Any) -> tuple[Game, int]:
    """Seat 0 has Devil's Island and the Berlin City card in hand; seat 1 has two cubes in the Berlin City box and
    one on Berlin's face-up Game card; seat 2 has one cube on that card only."""
    game = started(**options)
    s = arrange(game)
    pe(s, 0, "devils_island")
    hand(s, 0, [BERLIN_CARD, 101, 102, 103, 104])
    top = s.top("berlin")
    assert top is not None
    cubes(s, "city:berlin", 1, 2)
    cubes(s, f"card:{top}", 1, 1)
    cubes(s, f"card:{top}", 2, 1)
    return game, top


def test_devils_island_clears_a_players_cubes_from_the_city_box_only() -> None:
    game, top = cubes_in_berlin_and_on_its_card()
    offered = [a["player"] for a in game.legal(0) if a["kind"] == "devils_island"]
    assert offered == [1]
    events = game.act(0, {"kind": "devils_island", "card": BERLIN_CARD, "player": 1})
    assert [(e.type.split(".")[1], e.payload) for e in events] == [
        ("CardsPlayed", {"seat": 0, "cards": [BERLIN_CARD], "use": "Devil's Island", "to": "discard"}),
        ("CubesMoved", {"seat": 1, "from": "city:berlin", "to": "limbo", "count": 2}),
        ("ActionDone", {"seat": 0, "free": True}),
    ]
    assert game.state.cubes[f"card:{top}"] == [0, 1, 1] and game.state.players[1].limbo == 2


def test_the_table_may_read_that_city_as_its_game_card_too() -> None:
    game, top = cubes_in_berlin_and_on_its_card(options={"devils_island": "city_and_card"})
    offered = [a["player"] for a in game.legal(0) if a["kind"] == "devils_island"]
    assert offered == [1, 2]
    events = game.act(0, {"kind": "devils_island", "card": BERLIN_CARD, "player": 1})
    assert [(e.type.split(".")[1], e.payload) for e in events][1:3] == [
        ("CubesMoved", {"seat": 1, "from": "city:berlin", "to": "limbo", "count": 2}),
        ("CubesMoved", {"seat": 1, "from": f"card:{top}", "to": "limbo", "count": 1}),
    ]
    assert game.state.cubes[f"card:{top}"] == [0, 0, 1] and game.state.players[1].limbo == 3


def test_a_game_recorded_before_the_option_clears_the_city_box_only() -> None:
    game, _ = cubes_in_berlin_and_on_its_card(recorded={})
    assert [a["player"] for a in game.legal(0) if a["kind"] == "devils_island"] == [1]
