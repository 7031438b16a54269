"""Every card text, one scenario each ("Detailed Card Descriptions")."""

from __future__ import annotations

import pytest

from events.envelope import Visibility
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


def test_black_hand_scores_two_per_royalty_now_and_later() -> None:
    g = started(die="blank")
    give(g, 0, 169, where="kept")                 # The Spinner, assassinated earlier
    give(g, 0, 57, 39)
    g.do("play The Black Hand")
    assert g.state.players[0].vp_resto == 2 and 57 in g.state.players[0].kept
    put(g, "rome", 0, cubes=1, agents=5)
    slot(g, "rome", 170)                          # Rhogog
    g.do("assassinate royalty in Rome with 39")
    assert g.state.players[0].vp_resto == 2 + 4 + 2


def test_change_of_heart_changes_side_and_ends_the_game_if_already_revealed() -> None:
    g = started()
    set_player(g, 0, identity="loyalist")
    give(g, 0, 59)
    g.do("play Change of Heart")
    assert g.state.players[0].side == "restorationist" and 59 in g.state.players[0].kept
    g = started()
    set_player(g, 0, identity="loyalist", revealed=True)
    give(g, 0, 59)
    events = g.do("play Change of Heart")
    assert g.types(events)[-1] == "GameEnded" and g.state.end_reason == "restorationist_revealed"


def test_cthulhu_clears_a_city() -> None:
    g = started()
    put(g, "paris", 0, cubes=2, agents=1)
    put(g, "paris", 1, cubes=1, agents=2, zombies=1)
    put(g, "rome", 1, agents=1)
    stack = g.state.city("paris").stack
    give(g, 0, 31)
    g.do("play Cthulhu: Paris")
    g.do("decline", seat=1)                       # the one victim is asked (not ann: it is her Cthulhu)
    c = g.state.city("paris")
    assert c.stack == () and set(stack) <= set(g.state.removed)
    assert c.agents == (0, 0, 0) and c.cubes == (0, 0, 0) and c.zombies == (0, 0, 0)
    assert g.state.players[0].limbo == 7 and g.state.players[1].limbo == 6
    assert g.state.zombie_supply == 6 and 31 in g.state.players[0].kept   # Cthulhu scored VP when claimed


@pytest.mark.parametrize("card,name", [(29, "Doctor Watson"), (67, "The Diogenes Club")])
def test_draw_two_reshuffles_before_discarding_the_card(card: int, name: str) -> None:
    g = started()
    give(g, 0, card)
    give(g, 0, S(1), where="deck")
    give(g, 0, S(2), where="discard")
    events = g.do(f"play {name}")
    assert set(g.state.players[0].hand) == {S(1), S(2)}
    assert g.state.players[0].discard == (card,)
    shuffled = [e for e in events if e.type == "emerald.DeckShuffled"]
    assert shuffled[0].payload["order"] == [S(2)]


def test_duchess_claims_with_agents_only_as_a_first_or_second_action() -> None:
    g = started()
    put(g, "madrid", 0, agents=2)
    put(g, "madrid", 1, agents=1)
    give(g, 0, 3, S(5))
    g.do("pass")
    top_card = g.state.city("madrid").stack[0]
    g.do("play Duchess d'Uzès: Madrid")
    p = g.state.players[0]
    assert top_card in p.hand + p.deck + p.discard and 3 in g.state.removed
    assert g.state.active == 1      # it was the second action


def test_fenians_doubles_agents_and_is_one_use() -> None:
    g = started(die="blank")
    put(g, "paris", 0, cubes=1, agents=2)
    put(g, "paris", 1, agents=1)
    put(g, "rome", 1, agents=1)
    give(g, 0, 39, 32)
    g.do("assassinate agent of bob in Paris with 39 using 32")    # 2 agents x 2 = 4 bomb points
    g.do("decline", seat=1)
    assert 32 in g.state.removed and g.state.city("paris").agents[1] == 0


@pytest.mark.parametrize("card,name", [(35, "Freemasons"), (15, "Mrs Hudson")])
def test_discard_and_draw_one_more(card: int, name: str) -> None:
    g = started()
    give(g, 0, card, S(1), S(2))
    give(g, 0, S(3), S(4), S(5), where="deck")
    g.do(f"play {name}: discard 201 202")
    assert sorted(g.state.players[0].hand) == [S(3), S(4), S(5)]
    assert sorted(g.state.players[0].discard) == sorted([S(1), S(2), card])
    assert g.state.actions_done == 0


def test_hide_royalty_claims_royalty_as_loyalist_points_with_a_sanity_roll() -> None:
    g = started(die="insane")
    put(g, "paris", 0, cubes=1, agents=1)
    put(g, "paris", 1, cubes=1)
    put(g, "rome", 0, agents=1)
    slot(g, "paris", 169)
    give(g, 0, 36)
    g.do("play Hide Royalty: Paris")
    p = g.state.players[0]
    assert 169 in p.kept and 169 in p.hidden_royalty and p.vp_loyal == 4
    assert 36 in p.kept          # the Hide Royalty card lies on top of the Royalty card
    assert p.sanity == 2 and g.state.city("paris").agents[0] == 0
    assert g.state.players[1].stock_cubes == 5 and p.limbo == 6


def test_hired_assassin_is_an_ordinary_assassination_card() -> None:
    g = started()
    put(g, "paris", 0, agents=4)
    put(g, "paris", 1, agents=1)
    put(g, "rome", 1, agents=1)
    give(g, 0, 39)
    g.do("assassinate agent of bob in Paris with 39")
    g.do("decline", seat=1)
    assert [k.vp for k in g.state.players[0].kills] == [3]


def test_holy_brotherhood_retrieves_as_many_as_agents_or_as_close_as_possible() -> None:
    g = started()
    put(g, "paris", 0, agents=3)
    set_player(g, 0, migo=1, stock_agents=6)
    set_player(g, 0, limbo=2, stock_cubes=8)
    give(g, 0, 65)
    g.do("play The Holy Brotherhood")
    assert g.state.players[0].limbo == 0 and g.state.players[0].stock_cubes == 10


def test_infernal_machine_is_three_bombs_once() -> None:
    g = started()
    put(g, "paris", 0, cubes=1, agents=1)
    put(g, "paris", 1, agents=1)
    put(g, "rome", 1, agents=1)
    give(g, 0, 39, 46)
    g.do("assassinate agent of bob in Paris with 39 using 46")
    assert 46 in g.state.removed


def test_inspector_lestrade_returns_one_players_cubes() -> None:
    g = started()
    put(g, "paris", 1, cubes=3)
    put(g, "paris", 2, cubes=1)
    give(g, 0, 28)
    g.do("play Inspector Lestrade: cubes of bob in Paris")
    assert g.state.city("paris").cubes == (0, 0, 1) and g.state.players[1].stock_cubes == 5
    assert 28 in g.state.players[0].discard     # an Action card without points is discarded


def test_irene_adler_replaces_any_agent() -> None:
    g = started()
    put(g, "cairo", 1, agents=1)
    put(g, "rome", 1, agents=1)
    give(g, 0, 8)
    g.do("play Irene Adler: agent of bob in Cairo")
    g.do("decline", seat=1)
    assert g.state.city("cairo").agents == (1, 0, 0) and g.state.players[1].stock_agents == 9
    assert 8 in g.state.removed


def test_matvei_golovinski_moves_the_loyalist_marker_up_to_ten() -> None:
    g = started()
    set_state(g, loyal_track=9)
    give(g, 0, 13)
    events = g.do("play Matvei Golovinski")
    assert g.state.loyal_track == 10 and g.types(events)[-1] == "GameEnded"


def test_mi_go_takes_agents_off_and_puts_them_back_together_in_a_later_turn() -> None:
    g = started()
    put(g, "paris", 0, agents=1)
    put(g, "rome", 0, agents=1)
    give(g, 0, 48)
    g.do("play Mi-Go: agents from Paris and Rome")
    assert g.state.players[0].migo == 2 and g.state.agents_on_board(0) == 2
    assert not any(a["kind"] == "migo_return" for a in RULES.legal_actions(g.state, 0))
    g.do("pass")
    g.do("pass")
    set_state(g, active=0, turn=g.state.turn + 1)
    g.do("return Mi-Go agents to Vienna")
    assert g.state.city("vienna").agents[0] == 2 and g.state.players[0].migo == 0


def test_okhrana_moves_one_or_two_cubes_of_anyone_to_limbo() -> None:
    g = started()
    put(g, "paris", 1, cubes=2)
    put(g, "rome", 2, cubes=1)
    give(g, 0, 52)
    g.do("play Okhrana: cube of bob in Paris and cube of cat in Rome")
    assert g.state.players[1].limbo == 6 and g.state.players[2].limbo == 6
    put(g, "paris", 1, cubes=1)
    give(g, 0, 52)
    g.do("play Okhrana: 2 cubes of bob in Paris")
    assert g.state.city("paris").cubes[1] == 0 and g.state.players[1].limbo == 8


def test_the_peoples_will_retrieves_all_cubes_from_limbo() -> None:
    g = started()
    give(g, 0, 64)
    g.do("play The Peoples' Will")
    assert g.state.players[0].limbo == 0 and g.state.players[0].stock_cubes == 10


def test_pinkerton_agents_place_an_agent_anywhere() -> None:
    g = started()
    give(g, 0, 53)
    g.do("play Pinkerton Agents: in London")
    assert g.state.city("london").agents[0] == 1 and 53 in g.state.removed


def test_shoggoth_eliminates_another_players_agent_anywhere_and_scores_its_box() -> None:
    g = started()
    put(g, "vienna", 1, agents=1)
    put(g, "rome", 1, agents=1)
    put(g, "vienna", 0, agents=1)
    give(g, 0, 54)
    legal = [a for a in RULES.legal_actions(g.state, 0) if a.get("card") == 54]
    assert all(a["player"] != 0 for a in legal)
    g.do("play Shoggoth: agent of bob in Vienna")
    g.do("decline", seat=1)
    assert [k.vp for k in g.state.players[0].kills] == [3] and 54 in g.state.players[0].kept


def test_sigmund_freud_restores_sanity_and_moves_the_restorationist_marker() -> None:
    g = started()
    set_player(g, 0, sanity=1)
    set_state(g, sanity_stock=g.state.sanity_stock + 2)
    give(g, 0, 24)
    g.do("play Sigmund Freud")
    assert g.state.players[0].sanity == 3 and g.state.resto_track == 2


def test_society_of_leopold_removes_zombies_and_zombie_and_vampire_cards() -> None:
    g = started()
    put(g, "paris", 1, zombies=2)
    give(g, 1, 61, where="deck")
    give(g, 2, 62)
    set_player(g, 1, vp_neutral=3)
    set_player(g, 2, vp_neutral=3)
    give(g, 2, S(1) + 200, where="deck")          # seat 2's S001: the replacement card
    give(g, 0, 56)
    g.do("play Society of Leopold")
    s = g.state
    assert sum(s.city("paris").zombies) == 0 and s.zombie_supply == 4 and s.leopold
    assert {61, 62} <= set(s.removed)
    assert s.players[1].vp_neutral == 0 and s.players[2].vp_neutral == 0
    assert s.players[2].hand == (S(1) + 200,)


def test_terrors_of_the_night_forces_a_sanity_roll() -> None:
    g = started(die="insane")
    give(g, 0, 63)
    g.do("play Terrors of the Night: cat")
    assert g.state.players[2].sanity == 2 and 63 in g.state.players[0].discard   # an Action card (ruling 1)


def test_the_third_section_discards_the_top_card_of_a_space() -> None:
    g = started()
    stack = g.state.city("rome").stack
    give(g, 0, 60)
    g.do("play The Third Section: Rome")
    assert stack[0] in g.state.removed and g.state.city("rome").stack[:1] != stack[:1]
    assert g.state.actions_done == 0


def test_vampires_replace_an_agent_where_you_have_one() -> None:
    g = started()
    put(g, "rome", 0, agents=1)
    put(g, "rome", 1, agents=1)
    put(g, "paris", 1, agents=1)
    give(g, 0, 62)
    legal = [a for a in RULES.legal_actions(g.state, 0) if a.get("card") == 62]
    assert legal == [{"kind": "play", "card": 62, "player": 1, "city": "rome"}]
    g.do("play Vampires: agent of bob in Rome")
    g.do("decline", seat=1)
    assert g.state.city("rome").agents == (2, 0, 0) and 62 in g.state.players[0].kept


def test_vladimir_burtsev_looks_at_an_identity_only_the_looker_sees() -> None:
    g = started()
    give(g, 0, 26)
    events = g.do("play Vladimir Burtsev: cat")
    seen = [e for e in events if e.type == "emerald.IdentitySeen"]
    assert seen[0].visibility == Visibility.to(0) and seen[0].reveals
    assert RULES.view(g.state, 0)["you"]["seen"] == [{"seat": 2, "identity_card": g.state.players[2].identity}]
    assert "seen" not in str(RULES.view(g.state, 1)["players"])
    assert RULES.view(g.state, 1)["you"]["seen"] == []
    assert "looked" in RULES.describe(seen[0], 0) or "holds" in RULES.describe(seen[0], 0)
    assert g.state.players[2].identity not in RULES.describe(seen[0], 1)


def test_yog_sothoth_takes_agents_for_loyalist_points() -> None:
    g = started()
    put(g, "paris", 0, agents=2)
    put(g, "rome", 0, agents=1)
    set_player(g, 0, identity="loyalist")
    give(g, 0, 58)
    g.do("play Yog-Sothoth")
    with pytest.raises(IllegalAction):
        g.do("done")                     # at least one agent
    g.do("take agent from Paris")
    g.do("take agent from Paris")
    g.do("take agent from Rome")         # the last agent: a Loyalist reveals and places three
    s = g.state
    assert s.players[0].vp_loyal == 3 and s.players[0].yog == 3 and s.players[0].revealed
    assert s.owed == ((0, 3),)
    for _ in range(3):
        g.do("place agent in Cairo")
    assert g.state.actions_done == 1 and not g.state.pend()


def test_yog_sothoth_ends_with_the_reveal_the_new_agents_cannot_be_taken() -> None:
    g = started()
    put(g, "paris", 0, agents=1)
    put(g, "rome", 0, agents=1)
    set_player(g, 0, identity="loyalist")
    give(g, 0, 58)
    g.do("play Yog-Sothoth")
    g.do("take agent from Paris")
    events = g.do("take agent from Rome")         # the last agent: reveal, and the card's effect is over
    assert g.types(events) == ["AgentRemoved", "VPScored", "IdentityRevealed", "AgentsOwed", "StepSet",
                               "ActionCompleted"]
    assert events[-2].payload["step"] is None
    for _ in range(3):
        g.do("place agent in Cairo", seat=0)
    s = g.state
    assert s.pend() == {} and s.city("cairo").agents[0] == 3
    legal = RULES.legal_actions(s, 0)
    assert not [a for a in legal if a["kind"] in ("yog_take", "done")]
    assert s.players[0].vp_loyal == 2 and s.players[0].yog == 2 and s.actions_done == 1
    with pytest.raises(IllegalAction):
        g.do("take agent from Cairo", seat=0)


def test_zombies_remove_one_agent_per_zombie_city_then_place_two() -> None:
    g = started()
    put(g, "paris", 0, zombies=1)
    put(g, "paris", 1, agents=2)
    put(g, "rome", 0, zombies=2)
    put(g, "rome", 2, agents=1)
    put(g, "cairo", 2, agents=1)
    give(g, 0, 61)
    g.do("play Zombies")
    assert g.state.pend() == {"step": "zombie_remove", "cities": ["paris", "rome"]}
    g.do("kill agent of bob in Paris with zombies")
    g.do("decline", seat=1)
    g.do("skip")
    g.do("place zombie in London")
    g.do("place zombie in London")
    s = g.state
    assert s.city("paris").agents[1] == 1 and s.city("rome").agents[2] == 1
    assert s.city("london").zombies[0] == 2 and s.zombie_supply == 1 and s.actions_done == 1
    assert 61 in s.players[0].discard   # an Action card, points or not, goes to the discard pile (ruling 1)


def test_louise_michel_scores_a_restorationist_point_when_claimed() -> None:
    g = started()
    top(g, "paris", 11)
    put(g, "paris", 0, cubes=1)
    give(g, 0, S(5))
    g.do("claim Paris using 205")
    assert g.state.players[0].vp_resto == 1 and g.state.city("paris").agents[0] == 1


def test_cards_played_for_text_or_one_symbol_never_both() -> None:
    g = started()
    give(g, 0, 52)                      # Okhrana has a claim symbol and an action text
    put(g, "paris", 0, cubes=1)
    put(g, "rome", 1, cubes=1)
    uses = {a["kind"] for a in RULES.legal_actions(g.state, 0) if 52 in a.get("cards", []) or a.get("card") == 52}
    assert uses == {"claim", "play", "discard"}
    g.do("claim Paris using 52")
    assert g.state.city("rome").cubes[1] == 1
