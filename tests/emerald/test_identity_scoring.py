"""Secret identities, sanity, the end of the game and the final adjustment (with the rulebook examples)."""

from __future__ import annotations

from pbem.games.emerald import RULES
from pbem.games.emerald.scoring import adjusted
from pbem.games.emerald.state import Kill
from tests.emerald.harness import give, put, set_player, set_state, start_card, started

L, R = "loyalist", "restorationist"


def _kill_last_agent(victim_identity: str):  # type: ignore[no-untyped-def]
    g = started(die="blank")
    set_player(g, 1, identity=victim_identity)
    put(g, "paris", 0, cubes=1, agents=4)
    put(g, "paris", 1, agents=1)
    give(g, 0, start_card(0, "S002"))
    g.do("assassinate agent of bob in Paris with 202")
    events = g.do("decline", seat=1)              # bob is asked first, and lets it happen
    return g, events


def test_a_loyalist_who_loses_the_last_agent_reveals_and_places_agents_up_to_three() -> None:
    g, events = _kill_last_agent(L)
    assert "IdentityRevealed" in g.types(events) and "AgentsOwed" in g.types(events)
    prompts = RULES.prompts(g.state)
    assert list(prompts) == [1]
    assert prompts[1].kind == "interrupt" and prompts[1].topic == "emerald.loyalist_agents"
    assert prompts[1].default == {"kind": "place_agent", "city": "berlin"}
    g.do("place agent in Rome")
    g.do("place agent in Rome")
    g.do("place agent in Vienna")
    assert g.state.agents_on_board(1) == 3 and g.state.players[1].revealed
    assert list(RULES.prompts(g.state)) == [0] and g.state.actions_done == 1
    view = RULES.view(g.state, 2)
    assert view["players"][1]["side"] == L


def test_a_restorationist_who_loses_the_last_agent_ends_the_game() -> None:
    g, events = _kill_last_agent(R)
    assert g.types(events)[-2:] == ["IdentityRevealed", "GameEnded"]
    assert g.state.end_reason == "restorationist_revealed"
    assert RULES.prompts(g.state) == {}
    out = RULES.outcome(g.state)
    assert out is not None and set(out.scores) == {0, 1, 2}


def test_losing_the_last_sanity_token_reveals() -> None:
    g = started(die="insane")
    set_player(g, 1, identity=L, sanity=1)
    put(g, "rome", 1, agents=2)
    give(g, 0, 63)            # Terrors of the Night
    events = g.do("play Terrors of the Night: bob")
    assert g.types(events)[:5] == ["CardsPlayed", "SanityRolled", "SanityChanged", "IdentityRevealed", "AgentsOwed"]
    assert g.state.owed == ((1, 1),)


def test_mi_go_agents_count_as_on_the_board() -> None:
    g = started(die="blank")
    set_player(g, 1, identity=R, migo=1, stock_agents=9)
    put(g, "paris", 0, cubes=1, agents=4)
    put(g, "paris", 1, agents=1)
    give(g, 0, start_card(0, "S002"))
    events = g.do("assassinate agent of bob in Paris with 202")
    assert "IdentityRevealed" not in g.types(events) and g.state.phase == "play"


def test_reaching_the_victory_target_ends_the_game() -> None:
    g = started(players=3)
    set_player(g, 0, vp_neutral=23)
    give(g, 0, 16)            # Prince Kropotkin: two Restorationist steps, two points for everyone
    events = g.do("move markers: restorationist using 16")
    assert g.types(events)[-1] == "GameEnded" and g.state.end_reason == "victory_points"


def test_vp_types_are_one_total_while_identities_are_hidden() -> None:
    g = started()
    set_player(g, 0, vp_neutral=2, vp_resto=3, vp_loyal=4)
    v1 = RULES.view(g.state, 1)
    assert v1["players"][0]["vp"] == 9 and "vp_by_type" not in v1["players"][0]
    v0 = RULES.view(g.state, 0)
    assert v0["you"]["vp_by_type"] == {"neutral": 2, "restorationist": 3, "loyalist": 4}


# --- final adjustment --------------------------------------------------------------------------

def test_example_tuesday_a_loyalist_drops_pink_points_sixteen_to_twelve() -> None:
    g = started(players=2)
    set_player(g, 0, identity=R)   # Monday
    set_player(g, 1, identity=L, vp_neutral=8, vp_resto=1, kills=(Kill(20, 0, 4, "neutral"),))
    set_state(g, resto_track=3)
    assert g.state.total_vp(1) == 16
    assert adjusted(g.state)[1]["before_penalty"] == 12
    set_player(g, 0, identity=L)   # had Monday been a Loyalist, the Moran points go too
    assert adjusted(g.state)[1]["before_penalty"] == 8


def test_example_the_lowest_players_side_loses_five_and_wednesday_wins() -> None:
    g = started(players=4)
    for seat, ident, vp in ((0, R, 15), (1, L, 12), (2, L, 14), (3, R, 8)):
        set_player(g, seat, identity=ident, vp_neutral=vp)
    set_state(g, phase="over", end_reason="victory_points")
    out = RULES.outcome(g.state)
    assert out is not None
    assert out.scores == {0: 10, 1: 12, 2: 14, 3: 3}
    assert out.winners == (2,)
    assert out.breakdown[0]["lowest_side_penalty"] == -5 and out.breakdown[1]["lowest_side_penalty"] == 0


def test_ties_loyalist_counts_lower_and_restorationist_wins_then_joint_winners() -> None:
    g = started(players=4)
    for seat, ident, vp in ((0, R, 10), (1, L, 10), (2, L, 20), (3, R, 20)):
        set_player(g, seat, identity=ident, vp_neutral=vp)
    set_state(g, phase="over", end_reason="track")
    out = RULES.outcome(g.state)
    assert out is not None
    assert out.scores == {0: 10, 1: 5, 2: 15, 3: 20}     # the tied lowest Loyalist sinks the Loyalists
    assert out.winners == (3,)
    for seat, ident, vp in ((0, L, 30), (1, L, 30), (2, R, 5), (3, L, 12)):
        set_player(g, seat, identity=ident, vp_neutral=vp)
    out = RULES.outcome(g.state)
    assert out is not None and out.winners == (0, 1)


def test_tracks_points_go_to_the_side_whose_marker_is_higher() -> None:
    g = started(players=2)
    set_player(g, 0, identity=R)
    set_player(g, 1, identity=L)
    set_state(g, resto_track=1, loyal_track=4)
    rows = adjusted(g.state)
    assert (rows[0]["before_penalty"], rows[1]["before_penalty"]) == (0, 3)


def test_change_of_heart_and_hidden_royalty_at_the_end() -> None:
    g = started(players=2)
    set_player(g, 0, identity=L, flipped=True, vp_resto=5, vp_loyal=2)
    set_player(g, 1, identity=L, vp_loyal=7)
    rows = adjusted(g.state)
    assert rows[0]["side"] == R and rows[0]["before_penalty"] == 5
    assert rows[1]["before_penalty"] == 7
