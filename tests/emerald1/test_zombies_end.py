"""When the Zombies card ends the game: only as the first action, or whenever it is played (the option
``zombies_end``; docs/emerald1-rulings.md, 36 and 49).

Rulebook, Ending the Game: "A player plays the Zombie card as their first action and all eight zombie pieces are
on the board." Zombies: "If you play the Zombie card and all eight Zombie pieces are on the board then the game
ends immediately."
"""

from __future__ import annotations

from typing import Any

from tests.emerald1.harness import Game
from tests.emerald1.position import arrange, hand, kinds, payloads, started

ZOMBIES = 61
PLAY = {"kind": "card", "card": ZOMBIES}


def eight_zombies_and_one_action_done(**options: Any) -> Game:
    """Seat 0 has all eight zombies on the board (one in each of eight cities), the Zombies card in hand, and has
    already taken one action this turn."""
    game = started(cities=["cairo", "cairo", "cairo"], **options)
    s = arrange(game, actions_done=1)
    hand(s, 0, [ZOMBIES, 101, 102, 103, 104])
    for city in ("berlin", "cairo", "london", "madrid", "paris", "rome", "vienna", "zurich"):
        s.zombies[city][0] = 1
    return game


def test_played_as_the_second_action_the_card_does_not_end_the_game() -> None:
    game = eight_zombies_and_one_action_done()
    events = game.act(0, PLAY)
    assert game.state.phase == "play" and "GameEnded" not in kinds(events)
    assert payloads(events, "CardsPlayed") == [{"seat": 0, "cards": [ZOMBIES], "use": "action", "to": "discard"}]


def test_the_table_may_end_the_game_whenever_the_card_is_played() -> None:
    game = eight_zombies_and_one_action_done(options={"zombies_end": "any_action"})
    events = game.act(0, PLAY)
    assert [(e.type.split(".")[1], e.payload) for e in events] == [
        ("CardsPlayed", {"seat": 0, "cards": [ZOMBIES], "use": "action", "to": "discard"}),
        ("GameEnded", {"reason": "zombies", "sides": {str(i): p.side for i, p in enumerate(game.state.players)}}),
    ]
    assert game.state.end_reason == "zombies"


def test_a_game_recorded_before_the_option_ends_only_on_a_first_action() -> None:
    game = eight_zombies_and_one_action_done(recorded={})
    game.act(0, PLAY)
    assert game.state.phase == "play"
