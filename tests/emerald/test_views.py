"""Views are allow-lists: each seat sees the board, its own secrets and nothing else."""

from __future__ import annotations

import json
import random
from typing import Any

from events.envelope import Event, Visibility
from pbem.games.emerald import RULES
from tests.emerald.harness import Game, give, put, random_playout, start_card, started


def test_a_player_sees_the_board_their_hand_identity_and_sanity() -> None:
    g = Game.new(3, seed="view")
    v = RULES.view(g.state, 1)
    json.dumps(v)
    you = v["you"]
    assert [c["id"] for c in you["hand"]] == list(g.state.players[1].hand)
    assert you["identity_card"] == g.state.players[1].identity and you["sanity"] == 3
    assert you["deck_size"] == 5
    for other in (0, 2):
        entry = v["players"][other]
        assert entry["hand_size"] == 5 and entry["deck_size"] == 5 and entry["discard_size"] == 0
        assert "hand" not in entry and "identity_card" not in entry and "side" not in entry
    assert len(v["cities"]) == 9 and all(c["top"] is not None for c in v["cities"])
    assert all("stack" not in c for c in v["cities"])
    assert v["uses_assumed_data"] and "sanity_die.faces" in v["assumed"]


def test_a_spectator_sees_only_public_information() -> None:
    g = Game.new(2, seed="spectator")
    v = RULES.view(g.state, None)
    assert "you" not in v and "prompt" not in v
    text = json.dumps(v)
    for p in g.state.players:
        for card in p.hand:
            assert f'"id": {card},' not in text


def test_the_prompted_seat_sees_its_prompt() -> None:
    g = started()
    v = RULES.view(g.state, 0)
    assert v["prompt"]["kind"] == "turn" and v["prompt"]["default"] == {"kind": "pass"}
    assert "prompt" not in RULES.view(g.state, 1)


def test_after_the_game_everything_is_revealed() -> None:
    g = random_playout(3, 7)
    v = RULES.view(g.state, None)
    assert v["phase"] == "over" and v["outcome"]["winners"]
    for i, p in enumerate(g.state.players):
        assert v["players"][i]["identity_card"] == p.identity
        assert [c["id"] for c in v["players"][i]["hand"]] == list(p.hand)
    assert RULES.prompts(g.state) == {}


def test_describe_does_not_leak_hidden_events() -> None:
    g = Game.new(3, seed="describe")
    drawn = next(e for e in g.events if e.type == "emerald.CardsDrawn" and e.payload["seat"] == 0)
    mine = RULES.describe(drawn, 0)
    theirs = RULES.describe(drawn, 1)
    assert "draws" in mine and "(" in mine
    assert theirs == "seat 0 drew cards."
    ident = next(e for e in g.events if e.type == "emerald.IdentityDealt" and e.payload["seat"] == 2)
    side = ident.payload["identity"].capitalize()
    assert side not in RULES.describe(ident, 0) and side in RULES.describe(ident, 2)
    for e in g.events:
        assert isinstance(RULES.describe(e, None), str)


def _told(type_: str, payload: dict[str, Any], visibility: Visibility) -> Event:
    return Event("g", 1, type_, 1, payload, "seat:0", visibility, False, "", {}, "", "")


def test_a_draw_is_read_once_by_each_reader() -> None:
    """The drawer reads the cards and not the count again; everyone else reads the count and not "drew cards"."""
    private = _told("emerald.CardsDrawn", {"seat": 0, "cards": [301, 302]}, Visibility.to(0))
    public = _told("emerald.CardsDrawnCount", {"seat": 0, "count": 2}, Visibility.public())
    assert [RULES.repeats(e, 0) for e in (private, public)] == [False, True]
    assert [RULES.repeats(e, 1) for e in (private, public)] == [True, False]
    assert [RULES.repeats(e, None) for e in (private, public)] == [True, False]
    assert not RULES.repeats(_told("emerald.CardsPlayed", {"seat": 0, "cards": [301]}, Visibility.public()), 1)


def test_the_end_of_a_step_is_read_once_in_the_line_that_completes_the_action() -> None:
    """Moving agents ends with "done": the log says the action is completed, not also that Ann is done with it."""
    g = started()
    put(g, "paris", 0, agents=2)
    give(g, 0, start_card(0, "S008"), start_card(0, "S009"))
    g.do("move 2 agents using 208 209")
    g.do("move agent from Paris to St. Petersburg")
    done = g.do("done")
    assert g.types(done) == ["StepSet", "ActionCompleted"]
    assert [RULES.describe(e, 1) for e in done] == ["seat 0 is done with that action.", "seat 0 completes action 1."]
    read = [RULES.describe(e, seat) for e in done for seat in (0, 1, None) if not RULES.repeats(e, seat)]
    assert read == ["seat 0 completes action 1."] * 3  # every reader, once
    going_on = [e for e in g.events if e.type == "emerald.StepSet" and e.payload["step"]]
    assert going_on and not any(RULES.repeats(e, 1) for e in going_on)  # "goes on: moving agents" is read


def test_in_random_games_a_step_ends_only_where_another_line_of_the_command_follows_it() -> None:
    """What lets the log leave "done with that action" out: in every action of 20 random games that ends a step,
    a later event of the same action is read by every reader."""
    ended = 0
    for seed in range(20):
        g = Game.new(3 + seed % 3, seed=f"step-end-{seed}")
        chooser = random.Random(seed)
        while RULES.prompts(g.state):
            seat = next(iter(RULES.prompts(g.state)))
            legal = RULES.legal_actions(g.state, seat)
            events = g.act(seat, chooser.choice([a for a in legal if a["kind"] not in ("pass", "discard")] or legal))
            for n, event in enumerate(events):
                if event.type == "emerald.StepSet" and not event.payload["step"]:
                    ended += 1
                    for reader in (0, 1, None):
                        assert any(not RULES.repeats(e, reader) and RULES.describe(e, reader) for e in events[n + 1:])
    assert ended > 100
