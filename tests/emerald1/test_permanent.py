"""Every Permanent Effect card, from a described position."""

from __future__ import annotations

from pbem.games.emerald1.moves import influence
from pbem.games.emerald1.scoring import breakdown
from tests.emerald1.position import (
    L, R, agent, arrange, cubes, display, hand, kinds, payloads, pe, sanity, side, started,
)

HIRED = 35


def claim_pe(game, effect):  # type: ignore[no-untyped-def]
    s = arrange(game)
    card = display(s, effect)
    cubes(s, f"card:{card}", 0, 1)
    return game.act(0, {"kind": "claim", "target": f"card:{card}"})


def test_change_of_heart_flips_the_side_at_once() -> None:
    game = started()
    s = arrange(game)
    side(s, 0, L)
    events = claim_pe(game, "change_of_heart")
    assert "SideChanged" in kinds(events) and game.state.players[0].side == R


def test_cthulhu_destroys_a_city_everyone_else_draws_sanity_and_main_agents_move_out() -> None:
    game = started(cities=["cairo", "rome", "cairo"])
    s = arrange(game)
    agent(s, 9, 2, "rome")
    s.owner["rome"] = 2
    cubes(s, "city:rome", 1, 2)
    sanity(s, "sane", "sane", "sane")
    events = claim_pe(game, "cthulhu")
    assert game.state.step == {"step": "cthulhu"} and payloads(events, "SanityDrawn")[0]["seat"] == 0
    stack = list(game.state.stacks["rome"])
    events = game.act(0, {"kind": "destroy", "city": "rome"})
    assert game.who() == 1 and {a["to"] for a in game.legal(1)} == {"cairo", "madrid", "zurich"}
    game.act(1, {"kind": "relocate", "agent": "m1", "to": "madrid"})
    st = game.state
    assert "rome" in st.destroyed and "rome" not in st.owner and st.agents["9"]["where"] == "gone"
    assert all(c in st.removed for c in stack + [69]) and st.players[1].pool == 14
    assert st.agents["m1"]["city"] == "madrid" and st.war == 2 and st.actions_done == 1
    assert [p["seat"] for p in payloads(events, "SanityDrawn")] == [1, 2]


def test_cultists_make_your_control_disc_count_two_influence() -> None:
    game = started(cities=["cairo", "cairo", "cairo"])
    s = arrange(game)
    s.owner["rome"] = 0
    cubes(s, "city:rome", 0, 1)
    assert influence(game.state, "city:rome", 0)[0] == 1
    pe(s, 0, "cultists")
    assert influence(game.state, "city:rome", 0)[0] == 3


def test_devils_island_plays_a_city_card_to_send_a_players_cubes_there_to_limbo() -> None:
    game = started()
    s = arrange(game)
    pe(s, 0, "devils_island")
    hand(s, 0, [62, 101, 102, 103, 104])
    cubes(s, "city:berlin", 1, 2)
    game.act(0, {"kind": "devils_island", "card": 62, "player": 1})
    assert game.state.players[1].limbo == 2 and game.state.free_used and game.state.actions_done == 0


def test_doctor_watson_refills_to_six() -> None:
    game = started()
    s = arrange(game)
    pe(s, 0, "watson")
    game.act(0, {"kind": "pass"})
    game.act(0, {"kind": "pass"})
    assert len(game.state.players[0].hand) == 6


def test_master_of_disguise_lets_an_attacked_agent_escape_with_its_card() -> None:
    game = started(cities=["rome", "cairo", "cairo"])
    s = arrange(game)
    hand(s, 0, [HIRED, 43, 106, 107, 108])
    agent(s, 9, 1, "rome")
    hand(s, 1, [9, 201, 202, 203, 204])
    pe(s, 1, "master_of_disguise")
    s.players[1].known = True
    game.act(0, {"kind": "card", "card": HIRED, "city": "rome", "target": "9", "bombs": [106, 107]})
    assert {"kind": "escape", "card": 9, "to": "zurich"} in game.legal(1)
    events = game.act(1, {"kind": "escape", "card": 9, "to": "zurich"})
    st = game.state
    assert st.agents["9"]["city"] == "zurich" and st.agents["9"]["owner"] == 1 and len(st.players[1].hand) == 5
    assert payloads(events, "AttackFoiled")[0]["how"] == "Master of Disguise" and not game.state.window


def test_master_of_disguise_lets_an_agent_escape_a_city_cthulhu_is_about_to_destroy() -> None:
    game = started(cities=["cairo", "cairo", "cairo"])
    s = arrange(game)
    agent(s, 9, 1, "rome")
    agent(s, 10, 1, "rome")
    hand(s, 1, [9, 201, 202, 203, 204])
    pe(s, 1, "master_of_disguise")
    claim_pe(game, "cthulhu")
    game.act(0, {"kind": "destroy", "city": "rome"})
    assert game.who() == 1 and game.state.window["effect"]["target"] == "10"
    assert game.legal(1) == [{"kind": "allow"}]               # asked although Marquis's card is not in hand
    game.act(1, {"kind": "allow"})
    game.act(1, {"kind": "escape", "card": 9, "to": "zurich"})
    st = game.state
    assert st.agents["9"]["city"] == "zurich" and st.agents["10"]["where"] == "gone" and "rome" in st.destroyed


def test_mi_go_keeps_up_to_two_agents_safe_and_returns_them_on_a_later_turn() -> None:
    game = started(cities=["rome", "cairo", "cairo"])
    s = arrange(game)
    pe(s, 0, "mi_go")
    agent(s, 9, 0, "rome")
    hand(s, 0, [9, 101, 102, 103, 104])
    game.act(0, {"kind": "mi_go", "card": 9})
    st = game.state
    assert st.agents["9"]["where"] == "migo" and 9 not in st.players[0].hand and st.free_used
    assert not [a for a in game.legal(0) if a["kind"] == "mi_go_return"]        # not the same turn
    arrange(game, turn=2)
    game.act(0, {"kind": "mi_go_return", "agent": "9", "to": "london"})
    assert game.state.agents["9"]["city"] == "london" and 9 in game.state.players[0].hand


def test_mrs_hudson_once_a_turn_discards_and_replaces_a_card() -> None:
    game = started()
    s = arrange(game)
    pe(s, 0, "mrs_hudson")
    hand(s, 0, [101, 102, 103, 104, 105])
    game.act(0, {"kind": "hudson", "card": 101})
    assert len(game.state.players[0].hand) == 5 and 101 in game.state.players[0].discard
    assert not [a for a in game.legal(0) if a["kind"] == "hudson"]


def test_sebastian_moran_adds_a_bomb_and_lets_every_agent_assassinate_agents() -> None:
    game = started(cities=["rome", "rome", "cairo"])
    s = arrange(game)
    agent(s, 8, 0, "rome")                                    # Leon Czolgosz: royalty only
    agent(s, 9, 1, "rome")
    hand(s, 0, [8, 106, 107, 108, 101])
    s.players[1].known = True
    assert not [a for a in game.legal(0) if a.get("card") == 8 and a.get("target") == "9"]
    pe(s, 0, "moran")
    sets = [a["bombs"] for a in game.legal(0) if a.get("card") == 8 and a.get("target") == "9"]
    assert sets == [[]]                                       # 1 + 1 + 1 (Moran) meets Rome's 3


def test_sigmund_freud_takes_five_mad_counters_to_reveal() -> None:
    game = started()
    s = arrange(game)
    pe(s, 0, "freud")
    side(s, 0, R)
    s.players[0].mad = 3
    sanity(s, "mad")
    s.active = 1
    hand(s, 1, [58, 201, 202, 203, 204])
    game.act(1, {"kind": "card", "card": 58, "player": 0})
    assert game.state.players[0].mad == 4 and game.state.phase == "play"


def test_three_mad_counters_reveal_a_restorationist_who_dies_and_ends_the_game() -> None:
    game = started()
    s = arrange(game, active=1)
    side(s, 0, R)
    s.players[0].mad = 2
    sanity(s, "mad")
    hand(s, 1, [58, 201, 202, 203, 204])
    events = game.act(1, {"kind": "card", "card": 58, "player": 0})
    assert kinds(events)[-3:] == ["IdentityRevealed", "AgentLost", "GameEnded"]
    assert payloads(events, "GameEnded")[0]["reason"] == "restorationist_mad"


def test_an_empty_sanity_pool_counts_as_mad_enough_and_a_revealed_loyalist_stops_drawing() -> None:
    game = started()
    s = arrange(game, active=1, sanity_pool=[])
    side(s, 0, L)
    hand(s, 1, [58, 201, 202, 203, 204])
    events = game.act(1, {"kind": "card", "card": 58, "player": 0})
    assert payloads(events, "SanityDrawn")[0]["result"] == "none" and game.state.players[0].revealed
    assert game.state.phase == "play"


def test_society_of_leopold_removes_vampires_and_zombies_and_voids_their_cards() -> None:
    game = started(cities=["cairo", "rome", "cairo"])
    s = arrange(game)
    agent(s, 9, 2, "rome", vampire=True)
    agent(s, "m1", 1, "rome", vampire=True)
    side(s, 1, L)
    s.zombies["paris"][2] = 2
    events = claim_pe(game, "leopold")
    st = game.state
    assert st.leopold and st.agents["9"]["where"] == "gone" and st.zombies["paris"] == [0, 0, 0]
    assert st.agents["m1"] == {"owner": 1, "where": "board", "city": "rome", "vampire": False, "main": True}
    assert st.players[1].revealed and "IdentityRevealed" in kinds(events)
    s = arrange(game, actions_done=0)
    hand(s, 0, [60, 61, 101, 102, 103])
    assert not [a for a in game.legal(0) if a.get("card") in (60, 61) and a["kind"] == "card"]


def test_yog_sothoth_sacrifices_your_non_main_agents_for_two_loyalist_vp() -> None:
    game = started(cities=["rome", "cairo", "cairo"])
    s = arrange(game)
    pe(s, 0, "yog_sothoth")
    agent(s, 9, 0, "rome")
    hand(s, 0, [9, 101, 102, 103, 104])
    game.act(0, {"kind": "sacrifice", "card": 9})
    st = game.state
    assert st.agents["9"]["where"] == "yog" and breakdown(st, 0, L)["Yog-Sothoth"] == 2 and st.actions_done == 1
