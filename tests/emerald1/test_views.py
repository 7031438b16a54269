"""Views are built by adding what a seat may see: hands, identities, counters and decks stay private."""

from __future__ import annotations

import json
from typing import Any

from events.envelope import Event, Visibility
from pbem.games.emerald1 import RULES
from tests.emerald1.position import L, R, arrange, hand, side, started


def test_a_seat_sees_its_own_hand_identity_and_double_agents_and_only_counts_of_the_others() -> None:
    game = started()
    s = arrange(game)
    side(s, 0, L)
    side(s, 1, R)
    hand(s, 0, [35, 101, 102, 103, 104])
    hand(s, 1, [36, 201, 202, 203, 204])
    s.players[1].double_agents = [7, 9]
    view = RULES.view(game.state, 0)
    assert [c["number"] for c in view["you"]["hand"]] == [35, 101, 102, 103, 104]
    assert view["you"]["identity_card"] == L and view["you"]["side"] == L
    other = view["players"][1]
    assert other["hand_size"] == 5 and other["double_agents"] == 2
    assert "hand" not in other and "side" not in other and "identity_card" not in other
    text = json.dumps(view)
    assert '"number": 36' not in text and "restorationist" not in text


def test_the_spectator_sees_no_hand_and_nobody_sees_deck_order_stacks_or_counters_face_down() -> None:
    game = started()
    view = RULES.view(game.state, None)
    text = json.dumps(view)
    assert "you" not in view
    s = game.state
    for city, stack in s.stacks.items():
        for card in stack[1:]:
            assert f'"number": {card},' not in text
    assert "sanity_pool" not in text and "da_pool" not in text and view["sanity_left"] == 18


def test_the_prompt_is_only_in_the_view_of_the_seat_that_must_act() -> None:
    game = started()
    assert "prompt" in RULES.view(game.state, 0) and "prompt" not in RULES.view(game.state, 1)


def test_revealed_sides_are_public_and_at_the_end_everything_is_shown() -> None:
    game = started()
    s = arrange(game)
    side(s, 1, R)
    s.players[1].revealed = True
    assert RULES.view(game.state, 2)["players"][1]["side"] == R
    arrange(game, phase="over")
    view = RULES.view(game.state, None)
    assert all("hand" in p and "deck" in p and "identity_card" in p for p in view["players"])
    assert "stack" in view["cities"][0] and "boxed" in view and view["outcome"]["winners"]


def test_the_prompt_in_a_view_is_the_prompt_the_rules_give_in_whole_games() -> None:
    from pbem.games.emerald1.engine import prompt_json
    from tests.emerald1.harness import random_playout
    for players, seed in ((2, 3), (4, 5)):
        game = random_playout(players, seed)
        state = RULES.initial_state(game.config)
        for ev in game.events:
            state = RULES.evolve(state, ev)
            asked = RULES.prompts(state)
            assert prompt_json(state) == (next(iter(asked.values())).to_json() if asked else None)


def _told(type_: str, payload: dict[str, Any], visibility: Visibility) -> Event:
    return Event("g", 1, type_, 1, payload, "seat:0", visibility, False, "", {}, "", "")


def test_what_is_recorded_twice_is_read_once_by_each_reader() -> None:
    """A draw, and a taking of Double-agent counters: those who see the private event read it and not the count,
    the others the count and not "draws cards"; Irene Adler's theft is private to the thief and the robbed."""
    pairs = [("CardsDrawn", {"seat": 0, "cards": [5, 6]}, "CardsDrawnCount", {"seat": 0, "count": 2}),
             ("DoubleAgentsTaken", {"seat": 0, "agents": [3], "why": "setup"},
              "DoubleAgentsCount", {"seat": 0, "count": 1, "why": "setup"}),
             ("DoubleAgentsReturned", {"seat": 0, "agents": [3]}, "DoubleAgentsReturnedCount", {"seat": 0, "count": 1})]
    for private_type, private_payload, public_type, public_payload in pairs:
        private = _told(f"emerald1.{private_type}", private_payload, Visibility.to(0))
        public = _told(f"emerald1.{public_type}", public_payload, Visibility.public())
        assert [RULES.repeats(e, 0) for e in (private, public)] == [False, True], private_type
        assert [RULES.repeats(e, 1) for e in (private, public)] == [True, False], private_type
        assert [RULES.repeats(e, None) for e in (private, public)] == [True, False], private_type
    stolen = _told("emerald1.DoubleAgentStolen", {"seat": 0, "from_seat": 2, "agent": 4}, Visibility.to(0, 2))
    told = _told("emerald1.DoubleAgentStolenCount", {"seat": 0, "from_seat": 2}, Visibility.public())
    assert {s: [RULES.repeats(e, s) for e in (stolen, told)] for s in (0, 1, 2, None)} == {
        0: [False, True], 1: [True, False], 2: [False, True], None: [True, False]}
    assert not RULES.repeats(_told("emerald1.TurnStarted", {"seat": 0, "turn": 1}, Visibility.public()), 1)
