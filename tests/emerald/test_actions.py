"""The nine actions and the turn, one scenario each (rulebook examples included)."""

from __future__ import annotations

import pytest

from events.rules import IllegalAction
from pbem.games.emerald import RULES
from tests.emerald.harness import (
    give,
    put,
    set_player,
    set_state,
    slot,
    start_card,
    started,
    top,
)

S = lambda n: start_card(0, f"S{n:03d}")
T = lambda n: start_card(1, f"S{n:03d}")


# --- place influence cubes ---------------------------------------------------------------------

def test_place_example_monday_places_four_cubes_in_rome_with_three_cards() -> None:
    g = started(die="blank")
    set_player(g, 0, stock_cubes=5)
    give(g, 0, S(1), S(3), S(4))
    events = g.do("place 4 cubes in Rome using 201 203 204")
    assert g.types(events) == ["CardsPlayed", "CubesMoved", "ActionCompleted"]
    assert g.state.city("rome").cubes[0] == 4 and g.state.players[0].stock_cubes == 1
    assert sorted(g.state.players[0].discard) == [S(1), S(3), S(4)]
    assert g.state.actions_done == 1


def test_place_cannot_overpay_but_a_two_cube_card_may_place_one() -> None:
    g = started()
    set_player(g, 0, stock_cubes=2)
    give(g, 0, S(1), S(4))
    with pytest.raises(IllegalAction) as err:
        g.do("place 2 cubes in Paris using 201 204")
    assert "Legal now" in str(err.value)
    set_player(g, 0, stock_cubes=1)
    g.do("place 1 cube in Paris using 204")
    assert g.state.city("paris").cubes[0] == 1 and g.state.players[0].stock_cubes == 0


def test_place_puts_every_cube_in_one_city() -> None:
    g = started()
    give(g, 0, S(1), S(4))
    cities = {a["city"] for a in RULES.legal_actions(g.state, 0) if a["kind"] == "place" and a["count"] == 3}
    assert len(cities) == 9
    assert not any(a["kind"] == "place" and "cities" in a for a in RULES.legal_actions(g.state, 0))


# --- claim ------------------------------------------------------------------------------------

def test_claim_example_monday_claims_shoggoth() -> None:
    g = started(die="insane")
    shoggoth = 54
    top(g, "cairo", shoggoth)
    put(g, "cairo", 0, cubes=4, agents=1)
    put(g, "cairo", 1, cubes=2, agents=2)
    give(g, 0, S(5))
    events = g.do("claim Cairo using 205")
    assert g.types(events)[:5] == ["CardsPlayed", "CardClaimed", "CubesCleared", "CardRevealed", "SanityRolled"]
    assert "SanityChanged" in g.types(events)
    p0, p1 = g.state.players[0], g.state.players[1]
    assert shoggoth in p0.discard and S(5) in p0.discard
    assert p0.limbo == 5 + 4 and p0.sanity == 2
    assert p1.stock_cubes == 5   # her two cubes came back to her stock
    assert g.state.city("cairo").cubes == (0, 0, 0)
    assert g.state.city("cairo").agents == (1, 2, 0)


def test_claim_needs_most_pieces_and_a_cube_and_fails_on_a_tie() -> None:
    g = started()
    give(g, 0, S(5))
    put(g, "paris", 0, cubes=1, agents=1)
    put(g, "paris", 1, agents=2)                 # tie: no claim
    put(g, "rome", 0, agents=3)                  # no cube: no claim
    put(g, "madrid", 0, cubes=2)
    put(g, "madrid", 1, cubes=1)                 # most pieces with cubes: claim
    legal = [a for a in RULES.legal_actions(g.state, 0) if a["kind"] == "claim"]
    assert [a["cities"] for a in legal] == [["madrid"]]
    with pytest.raises(IllegalAction):
        g.do("claim Paris using 205")


def test_claim_only_as_the_first_action_but_after_free_actions() -> None:
    g = started()
    golovinski = 13
    give(g, 0, S(5), golovinski)
    put(g, "paris", 0, cubes=1)
    g.do("play Matvei Golovinski")
    assert g.state.loyal_track == 2 and g.state.actions_done == 0
    assert any(a["kind"] == "claim" for a in RULES.legal_actions(g.state, 0))
    g.do("pass")
    with pytest.raises(IllegalAction) as err:
        g.do("claim Paris using 205")
    assert "first action" in str(err.value)


def test_claim_several_cards_in_one_action() -> None:
    g = started()
    give(g, 0, S(5), S(6))
    put(g, "paris", 0, cubes=1)
    put(g, "rome", 0, cubes=1)
    paris_top, rome_top = g.state.city("paris").stack[0], g.state.city("rome").stack[0]
    g.do("claim Paris and Rome using 205 206")
    assert {paris_top, rome_top} <= set(g.state.players[0].discard)
    assert g.state.actions_done == 1
    assert g.state.players[0].limbo == 7


def test_claiming_a_place_agent_card_places_agents_and_scores() -> None:
    g = started(die="blank")
    malatesta, rachkovsky, bismarck = 7, 5, 1
    give(g, 0, S(5), S(6), 12)          # 12: Marquis de Rochefort, two claim symbols
    for city, card in (("paris", malatesta), ("rome", rachkovsky), ("vienna", bismarck)):
        top(g, city, card)
        put(g, city, 0, cubes=1)
    g.do("claim Paris and Rome and Vienna using 12 205")
    s = g.state
    assert s.city("paris").agents[0] == 1
    assert s.city("rome").agents[0] == 2         # Peter Rachkovsky places two
    assert s.players[0].vp_loyal == 2 and s.total_vp(0) == 2
    assert s.players[0].stock_agents == 7


# --- retrieve, move ---------------------------------------------------------------------------

def test_retrieve_example_tuesday_takes_three_cubes_from_limbo() -> None:
    g = started()
    give(g, 0, S(7), S(9))
    g.do("retrieve 3 cubes using 207 209")
    assert RULES.prompts(g.state)[0].kind == "turn"
    assert {a["kind"] for a in RULES.legal_actions(g.state, 0)} == {"take_cube"}
    for _ in range(3):
        g.do("take cube from Limbo")
    assert g.state.players[0].limbo == 2 and g.state.players[0].stock_cubes == 8
    assert g.state.actions_done == 1


def test_retrieve_from_several_places_and_only_what_is_on_the_board() -> None:
    g = started()
    set_player(g, 0, limbo=1, stock_cubes=8)
    put(g, "paris", 0, cubes=1)
    give(g, 0, S(7), S(9))
    counts = sorted(a["count"] for a in RULES.legal_actions(g.state, 0) if a["kind"] == "retrieve")
    assert counts == [1, 2]      # 207 alone (two symbols, two cubes) or 209 alone; both together overpay
    g.do("retrieve 2 cubes using 207")
    g.do("take cube from Paris")
    g.do("take cube from Limbo")
    assert g.state.players[0].stock_cubes == 9 and g.state.players[0].limbo == 0


def test_move_agents_any_city_to_any_city_and_fewer_than_paid() -> None:
    g = started()
    put(g, "paris", 0, agents=2)
    give(g, 0, S(8), S(9))
    g.do("move 2 agents using 208 209")
    g.do("move agent from Paris to St. Petersburg")
    g.do("done")
    assert g.state.city("st_petersburg").agents[0] == 1 and g.state.city("paris").agents[0] == 1
    assert g.state.actions_done == 1


# --- markers -----------------------------------------------------------------------------------

def test_markers_example_everyone_scores_the_difference() -> None:
    g = started()
    kropotkin, goldman, provocateur, asef = 16, 6, 37, 9
    give(g, 0, kropotkin, goldman)
    g.do("move markers: restorationist using 6 16")
    assert g.state.resto_track == 3
    assert [g.state.total_vp(s) - g.state.players[s].vp_resto for s in range(3)] == [3, 3, 3]
    give(g, 0, provocateur, asef)
    g.do("move markers: loyalist using 9 37")
    assert g.state.loyal_track == 3 and g.state.track_points() == 0


def test_markers_stop_at_ten_and_end_the_game_after_all_movement() -> None:
    g = started()
    set_state(g, resto_track=9, loyal_track=7)
    give(g, 0, 16, 6, 37)
    with pytest.raises(IllegalAction):
        g.do("move markers: restorationist using 6 16")      # the second card would be wasted
    events = g.do("move markers: restorationist using 16; loyalist using 37")
    assert (g.state.resto_track, g.state.loyal_track) == (10, 9)
    assert g.types(events)[-1] == "GameEnded" and g.state.end_reason == "track"
    assert RULES.prompts(g.state) == {} and RULES.outcome(g.state) is not None


# --- assassination -----------------------------------------------------------------------------

def _paris(g) -> None:  # type: ignore[no-untyped-def]
    put(g, "paris", 0, cubes=1, agents=2)
    put(g, "paris", 1, cubes=1, agents=1)
    slot(g, "paris", 169)   # The Spinner in the Darkness


def test_assassination_example_monday_assassinates_the_spinner() -> None:
    g = started(die="insane")
    _paris(g)
    put(g, "london", 1, agents=3)
    put(g, "london", 0, agents=1)
    give(g, 0, S(2), S(3), S(6), S(8))
    legal = [a for a in RULES.legal_actions(g.state, 0) if a["kind"] == "assassinate"]
    assert {a["city"] for a in legal} == {"paris"}           # not London: not the most pieces there
    events = g.do("assassinate royalty in Paris with 202 using 203 206 208")
    assert g.types(events) == ["CardsPlayed", "CardsPlayed", "RoyaltyTaken", "VPScored", "SanityRolled",
                               "SanityChanged", "AgentRemoved", "CubesCleared", "ActionCompleted"]
    s = g.state
    assert 169 in s.players[0].kept and S(2) in s.removed
    assert s.players[0].vp_resto == 4 and s.players[0].sanity == 2
    assert s.city("paris").agents == (1, 1, 0) and s.city("paris").royalty == 0
    assert s.players[0].limbo == 6 and s.players[1].stock_cubes == 5
    assert sorted(s.players[0].discard) == [S(3), S(6), S(8)]


def test_assassinating_an_agent_with_a_vp_box_keeps_the_agent_on_the_card() -> None:
    g = started(die="blank")
    _paris(g)
    give(g, 0, S(2), S(3), S(6))
    g.do("assassinate agent of bob in Paris with 202 using 203 206")
    g.do("decline", seat=1)                       # bob is always asked; holding nothing, he lets it happen
    s = g.state
    assert s.city("paris").agents[1] == 0 and s.players[1].stock_agents == 9
    assert [(k.card, k.victim, k.vp) for k in s.players[0].kills] == [(S(2), 1, 3)]
    assert S(2) in s.players[0].kept and s.total_vp(0) == 3


def test_assassinating_without_a_box_returns_the_agent_and_the_enabling_bombs_do_not_count() -> None:
    g = started()
    _paris(g)
    nechaev = 4
    give(g, 0, nechaev, S(3), S(6))
    legal = [a for a in RULES.legal_actions(g.state, 0) if a["kind"] == "assassinate" and a["target"] == 1]
    assert legal == [{"kind": "assassinate", "city": "paris", "target": 1, "card": 4, "bombs": [203, 206]}]
    g.do("assassinate agent of bob in Paris with 4 using 203 206")
    g.do("decline", seat=1)
    assert g.state.players[1].stock_agents == 10 and nechaev in g.state.removed


def test_assassination_bombs_cannot_overpay() -> None:
    g = started()
    _paris(g)
    give(g, 0, S(2), S(3), S(6), S(8))
    with pytest.raises(IllegalAction):
        g.do("assassinate agent of bob in Paris with 202 using 203 206 208")


def test_several_assassinations_in_one_action_in_the_chosen_order() -> None:
    g = started(die="blank")
    _paris(g)
    put(g, "paris", 2, agents=1)
    put(g, "rome", 2, agents=1)       # not cat's last agent: no reveal
    put(g, "paris", 0, agents=3)      # five agents: every assassination is paid by agents alone
    give(g, 0, S(2), 39)
    g.do("assassinate agent of cat in Paris with 39")
    g.do("decline", seat=2)
    assert g.state.pend() == {"step": "assassinate_more"}
    g.do("assassinate royalty in Paris with 202")
    s = g.state
    assert s.city("paris").agents[2] == 0 and 169 in s.players[0].kept
    assert s.actions_done == 1


# --- discard, pass, end of turn ----------------------------------------------------------------

def test_discard_and_pass_then_draw_back_to_five_with_a_reshuffle() -> None:
    g = started()
    give(g, 0, S(1), S(3), S(4))
    give(g, 0, S(5), S(6), where="deck")
    give(g, 0, S(7), S(8), S(9), S(10), where="discard")
    g.do("discard 201 203")
    assert len(g.state.players[0].hand) == 1            # no drawing until the end of the turn
    events = g.do("pass")
    assert g.types(events) == ["ActionCompleted", "CardsDrawn", "CardsDrawnCount", "DiscardReshuffled",
                               "DeckShuffled", "CardsDrawn", "CardsDrawnCount", "TurnStarted"]
    assert len(g.state.players[0].hand) == 5
    assert g.state.active == 1 and g.state.turn == g.events[-1].payload["turn"]


def test_free_actions_do_not_count_and_pass_is_always_possible() -> None:
    g = started()
    give(g, 0, 29, 13)    # Doctor Watson, Matvei Golovinski
    give(g, 0, S(1), S(2), where="deck")
    g.do("play Doctor Watson")
    assert g.state.actions_done == 0 and set(g.state.players[0].hand) == {13, S(1), S(2)}
    assert 29 in g.state.players[0].discard
    assert {"kind": "pass"} in RULES.legal_actions(g.state, 0)


def test_move_example_monday_moves_three_agents_to_st_petersburg() -> None:
    g = started()
    put(g, "paris", 0, agents=2)
    put(g, "rome", 0, agents=1)
    give(g, 0, S(8), S(9), 9)          # 9: Evno Asef, two move symbols
    legal = [a for a in RULES.legal_actions(g.state, 0) if a["kind"] == "move" and a["count"] == 3]
    assert [a["cards"] for a in legal] == [[9, S(8)], [9, S(9)]]   # 208+209+9 would overpay
    g.do("move 3 agents using 9 208")
    for origin in ("Paris", "Paris", "Rome"):
        g.do(f"move agent from {origin} to St. Petersburg")
    assert g.state.city("st_petersburg").agents[0] == 3 and g.state.actions_done == 1


def test_claim_example_thursday_could_claim_in_three_cities_but_not_cairo() -> None:
    g = started(players=4)
    put(g, "paris", 3, cubes=1, agents=1)
    put(g, "madrid", 3, cubes=2)
    put(g, "madrid", 0, cubes=1)
    put(g, "constantinople", 3, cubes=1)
    put(g, "cairo", 3, agents=2)
    set_state(g, active=3)
    give(g, 3, start_card(3, "S005"), start_card(3, "S006"), 12)
    legal = [a for a in RULES.legal_actions(g.state, 3) if a["kind"] == "claim"]
    assert max(len(a["cities"]) for a in legal) == 3
    assert {c for a in legal for c in a["cities"]} == {"paris", "madrid", "constantinople"}
    g.do("claim Constantinople and Madrid and Paris using 12 505")
    assert g.state.players[3].limbo == 5 + 4 and g.state.players[0].stock_cubes == 5


def test_free_actions_may_follow_the_second_action_then_the_turn_ends() -> None:
    g = started()
    give(g, 0, 29, 60, S(1))          # Doctor Watson and The Third Section: free actions
    give(g, 0, S(2), S(3), where="deck")
    g.do("pass")
    g.do("pass")
    assert g.state.pend() == {"step": "end_of_turn"} and g.state.active == 0
    assert RULES.prompts(g.state)[0].default == {"kind": "done"}
    assert {a["kind"] for a in RULES.legal_actions(g.state, 0)} == {"play", "done"}
    g.do("play Doctor Watson")
    assert g.state.active == 0            # The Third Section is still there to play
    g.do("end turn")
    assert g.state.active == 1 and len(g.state.players[0].hand) == 5


def test_the_last_free_action_after_the_second_action_ends_the_turn() -> None:
    g = started()
    give(g, 0, 13, S(1))                  # Matvei Golovinski
    g.do("pass")
    g.do("pass")
    g.do("play Matvei Golovinski")
    assert g.state.active == 1 and g.state.loyal_track == 2


def test_the_option_can_end_the_turn_at_once_after_the_second_action() -> None:
    from dataclasses import replace
    g = started()
    g.state = replace(g.state, free_after_actions=False)
    give(g, 0, 13)
    g.do("pass")
    g.do("pass")
    assert g.state.active == 1
