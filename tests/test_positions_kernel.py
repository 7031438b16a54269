"""The kernel's two hooks for games: options recorded complete, and a game begun from a position."""

from __future__ import annotations

import pytest

from dataclasses import replace

from events.audit import recheck_command, verify
from events.handling import Cause, Kernel
from events.rules import InvalidAction
from events.schema import POSITION_GIVEN
from playout import play_random

POSITION = {"hands": [[14, 2], [3, 4], [5, 6]], "deck": [15] + list(range(7, 14)) + [1], "scores": [3, 0, 1],
            "turn": 1, "turns_taken": 4}


def test_options_are_recorded_with_every_default_filled_in(kernel: Kernel) -> None:
    created = kernel.create("highdie", ["A", "B"], seed="o").events[0]
    assert created.payload["options"] == {"turns_each": 8}
    chosen = kernel.create("highdie", ["A", "B"], seed="o", options={"turns_each": 2, "turn_hours": 4}).events[0]
    assert chosen.payload["options"] == {"turns_each": 2, "turn_hours": 4}  # the delivery layer's pass through


def test_a_bad_option_is_refused_by_name_and_nothing_is_written(kernel: Kernel) -> None:
    for options, words in (({"turns_each": 0}, "turns_each is"), ({"turns_each": "many"}, "turns_each is")):
        with pytest.raises(InvalidAction, match=words):
            kernel.create("highdie", ["A", "B"], seed="o", game_id="bad-options", options=options)
        assert kernel.store.last("bad-options")[0] == 0


def test_a_game_begun_from_a_position_is_at_that_position_and_the_position_is_server_only(kernel: Kernel) -> None:
    result = kernel.create("highdie", ["A", "B", "C"], seed="p", position=POSITION)
    events = result.events
    assert events[0].payload["from_position"] is True
    assert events[1].type == POSITION_GIVEN and events[1].visibility.kind == "server"
    assert events[1].payload["position"] == POSITION
    rules = kernel.rules(result.after)
    assert rules.position(result.after.game) == POSITION  # type: ignore[attr-defined]
    view = rules.view(result.after.game, 0)
    assert view["players"][0]["hand"] == [14, 2] and "hand" not in view["players"][1]
    assert view["turn"] == 1 and [p["score"] for p in view["players"]] == [3, 0, 1]
    assert {e.type: e.visibility.kind for e in events if e.type == "dice.HandDealt"} == {"dice.HandDealt": "seats"}


def test_a_refused_position_names_the_field_and_writes_nothing(kernel: Kernel) -> None:
    with pytest.raises(InvalidAction, match="hands and deck"):
        kernel.create("highdie", ["A", "B", "C"], seed="p", game_id="bad-position",
                      position={**POSITION, "deck": [15]})
    assert kernel.store.last("bad-position")[0] == 0


def test_a_game_begun_from_a_position_plays_on_and_verifies_its_setup_from_the_position(kernel: Kernel) -> None:
    game_id = kernel.create("highdie", ["A", "B", "C"], seed="p", position=POSITION).after.game_id
    kernel.execute(game_id, 1, {"kind": "bet", "points": 2}, cause=Cause("test"))
    play_random(kernel, game_id, 3)
    events = kernel.store.read(game_id)
    assert kernel.load(game_id).ended
    report = verify(kernel.replayer, events, secret=kernel.seed(game_id))
    assert report.ok, report.failure
    # the setup is decided again from the recorded position: another position does not give the recorded events
    first = [e for e in events if e.cause["command"] == events[0].cause["command"]]
    assert recheck_command(kernel.replayer, None, first, kernel.seed(game_id)) is None
    altered = [replace(e, payload={"position": {**POSITION, "scores": [9, 0, 1]}}) if e.type == POSITION_GIVEN else e
               for e in first]
    assert "different dice.PositionSet" in str(recheck_command(kernel.replayer, None, altered, kernel.seed(game_id)))
    unmarked = [replace(first[0], payload={k: v for k, v in first[0].payload.items() if k != "from_position"})]
    assert "started from a position" in str(recheck_command(kernel.replayer, None, unmarked + first[1:],
                                                            kernel.seed(game_id)))
