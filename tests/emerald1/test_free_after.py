"""Free actions after a turn's second action: not allowed, or allowed (the option
``free_actions_after_last_action``; docs/emerald1-rulings.md, 6 and 52).

Rulebook, Playing the game: "When it is your turn you perform two actions. ... After performing two actions you
draw your hand back up to five cards." Card actions: "Playing a card effect marked 'Free action' does not count
towards your two action limit." Devil's Island: "Note that it would be possible for you to perform this action
more than once during your turn."
"""

from __future__ import annotations

from typing import Any

from pbem.games.emerald1 import RULES
from tests.emerald1.harness import Game
from tests.emerald1.position import arrange, hand, kinds, pe, started

GOLOVINSKY = 46


def golovinsky_and_mrs_hudson(**options: Any) -> Game:
    """Seat 0 holds Matvei Golovinsky (a free action) and has Mrs Hudson (a free action once a turn)."""
    game = started(**options)
    s = arrange(game)
    hand(s, 0, [GOLOVINSKY, 101, 102, 103, 104])
    pe(s, 0, "mrs_hudson")
    return game


def test_a_turn_ends_with_its_second_action() -> None:
    game = golovinsky_and_mrs_hudson()
    game.act(0, {"kind": "pass"})
    events = game.act(0, {"kind": "pass"})
    assert kinds(events)[-1] == "TurnStarted" and game.state.active == 1


def test_the_table_may_allow_free_actions_after_the_second_action() -> None:
    game = golovinsky_and_mrs_hudson(options={"free_actions_after_last_action": "yes"})
    game.act(0, {"kind": "pass"})
    events = game.act(0, {"kind": "pass"})
    assert [(e.type.split(".")[1], e.payload) for e in events] == [
        ("ActionDone", {"seat": 0, "free": False}),
        ("StepSet", {"step": {"step": "free"}}),
    ]
    prompt = RULES.prompts(game.state)[0]
    assert prompt.text == "Your two actions are done: take a free action, or end your turn (done)."
    assert prompt.default == {"kind": "done"}
    legal = game.legal(0)
    assert {a["kind"] for a in legal} == {"card", "hudson", "done"}
    assert {"kind": "card", "card": GOLOVINSKY, "steps": 2} in legal and {"kind": "pass"} not in legal
    events = game.act(0, {"kind": "card", "card": GOLOVINSKY, "steps": 2})
    assert kinds(events) == ["StepSet", "CardsPlayed", "MarkerMoved", "ActionDone", "StepSet"]
    assert game.state.war == 2 and game.state.step == {"step": "free"}     # Mrs Hudson is still there
    hand_before = list(game.state.players[0].hand)
    events = game.act(0, {"kind": "hudson", "card": hand_before[0]})
    # Mrs Hudson was the last free action left: the turn ends at once, with the refill
    assert kinds(events)[:6] == ["StepSet", "CardsDiscarded", "CardsDiscardedCount", "MrsHudsonUsed", "CardsDrawn",
                                 "CardsDrawnCount"]
    assert kinds(events)[-1] == "TurnStarted" and game.state.active == 1 and not game.state.step


def test_with_no_free_action_left_the_turn_ends_with_the_second_action() -> None:
    game = started(options={"free_actions_after_last_action": "yes"})
    s = arrange(game)
    hand(s, 0, [101, 102, 103, 104, 105])
    game.act(0, {"kind": "pass"})
    events = game.act(0, {"kind": "pass"})
    assert kinds(events) == ["ActionDone", "StepSet", "StepSet", "TurnStarted"] and game.state.active == 1


def test_done_ends_the_turn() -> None:
    game = golovinsky_and_mrs_hudson(options={"free_actions_after_last_action": "yes"})
    game.act(0, {"kind": "pass"})
    game.act(0, {"kind": "pass"})
    events = game.do("done", 0)
    assert kinds(events)[0] == "StepSet" and kinds(events)[-1] == "TurnStarted"
    assert GOLOVINSKY in game.state.players[0].hand


def test_a_game_recorded_before_the_option_ends_the_turn_with_the_second_action() -> None:
    game = golovinsky_and_mrs_hudson(recorded={})
    game.act(0, {"kind": "pass"})
    game.act(0, {"kind": "pass"})
    assert game.state.active == 1
