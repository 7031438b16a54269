"""Every Game card's action, from a described position."""

from __future__ import annotations

from pbem.games.emerald1 import RULES
from tests.emerald1.position import agent, arrange, cubes, hand, kinds, payloads, sanity, started, top

BISMARCK, DIOGENES, DUCHESS, FREEMASONS, HOLY, LESTRADE, GOLOVINSKY, NADAR = 23, 25, 27, 29, 41, 45, 46, 47
SHOGGOTH, OKHRANA, PEOPLES, PINKERTON, TERRORS, THIRD, VAMPIRE, ZOMBIES = 51, 53, 55, 57, 58, 59, 60, 61
IRENE, RACHKOVSKY, BURTSEV, NECRO, BLACK_HAND = 6, 12, 20, 49, 24


def test_blocking_disc_stops_claims_and_can_be_removed() -> None:
    game = started()
    s = arrange(game)
    hand(s, 0, [109, 101, 102, 103, 104])
    cubes(s, "city:rome", 1, 2)
    game.act(0, {"kind": "card", "card": 109, "block": "city:rome"})
    assert game.state.blocking == ["city:rome"]
    s = arrange(game, active=1, actions_done=0)
    assert {"kind": "claim", "target": "city:rome"} not in game.legal(1)
    hand(s, 1, [209, 201, 202, 203, 204])
    assert {"kind": "card", "card": 209, "block": "city:rome"} not in game.legal(1)
    game.act(1, {"kind": "card", "card": 209, "unblock": "city:rome"})
    assert not game.state.blocking


def test_bismarck_locks_a_controlled_city_and_others_move_their_agents_out() -> None:
    game = started(cities=["rome", "rome", "cairo"])
    s = arrange(game)
    s.owner["rome"] = 0
    hand(s, 0, [BISMARCK, 101, 102, 103, 104])
    cubes(s, "city:rome", 0, 2)
    cubes(s, "city:rome", 1, 1)
    s.zombies["rome"][2] = 1
    game.act(0, {"kind": "card", "card": BISMARCK, "city": "rome"})
    assert game.who() == 1                              # Rome has three neighbours: seat 1 chooses
    assert {a["to"] for a in game.legal(1)} == {"cairo", "madrid", "zurich"}
    game.act(1, {"kind": "relocate", "agent": "m1", "to": "zurich"})
    st = game.state
    assert st.bismarck == {"rome": 0} and st.agents["m1"]["city"] == "zurich" and st.agents["m0"]["city"] == "rome"
    assert st.players[0].limbo == 2 and st.players[1].limbo == 1 and st.zombies["rome"] == [0, 0, 0]
    s = arrange(game, active=1)
    from pbem.games.emerald1.moves import placeable, route_costs
    assert "city:rome" not in placeable(game.state, 1) and "rome" not in route_costs(game.state, 1, "zurich")


def test_the_diogenes_club_draws_two_as_a_free_action() -> None:
    game = started()
    s = arrange(game)
    hand(s, 0, [DIOGENES, 101, 102, 103, 104])
    events = game.act(0, {"kind": "card", "card": DIOGENES})
    assert len(game.state.players[0].hand) == 6 and game.state.actions_done == 0 and game.state.free_used
    assert kinds(events)[-1] == "ActionDone" and DIOGENES in game.state.players[0].discard


def test_duchess_places_one_cube_and_is_used_once() -> None:
    game = started()
    s = arrange(game)
    hand(s, 0, [DUCHESS, 101, 102, 103, 104])
    game.act(0, {"kind": "card", "card": DUCHESS, "to": "city:cairo"})
    assert game.state.cube_list("city:cairo")[0] == 1 and DUCHESS in game.state.removed


def test_freemasons_discard_any_then_draw_as_many_plus_one() -> None:
    game = started()
    s = arrange(game)
    hand(s, 0, [FREEMASONS, 101, 102, 103, 104])
    events = game.act(0, {"kind": "card", "card": FREEMASONS, "discard": [101, 102], "shown": 101})
    p = game.state.players[0]
    assert len(p.hand) == 2 + 3 and p.discard[-3:] == [102, 101, FREEMASONS] and game.state.free_used
    assert payloads(events, "CardsDiscardedCount") == [{"seat": 0, "count": 2, "shown": 101}]
    assert not [e for e in events if e.type.endswith("CardsDiscarded") and e.visibility.allows(1)]


def test_holy_brotherhood_moves_one_or_two_cubes_from_limbo() -> None:
    game = started()
    s = arrange(game)
    hand(s, 0, [HOLY, 101, 102, 103, 104])
    s.players[0].limbo, s.players[0].pool = 2, s.players[0].pool - 2
    game.act(0, {"kind": "card", "card": HOLY, "from": "limbo", "to": "city:berlin", "count": 2})
    assert game.state.cube_list("city:berlin")[0] == 2 and game.state.players[0].limbo == 0


def test_inspector_lestrade_sends_one_players_cubes_in_a_city_box_to_their_limbo() -> None:
    game = started()
    s = arrange(game)
    hand(s, 0, [LESTRADE, 101, 102, 103, 104])
    cubes(s, "city:berlin", 1, 3)
    game.act(0, {"kind": "card", "card": LESTRADE, "city": "berlin", "player": 1})
    assert game.state.players[1].limbo == 3 and game.state.cube_list("city:berlin")[1] == 0


def test_golovinsky_moves_war_up_to_two_as_a_free_action() -> None:
    game = started()
    s = arrange(game)
    hand(s, 0, [GOLOVINSKY, 101, 102, 103, 104])
    game.act(0, {"kind": "card", "card": GOLOVINSKY, "steps": 2})
    assert game.state.war == 2 and game.state.actions_done == 0


def test_nadar_moves_an_agent_anywhere_for_free() -> None:
    game = started(cities=["washington", "cairo", "cairo"])
    s = arrange(game)
    hand(s, 0, [NADAR, 101, 102, 103, 104])
    game.act(0, {"kind": "card", "card": NADAR, "agent": "m0", "city": "st_petersburg"})
    assert game.state.agents["m0"]["city"] == "st_petersburg"


def test_shoggoth_destroys_an_agent_that_could_be_assassinated_and_the_killer_keeps_it() -> None:
    game = started()
    s = arrange(game)
    hand(s, 0, [SHOGGOTH, 101, 102, 103, 104])
    agent(s, 9, 1, "vienna")
    assert not [a for a in game.legal(0) if a.get("card") == SHOGGOTH]      # not yet known
    s = arrange(game)
    s.players[1].known = True
    assert [a["agent"] for a in game.legal(0) if a.get("card") == SHOGGOTH] == ["9"]
    game.act(0, {"kind": "card", "card": SHOGGOTH, "agent": "9"})
    assert game.state.players[0].kills == [["9", 1]] and SHOGGOTH in game.state.removed


def test_okhrana_sends_one_or_two_cubes_of_other_players_to_limbo() -> None:
    game = started()
    s = arrange(game)
    hand(s, 0, [OKHRANA, 101, 102, 103, 104])
    cubes(s, "city:berlin", 1, 1)
    cubes(s, "city:rome", 2, 1)
    game.act(0, {"kind": "card", "card": OKHRANA, "cubes": [["city:berlin", 1], ["city:rome", 2]]})
    assert game.state.players[1].limbo == 1 and game.state.players[2].limbo == 1


def test_peter_rachkovsky_draws_two_double_agents_when_claimed() -> None:
    game = started()
    s = arrange(game)
    top(s, "rome", RACHKOVSKY)
    cubes(s, f"card:{RACHKOVSKY}", 0, 1)
    before = len(game.state.players[0].double_agents)
    events = game.act(0, {"kind": "claim", "target": f"card:{RACHKOVSKY}"})
    assert len(game.state.players[0].double_agents) == before + 2
    private = [e for e in events if e.type == "emerald1.DoubleAgentsTaken"]
    assert private and not private[0].visibility.allows(1)


def test_the_peoples_will_takes_a_cube_from_the_pool_and_is_used_once() -> None:
    game = started()
    s = arrange(game)
    hand(s, 0, [PEOPLES, 101, 102, 103, 104])
    game.act(0, {"kind": "card", "card": PEOPLES})
    assert game.state.players[0].available == 7 and PEOPLES in game.state.removed and game.state.free_used


def test_pinkerton_draws_four_double_agents_keeps_two() -> None:
    game = started()
    s = arrange(game)
    hand(s, 0, [PINKERTON, 101, 102, 103, 104])
    before = list(game.state.players[0].double_agents)
    game.act(0, {"kind": "card", "card": PINKERTON})
    drawn = game.state.step["drawn"]
    assert len(drawn) == 4 and len([a for a in game.legal(0) if a["kind"] == "keep"]) == 6
    game.act(0, {"kind": "keep", "agents": drawn[:2]})
    assert sorted(game.state.players[0].double_agents) == sorted(before + drawn[:2])
    assert len(game.state.da_pool) == 22 - 9 - 2


def test_terrors_of_the_night_makes_a_player_draw_sanity() -> None:
    game = started()
    s = arrange(game)
    hand(s, 0, [TERRORS, 101, 102, 103, 104])
    sanity(s, "mad")
    game.act(0, {"kind": "card", "card": TERRORS, "player": 2})
    assert game.state.players[2].mad == 1


def test_the_third_section_removes_a_top_card_a_displayed_effect_or_a_hand_card_face_down() -> None:
    game = started()
    s = arrange(game)
    hand(s, 0, [THIRD, 101, 102, 62, 104])
    top(s, "rome", 9)
    cubes(s, "card:9", 1, 2)
    assert {"kind": "card", "card": THIRD, "remove": 62} not in game.legal(0)     # not a City card
    events = game.act(0, {"kind": "card", "card": THIRD, "stack": "rome"})
    st = game.state
    assert 9 in st.removed and st.agents["9"]["where"] == "gone" and st.players[1].limbo == 2
    assert st.war == 2 and "PEDisplayed" in kinds(events)                       # the stack is exhausted
    s = arrange(game)
    hand(s, 0, [THIRD, 101, 102, 62, 104])
    events = game.act(0, {"kind": "card", "card": THIRD, "remove": 101})
    assert [e.visibility.allows(1) for e in events if "Removed" in e.type] == [False, True]
    assert 101 in game.state.removed_secret and 101 not in game.state.removed


def test_vladimir_burtsev_shows_a_side_to_its_player_only() -> None:
    game = started(cities=["rome", "cairo", "cairo"])
    s = arrange(game)
    agent(s, BURTSEV, 0, "rome")
    hand(s, 0, [BURTSEV, 101, 102, 103, 104])
    events = game.act(0, {"kind": "card", "card": BURTSEV, "player": 2})
    seen = [e for e in events if e.type == "emerald1.IdentitySeen"][0]
    assert seen.visibility.allows(0) and not seen.visibility.allows(2) and not seen.visibility.allows(1)
    assert RULES.view(game.state, 0)["you"]["seen"] == [{"seat": 2, "side": game.state.players[2].side}]


def test_irene_adler_takes_an_unrevealed_counter_but_never_the_last() -> None:
    game = started(cities=["rome", "cairo", "cairo"])
    s = arrange(game)
    agent(s, IRENE, 0, "rome")
    hand(s, 0, [IRENE, 101, 102, 103, 104])
    s.players[1].double_agents = [3]
    s.players[2].double_agents = [4, 5]
    assert [a["player"] for a in game.legal(0) if a.get("card") == IRENE and "player" in a] == [2]
    events = game.act(0, {"kind": "card", "card": IRENE, "player": 2})
    st = game.state
    assert len(st.players[2].double_agents) == 1 and len(st.players[0].double_agents) == 4
    stolen = [e for e in events if e.type == "emerald1.DoubleAgentStolen"][0]
    assert stolen.visibility.allows(2) and stolen.visibility.allows(0) and not stolen.visibility.allows(1)


def test_vampire_flips_your_agent_and_converts_a_known_players_agent_beside_a_vampire() -> None:
    game = started(cities=["rome", "rome", "cairo"])
    s = arrange(game)
    hand(s, 0, [VAMPIRE, 101, 102, 103, 104])
    agent(s, 9, 1, "rome")
    hand(s, 1, [9, 201, 202, 203, 204])
    s.players[1].known = True
    assert not [a for a in game.legal(0) if "convert" in a]
    game.act(0, {"kind": "card", "card": VAMPIRE, "flip": "m0"})
    assert game.state.agents["m0"]["vampire"]
    s = arrange(game)
    hand(s, 0, [VAMPIRE, 101, 102, 103, 104])
    game.act(0, {"kind": "card", "card": VAMPIRE, "convert": "9"})
    st = game.state
    assert st.agents["9"] == {"owner": 0, "where": "board", "city": "rome", "vampire": True, "main": False}
    assert 9 in st.players[0].discard and len(st.players[1].hand) == 5
    assert VAMPIRE in st.players[0].discard                    # reusable


def test_zombies_kill_then_spread_and_the_game_ends_when_played_first_with_all_eight_out() -> None:
    game = started(cities=["rome", "rome", "cairo"])
    s = arrange(game)
    hand(s, 0, [ZOMBIES, 101, 102, 103, 104])
    game.act(0, {"kind": "card", "card": ZOMBIES})
    assert game.state.step["step"] == "zombie_place"          # no zombies yet: nothing to kill
    spots = {a["city"] for a in game.legal(0) if a["kind"] == "zombie_place"}
    assert spots == {"rome"}
    game.act(0, {"kind": "zombie_place", "city": "rome"})
    assert {a["city"] for a in game.legal(0) if a["kind"] == "zombie_place"} >= {"cairo", "madrid", "zurich"}
    game.act(0, {"kind": "zombie_place", "city": "zurich"})
    game.act(0, {"kind": "zombie_place", "city": "vienna"})
    assert game.state.zombies["vienna"][0] == 1 and not game.state.step
    s = arrange(game, actions_done=0, free_used=False)
    hand(s, 0, [ZOMBIES, 101, 102, 103, 104])
    s.players[1].known = True
    s.zombies["cairo"][0] = 1
    agent(s, 21, 2, "cairo")
    s.players[2].known = True
    game.act(0, {"kind": "card", "card": ZOMBIES})
    legal = game.legal(0)                                 # one kill in each city, in the order chosen
    assert {"kind": "zombie_kill", "city": "rome", "agent": "m1"} in legal
    assert {"kind": "zombie_kill", "city": "cairo", "agent": "21"} in legal
    game.act(0, {"kind": "zombie_kill", "city": "cairo", "agent": "21"})
    assert [a["city"] for a in game.legal(0) if a["kind"] == "zombie_kill"] == ["rome"]
    game.act(0, {"kind": "skip"})
    assert game.state.step["step"] == "zombie_place" and game.state.players[0].kills == [["21", 2]]
    s = arrange(game, actions_done=0, free_used=False, step={})
    hand(s, 0, [ZOMBIES, 101, 102, 103, 104])
    s.zombies["cairo"][0] = 0
    for c in ("berlin", "cairo", "london", "madrid", "paris"):
        s.zombies[c][0] = 1
    events = game.act(0, {"kind": "card", "card": ZOMBIES})
    assert game.state.phase == "over" and payloads(events, "GameEnded")[0]["reason"] == "zombies"


def test_necronomicon_and_the_black_hand_score() -> None:
    from pbem.games.emerald1.scoring import breakdown, public_score
    game = started()
    s = arrange(game)
    hand(s, 0, [NECRO, BLACK_HAND, 101, 102, 103])
    s.royal["rome"] = [0, "assassinated"]
    assert public_score(game.state, 0) == 3 + 4
    assert breakdown(game.state, 0, "restorationist")["the Black Hand"] == 2
