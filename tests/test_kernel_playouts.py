"""Seeded random playouts of the test game through the kernel: the invariants hold at every step."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from events.audit import verify
from events.handling import Cause, CommandResult, Kernel
from events.replay import CorruptLog, Replayer
from events.rules import IllegalAction
from events.schema import GAME_ENDED, RANDOM_DRAWN
from kernelgame import DECK
from playout import play_random


def check_step(kernel: Kernel, result: CommandResult) -> None:
    game_id = result.after.game_id
    replayed = kernel.replayer.fold(kernel.store.read(game_id))
    assert replayed == result.after, "replay from the log differs from the live state"
    game = result.after.game
    cards = sorted(list(game.deck) + [c for hand in game.hands for c in hand] + list(game.table))
    assert cards == list(DECK), "cards were created or lost"
    rules = kernel.rules(result.after)
    for seat in range(game.seats):
        view = rules.view(game, seat)
        for other, player in enumerate(view["players"]):
            if other != seat and not view["over"]:
                assert "hand" not in player, f"seat {seat} sees seat {other}'s hand"
        assert "deck" not in json.dumps(view).replace("deck_size", "")
    public = rules.view(game, None)
    if not public["over"]:
        assert all("hand" not in p for p in public["players"])


@pytest.mark.parametrize("seats", [2, 3, 4])
@pytest.mark.parametrize("seed", range(8))
def test_random_playouts_keep_every_invariant_and_end(kernel: Kernel, seats: int, seed: int) -> None:
    game_id = kernel.create("highdie", [f"P{i}" for i in range(seats)], seed=f"seed-{seed}").after.game_id
    final = play_random(kernel, game_id, seed, after_each=check_step)
    assert final.ended and final.outcome is not None
    events = kernel.store.read(game_id)
    assert events[-1].type == GAME_ENDED and events[-1].payload["seed"] == f"seed-{seed}"
    assert verify(kernel.replayer, events).ok


def test_decide_accepts_exactly_the_legal_actions(kernel: Kernel) -> None:
    game_id = kernel.create("highdie", ["A", "B"], seed="exact").after.game_id
    pick = random.Random(5)
    candidates: list[dict[str, Any]] = (
        [{"kind": "play", "card": c} for c in range(0, 17)] + [{"kind": "bet", "points": n} for n in range(0, 5)]
        + [{"kind": k} for k in ("roll", "draw", "pass", "accept", "contest", "fly")])
    while not kernel.load(game_id).ended:
        state = kernel.load(game_id)
        rules = kernel.rules(state)
        for seat in range(2):
            legal = rules.legal_actions(state.game, seat)
            for action in candidates:
                if action in legal:
                    continue
                with pytest.raises(IllegalAction):
                    kernel.execute(game_id, seat, action, cause=Cause("test"))
                assert kernel.load(game_id) == state, "a refused action changed the game"
        seat = next(iter(rules.prompts(state.game)))
        kernel.execute(game_id, seat, pick.choice(rules.legal_actions(state.game, seat)), cause=Cause("test"))


def test_random_draws_are_recorded_hidden_and_advance_the_counter(kernel: Kernel) -> None:
    created = kernel.create("highdie", ["A", "B"], seed="draws")
    drawn = [e for e in created.events if e.type == RANDOM_DRAWN]
    assert len(drawn) == 1 and drawn[0].visibility.kind == "server"
    assert drawn[0].payload["draws"][0]["op"] == "shuffle"
    assert created.after.rng_counter == 1
    rolled = kernel.execute(created.after.game_id, 0, {"kind": "roll"}, cause=Cause("test"))
    assert [e.type for e in rolled.events] == [RANDOM_DRAWN, "dice.Rolled", "dice.TurnEnded"]
    assert rolled.events[0].payload["draws"][0]["n"] == 1
    assert rolled.after.rng_counter == 2
    assert rolled.events[1].payload["face"] == rolled.events[0].payload["draws"][0]["result"]


def test_the_same_seed_and_actions_give_the_same_game(tmp_path: Any) -> None:
    from events.store import SQLiteEventStore
    from kernelgame import RULES
    finals = []
    for name in ("one", "two"):
        store = SQLiteEventStore(tmp_path / f"{name}.sqlite3")
        kernel = Kernel(store, {"highdie": RULES})
        game_id = kernel.create("highdie", ["A", "B", "C"], seed="same", game_id="g").after.game_id
        finals.append(play_random(kernel, game_id, 3).game)
        store.close()
    assert finals[0] == finals[1]


def test_replayer_needs_a_game_created_event_first(kernel: Kernel) -> None:
    game_id = kernel.create("highdie", ["A", "B"], seed="x").after.game_id
    events = kernel.store.read(game_id)
    with pytest.raises(CorruptLog, match="GameCreated"):  # a stream that does not begin with it is damaged
        Replayer(kernel.games, kernel.registry).fold(events[1:])
