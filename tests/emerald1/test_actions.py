"""The basic actions, each from a described position, with the rulebook's worked examples."""

from __future__ import annotations

import pytest

from events.rules import IllegalAction
from pbem.games.emerald1 import RULES
from pbem.games.emerald1.scoring import public_score
from tests.emerald1.position import (
    R, agent, arrange, cubes, display, hand, kinds, payloads, sanity, side, started, top,
)

HIRED, IM, NECRO, KRAV, MORIARTY, RECLUS, SHOGGOTH = 35, 43, 49, 16, 14, 2, 51


def test_setup_deals_identities_stacks_counters_and_hands_by_player_count() -> None:
    from tests.emerald1.harness import Game
    for players, stack, das in ((2, 3, 4), (3, 3, 3), (4, 4, 2), (5, 4, 2)):
        s = Game.new(players, seed=f"setup{players}").state
        assert all(len(st) == stack for st in s.stacks.values())
        assert len(s.boxed) == 61 - 12 * stack
        assert len(s.pe_display) == 2 and len(s.pe_deck) == 10
        assert [len(p.double_agents) for p in s.players] == [das] * players
        assert all(len(p.hand) == 5 and len(p.deck) == 5 for p in s.players)
        assert all((p.available, p.pool) == (6, 14) for p in s.players)
        assert len(s.sanity_pool) == 18 and s.war == s.revolution == 0
        assert s.phase == "setup" and s.setup_queue == s.seat_order_from(s.first)
        for city, st in s.stacks.items():
            if s.cat.cards[st[0]].kind == "agent":
                assert s.agents[str(st[0])] == {"owner": None, "where": "card", "city": city, "vampire": False,
                                                "main": False}


def test_main_agents_are_placed_in_player_order_human_side_up_then_the_first_player_begins() -> None:
    from tests.emerald1.harness import Game
    game = Game.new(3, seed="order")
    first = game.state.first
    assert game.who() == first
    game.start(["berlin", "berlin", "cairo"])
    s = game.state
    assert s.phase == "play" and s.active == first and s.turn == 1
    assert [s.agents[f"m{i}"]["city"] for i in range(3)] == ["berlin", "berlin", "cairo"]
    assert not any(s.agents[f"m{i}"]["vampire"] for i in range(3))


def test_place_cubes_all_in_one_place_and_a_two_cube_card_places_one_when_one_is_left() -> None:
    game = started()
    s = arrange(game)
    hand(s, 0, [101, 103, 102, 104, 105])
    events = game.act(0, {"kind": "place", "cards": [101, 103], "to": "city:berlin"})
    assert payloads(events, "CubesMoved") == [{"seat": 0, "from": "available", "to": "city:berlin", "count": 3}]
    assert game.state.cube_list("city:berlin")[0] == 3 and game.state.players[0].available == 3
    s = arrange(game)
    s.players[0].available = 1
    s.players[0].pool += 2
    hand(s, 0, [103, 102, 104, 105])
    legal = game.legal(0)
    assert {"kind": "place", "cards": [103], "to": "city:rome"} in legal
    assert {"kind": "place", "cards": [103, 105], "to": "city:rome"} not in legal   # no deliberate overplay
    events = game.act(0, {"kind": "place", "cards": [103], "to": "city:rome"})
    assert payloads(events, "CubesMoved")[0]["count"] == 1


def test_example_one_claim_tie_broken_by_agents_cubes_to_limbo_and_home_and_a_sanity_draw() -> None:
    game = started(cities=["cairo", "cairo", "paris"])
    s = arrange(game)
    top(s, "berlin", SHOGGOTH, [1])
    agent(s, "m0", 0, "berlin")
    cubes(s, f"card:{SHOGGOTH}", 0, 3)
    cubes(s, f"card:{SHOGGOTH}", 1, 4)
    cubes(s, "city:berlin", 1, 1)
    sanity(s, "sane")
    assert {"kind": "claim", "target": "city:berlin"} not in game.legal(0)   # no cube in the City box
    events = game.act(0, {"kind": "claim", "target": f"card:{SHOGGOTH}"})
    assert kinds(events)[:6] == ["CardClaimed", "CubesCleared", "TopTurned", "SanityDrawn", "ActionDone",
                                 "KnownToAuthorities"][:4] + kinds(events)[4:6]
    st = game.state
    assert SHOGGOTH in st.players[0].discard and st.top("berlin") == 1
    assert st.players[0].limbo == 3 and st.players[1].available == 6 + 4
    assert payloads(events, "SanityDrawn") == [{"seat": 0, "result": "sane", "why": "Shoggoth"}]
    assert st.agents["1"]["where"] == "card"       # the next card, an agent, carries its counter


def test_example_two_claiming_berlin_scores_six_and_a_single_cube_would_not_beat_one_agent() -> None:
    game = started(cities=["berlin", "cairo", "cairo"])
    s = arrange(game)
    cubes(s, "city:berlin", 1, 1)
    s.active = 1
    assert {"kind": "claim", "target": "city:berlin"} not in game.legal(1)   # 1 cube v. Monday's agent: a tie he loses
    s = arrange(game)
    cubes(s, "city:berlin", 1, 2)
    events = game.act(1, {"kind": "claim", "target": "city:berlin"})
    st = game.state
    assert st.owner["berlin"] == 1 and public_score(st, 1) == 6 and 62 in st.players[1].discard
    assert payloads(events, "CubesCleared") == [{"place": "city:berlin", "claimer": 1}]
    assert st.players[1].limbo == 2


def test_a_claim_only_as_the_first_action_and_not_after_a_free_action() -> None:
    game = started()
    s = arrange(game)
    cubes(s, "city:rome", 0, 1)
    s.actions_done = 1
    with pytest.raises(IllegalAction, match="only with your first action"):
        game.act(0, {"kind": "claim", "target": "city:rome"})
    s = arrange(game, actions_done=0, free_used=True)
    assert not [a for a in game.legal(0) if a["kind"] == "claim"]


def test_claiming_a_city_from_its_owner_takes_the_card_from_their_hand_with_a_replacement_and_moves_the_vp() -> None:
    game = started(cities=["cairo", "cairo", "cairo"])
    s = arrange(game)
    s.owner["rome"] = 1
    hand(s, 1, [69, 201, 202, 203, 204])
    cubes(s, "city:rome", 0, 1)
    events = game.act(0, {"kind": "claim", "target": "city:rome"})
    st = game.state
    assert st.owner["rome"] == 0 and 69 in st.players[0].discard and 69 not in st.players[1].hand
    assert len(st.players[1].hand) == 5 and "CardsDrawn" in kinds(events)
    assert public_score(st, 0) == 4 and public_score(st, 1) == 0


def test_claiming_an_agent_puts_its_counter_in_the_city_and_an_emptied_stack_moves_war_two_and_shows_a_pe() -> None:
    game = started()
    s = arrange(game)
    top(s, "rome", KRAV)
    cubes(s, f"card:{KRAV}", 0, 1)
    shown = s.pe_deck[0]
    events = game.act(0, {"kind": "claim", "target": f"card:{KRAV}"})
    st = game.state
    assert st.agents[str(KRAV)] == {"owner": 0, "where": "board", "city": "rome", "vampire": False, "main": False}
    assert st.war == 2 and shown in st.pe_display and not st.stacks["rome"]
    assert payloads(events, "MarkerMoved") == [{"track": "war", "from": 0, "to": 2}]


def test_permanent_effects_give_agents_no_influence_and_are_not_replaced() -> None:
    game = started()
    s = arrange(game)
    card = display(s, "watson")
    cubes(s, f"card:{card}", 0, 1)
    cubes(s, f"card:{card}", 1, 1)
    before = len(game.state.pe_display)
    game.act(0, {"kind": "claim", "target": f"card:{card}"})
    assert card in game.state.players[0].pes and len(game.state.pe_display) == before - 1


def test_retrieve_takes_cubes_from_any_places_and_buy_spends_gold_in_twos() -> None:
    game = started()
    s = arrange(game)
    hand(s, 0, [103, 104, 102, 105, 108])
    cubes(s, "city:rome", 0, 1)
    s.players[0].limbo, s.players[0].pool = 1, s.players[0].pool - 1
    game.act(0, {"kind": "retrieve", "cards": [103]})
    assert {"kind": "take", "from": "limbo"} in game.legal(0)
    game.act(0, {"kind": "take", "from": "limbo"})
    game.act(0, {"kind": "take", "from": "city:rome"})
    assert game.state.players[0].available == 8 and game.state.actions_done == 1
    legal = game.legal(0)
    assert {"kind": "buy", "cards": [102]} not in legal and {"kind": "buy", "cards": [102, 108]} in legal
    events = game.act(0, {"kind": "buy", "cards": [104]})
    assert payloads(events, "CubesMoved") == [{"seat": 0, "from": "pool", "to": "available", "count": 1}]


def test_example_three_agents_move_to_paris_for_four_gold_along_the_cheapest_routes() -> None:
    game = started(cities=["london", "cairo", "cairo"])
    s = arrange(game)
    agent(s, MORIARTY, 0, "zurich")
    agent(s, RECLUS, 0, "madrid")
    hand(s, 0, [104, 102, 105, 101, 103])
    from pbem.games.emerald1.moves import route_costs
    assert route_costs(game.state, 0, "london")["paris"] == 1
    assert route_costs(game.state, 0, "madrid")["paris"] == 2
    assert route_costs(game.state, 0, "london")["washington"] == 3      # one junction, one price
    assert route_costs(game.state, 0, "cairo")["madrid"] == 2
    game.act(0, {"kind": "move", "agent": "m0", "to": "paris"})
    game.act(0, {"kind": "move", "agent": str(MORIARTY), "to": "paris"})
    game.act(0, {"kind": "move", "agent": str(RECLUS), "to": "paris"})
    legal = game.legal(0)
    assert sorted(a["cards"] for a in legal if a["kind"] == "pay") == [[102, 104, 105]]
    game.act(0, {"kind": "pay", "cards": [102, 104, 105]})
    assert [game.state.agents[k]["city"] for k in ("m0", str(MORIARTY), str(RECLUS))] == ["paris"] * 3


def test_a_single_two_gold_card_may_pay_a_cost_of_one() -> None:
    game = started(cities=["london", "cairo", "cairo"])
    s = arrange(game)
    hand(s, 0, [104, 101, 103, 106, 107])
    game.act(0, {"kind": "move", "agent": "m0", "to": "paris"})
    assert [a for a in game.legal(0) if a["kind"] == "pay"] == [{"kind": "pay", "cards": [104]}]


def test_example_markers_one_arrow_per_card_never_below_zero() -> None:
    game = started()
    s = arrange(game)
    hand(s, 0, [66, 13, RECLUS, 101, 102])
    plays = [a["plays"] for a in game.legal(0) if a["kind"] == "markers"]
    assert [[2, 0], [13, 0], [66, 0]] in plays
    assert not any([66, 1] in p for p in plays)        # War is at 0: London's down arrow cannot move it
    events = game.act(0, {"kind": "markers", "plays": [[2, 0], [13, 0], [66, 0]]})
    assert game.state.revolution == 5 and len(payloads(events, "MarkerMoved")) == 3


def test_discard_may_hide_all_but_the_card_left_showing() -> None:
    game = started()
    s = arrange(game)
    hand(s, 0, [101, 102, 103, 104, 105])
    events = game.act(0, {"kind": "discard", "cards": [101, 102, 103], "shown": 102})
    public = [e for e in events if e.visibility.allows(1) and e.type.endswith("Discarded")]
    assert not public
    assert payloads(events, "CardsDiscardedCount") == [{"seat": 0, "count": 3, "shown": 102}]
    assert game.state.players[0].discard[-1] == 102
    assert RULES.view(game.state, 1)["players"][0]["discard_top"]["id"] == 102
    assert "discard" not in RULES.view(game.state, 1)["players"][0]


def test_reveal_identity_only_when_it_ends_the_game() -> None:
    game = started(players=2)
    s = arrange(game, revolution_max=10, revolution=10)
    side(s, 0, R)
    for city in ("berlin", "london", "paris", "vienna"):
        s.owner[city] = 0
    agent(s, RECLUS, 0, "paris")
    assert public_score(game.state, 0) == 22             # 22 + 3 (Revolution) + 2 (Reclus) = 27 < 28
    assert {"kind": "reveal"} not in game.legal(0)
    s = arrange(game)
    agent(s, 13, 0, "paris")                              # Kropotkin: 2 more
    assert {"kind": "reveal"} in game.legal(0)
    events = game.act(0, {"kind": "reveal"})
    assert kinds(events)[-1] == "GameEnded" and payloads(events, "GameEnded")[0]["reason"] == "victory_points"
    assert payloads(events, "IdentityRevealed")[0]["side"] == R
    assert RULES.outcome(game.state).scores[0] == 29


def test_pass_uses_an_action_and_two_actions_end_the_turn_with_the_refill() -> None:
    game = started()
    s = arrange(game)
    hand(s, 0, [101, 102, 103])
    game.act(0, {"kind": "pass"})
    events = game.act(0, {"kind": "pass"})
    assert len(game.state.players[0].hand) == 5 and game.state.active == 1
    assert kinds(events)[-1] == "TurnStarted"


def test_example_agent_monday_places_three_cubes_on_the_shoggoth_with_three_one_cube_cards() -> None:
    game = started()
    s = arrange(game)
    top(s, "vienna", 51)
    hand(s, 0, [101, 106, 107, 103, 104])
    events = game.act(0, {"kind": "place", "cards": [101, 106, 107], "to": "card:51"})
    assert payloads(events, "CardsPlayed") == [{"seat": 0, "cards": [101, 106, 107], "use": "cubes", "to": "discard"}]
    assert game.state.cube_list("card:51") == [3, 0, 0] and game.state.players[0].available == 3
    assert {"kind": "place", "cards": [103], "to": "card:51"} in game.legal(0)       # more cubes may join them
