"""More rules from described positions: locked and destroyed cities, discs, sides, ends."""

from __future__ import annotations

from pbem.games.emerald1.moves import placeable, route_costs
from pbem.games.emerald1.scoring import final_scores
from tests.emerald1.position import (
    L, R, agent, arrange, cubes, display, hand, kinds, payloads, side, started, top,
)

SHOGGOTH, RACHKOVSKY, ZOMBIES = 51, 12, 61


def test_a_bismarck_city_cannot_be_claimed_and_only_its_controller_may_put_cubes_on_its_game_card() -> None:
    game = started(cities=["cairo", "cairo", "cairo"])
    s = arrange(game)
    s.owner["rome"] = 0
    s.bismarck["rome"] = 0
    cubes(s, "city:rome", 1, 3)
    s.active = 1
    assert {"kind": "claim", "target": "city:rome"} not in game.legal(1)
    top_card = game.state.top("rome")
    assert f"card:{top_card}" in placeable(game.state, 0) and f"card:{top_card}" not in placeable(game.state, 1)
    assert "city:rome" not in placeable(game.state, 0)


def test_cthulhu_may_destroy_a_bismarck_city_and_nobody_enters_or_crosses_it_after() -> None:
    game = started(cities=["cairo", "cairo", "cairo"])
    s = arrange(game)
    s.owner["zurich"] = 1
    s.bismarck["zurich"] = 1
    display(s, "cthulhu")
    cubes(s, f"card:{game.state.pe_display[-1]}", 0, 1)
    game.act(0, {"kind": "claim", "target": f"card:{game.state.pe_display[-1]}"})
    assert {"kind": "destroy", "city": "zurich"} in game.legal(0)
    game.act(0, {"kind": "destroy", "city": "zurich"})
    st = game.state
    assert "zurich" not in st.bismarck and "zurich" not in st.owner
    assert "zurich" not in route_costs(st, 0, "paris") and "city:zurich" not in placeable(st, 0)
    assert route_costs(st, 0, "paris")["vienna"] == 3           # round by The Hague and Berlin, not Zurich


def test_a_restorationist_main_agent_destroyed_by_a_shoggoth_ends_the_game() -> None:
    game = started(cities=["cairo", "rome", "cairo"])
    s = arrange(game)
    hand(s, 0, [SHOGGOTH, 101, 102, 103, 104])
    side(s, 1, R)
    s.players[1].known = True
    events = game.act(0, {"kind": "card", "card": SHOGGOTH, "agent": "m1"})
    assert payloads(events, "GameEnded")[0]["reason"] == "restorationist_main_agent_killed"
    assert game.state.players[0].kills == [["m1", 1]]


def test_a_kill_makes_the_killer_known_whatever_their_side() -> None:
    game = started(cities=["cairo", "rome", "cairo"])
    s = arrange(game)
    hand(s, 0, [SHOGGOTH, 101, 102, 103, 104])
    side(s, 0, R)
    side(s, 1, L)
    agent(s, 21, 1, "rome")                                      # Stieber: no VP for anyone
    s.players[1].known = True
    events = game.act(0, {"kind": "card", "card": SHOGGOTH, "agent": "21"})
    assert {"seat": 0} in payloads(events, "KnownToAuthorities")


def test_without_a_free_control_disc_no_double_agent_can_be_revealed() -> None:
    game = started(cities=["cairo", "rome", "cairo"])
    s = arrange(game)
    agent(s, 9, 1, "rome")
    s.players[0].double_agents = [9]
    assert {"kind": "double_agent", "agent": 9} in game.legal(0)
    for city in s.cat.city_ids:
        s.owner[city] = 0
    s.players[0].known = True
    s.royal["rome"] = [0, "assassinated"]
    assert game.state.discs_free(0) == 0
    assert {"kind": "double_agent", "agent": 9} not in game.legal(0)


def test_society_of_leopold_kills_a_restorationist_vampire_main_agent_and_ends_the_game() -> None:
    game = started(cities=["cairo", "rome", "cairo"])
    s = arrange(game)
    agent(s, "m1", 1, "rome", vampire=True)
    side(s, 1, R)
    card = display(s, "leopold")
    cubes(s, f"card:{card}", 0, 1)
    events = game.act(0, {"kind": "claim", "target": f"card:{card}"})
    assert payloads(events, "GameEnded")[0]["reason"] == "restorationist_main_agent_killed"


def test_change_of_heart_makes_a_loyalist_card_score_as_a_restorationist() -> None:
    game = started(players=2)
    s = arrange(game, phase="over", revolution_max=10, war_max=0)
    side(s, 0, L)
    side(s, 1, R)
    s.players[0].flipped = True
    out = final_scores(game.state)
    assert out.breakdown[0]["side"] == R and out.breakdown[0]["revolution track"] == 3
    assert out.winners == (0, 1)


def test_rachkovsky_with_one_counter_left_draws_what_is_left() -> None:
    game = started()
    s = arrange(game, da_pool=[22])
    top(s, "rome", RACHKOVSKY)
    cubes(s, f"card:{RACHKOVSKY}", 0, 1)
    before = len(game.state.players[0].double_agents)
    game.act(0, {"kind": "claim", "target": f"card:{RACHKOVSKY}"})
    assert len(game.state.players[0].double_agents) == before + 1 and not game.state.da_pool


def test_zombies_kill_only_agents_of_players_known_to_the_authorities() -> None:
    game = started(cities=["rome", "rome", "rome"])
    s = arrange(game)
    hand(s, 0, [ZOMBIES, 101, 102, 103, 104])
    s.zombies["rome"][0] = 1
    agent(s, 21, 1, "rome")                                      # Stieber and Rachkovsky: no VP, nobody known
    agent(s, 12, 2, "rome")
    s.players[2].known = True
    game.act(0, {"kind": "card", "card": ZOMBIES})
    targets = {a["agent"] for a in game.legal(0) if a["kind"] == "zombie_kill"}
    assert targets == {"12"}                                     # seat 2's Main Agent is shielded by agent 12


def test_an_exhausted_stack_with_no_permanent_effect_left_still_moves_war() -> None:
    game = started()
    s = arrange(game, pe_deck=[])
    top(s, "rome", 1)
    cubes(s, "card:1", 0, 1)
    events = game.act(0, {"kind": "claim", "target": "card:1"})
    assert "PEDisplayed" not in kinds(events) and game.state.war == 2


def test_a_marker_stops_at_the_top_and_the_game_ends_mid_claim() -> None:
    game = started()
    s = arrange(game, war=11)
    top(s, "rome", 1)
    cubes(s, "card:1", 0, 1)
    events = game.act(0, {"kind": "claim", "target": "card:1"})
    assert game.state.war == 12 and payloads(events, "GameEnded")[0]["reason"] == "war_track"
    assert "ActionDone" not in kinds(events)
