"""A card removed face down keeps its secret: a Necronomicon's points stay on the track until the end (revision
2; docs/emerald1-rulings.md, 45).

Rulebook (The Third Section): "Select one card from your hand to remove permanently from play. The card should be
placed face-down so that other players are not sure what card it is. If you remove the Necronomicon from your
hand in this manner then when the game ends you lose the points gained from it." Scoring: "While your identity is
a secret you score points for the following: ... taking the Necronomicon card."
"""

from __future__ import annotations

from typing import Any

from pbem.games.emerald1 import RULES
from tests.emerald1.harness import Game
from tests.emerald1.position import R, arrange, hand, side, started

THIRD_SECTION, NECRONOMICON, GOLOVINSKY = 59, 49, 46


def paris_and_a_necronomicon(**options: Any) -> Game:
    """Seat 0, a Restorationist, controls Paris (5) and holds a Necronomicon (3): 8 points on the track."""
    game = started(cities=["cairo", "rome", "rome"], **options)
    s = arrange(game)
    side(s, 0, R)
    hand(s, 0, [THIRD_SECTION, NECRONOMICON, GOLOVINSKY, 101, 102])
    s.owner["paris"] = 0
    return game


def spectators_and_others(game: Game) -> list[dict[str, Any]]:
    return [RULES.view(game.state, seat) for seat in (None, 1, 2)]


def test_the_points_of_a_necronomicon_removed_face_down_stay_on_the_track_until_the_end() -> None:
    game = paris_and_a_necronomicon()
    before = spectators_and_others(game)
    assert [v["players"][0]["vp"] for v in before] == [8, 8, 8]
    events = game.act(0, {"kind": "card", "card": THIRD_SECTION, "remove": NECRONOMICON})
    assert [(e.type.split(".")[1], e.payload, e.visibility.kind) for e in events] == [
        ("CardsPlayed", {"seat": 0, "cards": [THIRD_SECTION], "use": "action", "to": "discard"}, "public"),
        ("CardRemovedFace", {"seat": 0, "card": NECRONOMICON}, "seats"),   # to seat 0 only
        ("CardRemovedHidden", {"seat": 0}, "public"),
        ("ActionDone", {"seat": 0, "free": True}, "public"),
        ("KnownToAuthorities", {"seat": 0}, "public"),
    ]
    after = spectators_and_others(game)
    for was, now in zip(before, after):
        assert now["players"][0]["vp"] == 8 and now["removed_face_down"] == 1 and now["removed"] == was["removed"]
        assert now["players"][0]["hand_size"] == 3                      # the Third Section and the card
    mine = RULES.view(game.state, 0)["you"]
    assert mine["vp_by_kind"]["necronomicon"] == 3 and mine["score_if_revealed"] == 8
    s = arrange(game)
    s.war = s.cat.game["track_top"] - 1
    events = game.act(0, {"kind": "card", "card": GOLOVINSKY, "steps": 1})   # the War marker reaches the top
    assert events[-1].type == "emerald1.GameEnded" and game.state.phase == "over"
    outcome = RULES.outcome(game.state)
    assert outcome is not None and outcome.breakdown[0]["necronomicon"] == 0 and outcome.scores[0] == 5
    assert [v["players"][0]["vp"] for v in spectators_and_others(game)] == [5, 5, 5]


def test_a_game_recorded_before_revision_two_drops_the_points_at_once() -> None:
    game = paris_and_a_necronomicon(recorded={})
    game.act(0, {"kind": "card", "card": THIRD_SECTION, "remove": NECRONOMICON})
    assert [v["players"][0]["vp"] for v in spectators_and_others(game)] == [5, 5, 5]
