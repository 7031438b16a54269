"""One scenario per Random Event, with the die's faces given (1 Chelsea, 2 Westminster, 3 West End, 4 Strand,
5 Holborn, 6 City, 7 Highbury, 8 East End, 9 Bermondsey, 10 Southwark, 11 Lambeth, 12 Battersea)."""

from __future__ import annotations

from pbem.games.nanty import RULES
from tests.nanty.harness import Dice, Game, card, position, run, said

EVENT = card(["agent", "event"])


def strike(event: str, *faces: int, players: int = 3, **kw) -> tuple[Game, list[str]]:  # type: ignore[no-untyped-def]
    g = position(players, hands={0: [EVENT]}, events=[event], **kw)
    run(g, f"play {EVENT}")
    return g, said(run(g, "skip", Dice(*faces)))


def test_fire_spreads_to_a_neighbour_with_a_building_and_stops_on_an_empty_area() -> None:
    g, lines = strike("fire", 4, 11, 1, spots={"strand": {"building": 0}, "lambeth": {"building": 1},
                                               "city": {"building": 2}})
    assert lines == ["Random Event: Fire!", "The die shows 4: Strand.", "The building of seat 0 in Strand is removed (fire).",
                     "The die shows 11: Lambeth.", "The building of seat 1 in Lambeth is removed (fire).",
                     "The die shows 1: Chelsea."]
    assert g.state.spot("city").building == 2


def test_fire_stops_when_the_next_roll_is_not_next_to_the_last_fire() -> None:
    g, lines = strike("fire", 4, 9, spots={"strand": {"building": 0}, "bermondsey": {"building": 1}})
    assert lines[-1] == "The die shows 9: Bermondsey." and g.state.spot("bermondsey").building == 1


def test_flood_moves_agents_out_of_rolled_river_areas_in_player_order() -> None:
    g, lines = strike("flood", 1, 3, spots={"chelsea": {"agents": {0: 1, 1: 1}, "trouble": True},
                                            "west_end": {"agents": {2: 1}}})
    assert lines == ["Random Event: Flood!", "The die shows 1: Chelsea.", "The die shows 3: West End."]
    assert RULES.prompts(g.state)[0].text == "Flood: move one of your agents out of Chelsea."
    assert [a["to"] for a in RULES.legal_actions(g.state, 0)] == ["westminster", "west_end", "battersea"]
    run(g, "flood to Battersea")
    assert g.who() == 1
    assert said(run(g, "flood to West End")) == ["An agent of seat 1 moves from Chelsea to West End (flood).",
                                                 "Trouble breaks out in West End."]
    assert g.state.spot("chelsea").pawns == 0 and not g.state.spot("chelsea").trouble


def test_riots_end_the_game_with_eight_trouble_markers_and_a_standard_holmes_cannot_win() -> None:
    areas = ["chelsea", "westminster", "west_end", "strand", "holborn", "city", "highbury", "east_end"]
    spots = {a: {"trouble": True} for a in areas}
    g, lines = strike("riots", spots=spots, money={0: 30, 1: 20, 2: 5},
                      personalities={0: "holmes", 1: "fagin", 2: "scrooge"})
    assert g.state.phase == "over" and g.state.end_reason == "riots" and g.state.winners == (1,)
    assert RULES.outcome(g.state).scores == {0: 30, 1: 20, 2: 5}
    calm, lines = strike("riots", spots={a: {"trouble": True} for a in areas[:7]})
    assert calm.state.phase == "play" and lines == ["Random Event: Riots!"]


def test_explosion_and_earthquake_remove_buildings_where_the_die_falls() -> None:
    g, lines = strike("earthquake", 6, 2, spots={"city": {"building": 1}, "westminster": {"building": 2},
                                                 "strand": {"building": 0}})
    assert lines[-1] == "The building of seat 2 in Westminster is removed (earthquake)."
    assert [g.state.spot(a).building for a in ("city", "westminster", "strand")] == [-1, -1, 0]
    g, lines = strike("explosion", 7, spots={"city": {"building": 1}})
    assert lines == ["Random Event: Explosion!", "The die shows 7: Highbury."] and g.state.spot("city").building == 1


def test_subsidence_costs_2_a_building_and_the_owner_chooses_what_falls() -> None:
    g, lines = strike("subsidence", money={0: 10, 1: 3, 2: 1},
                      spots={"city": {"building": 0}, "strand": {"building": 0}, "lambeth": {"building": 1},
                             "chelsea": {"building": 1}, "battersea": {"building": 1}, "holborn": {"building": 2}})
    assert lines[1] == "seat 0 pays the bank £4 (Subsidence)."
    assert RULES.legal_actions(g.state, 1) == [{"kind": "lose", "area": a} for a in ("chelsea", "lambeth", "battersea")]
    run(g, "lose Chelsea")
    lines = said(run(g, "lose Battersea"))
    assert lines[:3] == ["The building of seat 1 in Battersea is removed (subsidence).",
                         "seat 1 pays the bank £2 (Subsidence).", "The building of seat 2 in Holborn is removed (subsidence)."]
    assert g.state.buildings_of(1) == ["lambeth"] and g.state.players[1].money == 1 and g.state.players[2].money == 1


def test_mysterious_murders_each_player_rolls_and_removes_a_pawn_of_their_choice() -> None:
    g, lines = strike("murders", 6, spots={"city": {"agents": {0: 1, 1: 1}, "trouble": True}, "strand": {"grenadiers": 1}})
    assert lines[-1] == "The die shows 6: City."
    assert RULES.legal_actions(g.state, 0) == [{"kind": "murder", "target": 0}, {"kind": "murder", "target": 1}]
    lines = said(run(g, "murder bob", Dice(12, 4)))
    assert lines[:4] == ["An agent of seat 1 in City is murdered.", "The trouble in City is over.",
                         "The die shows 12: Battersea.", "The die shows 4: Strand."]
    assert g.who() == 2
    run(g, "murder grenadier")
    assert g.state.spot("strand").grenadiers == 0 and g.who() == 0


def test_inigo_jones_disables_the_power_and_sends_the_owner_agent_away_but_the_building_keeps_its_value() -> None:
    g, lines = strike("inigo_jones", 11, spots={"lambeth": {"building": 1, "agents": {1: 1}}})
    assert lines[2:] == ["Inigo Jones: the power of Lambeth is lost for the rest of the game.",
                         "An agent of seat 1 in Lambeth is sent away by Inigo Jones."]
    assert g.state.spot("lambeth").disabled and g.state.spot("lambeth").building == 1
    from pbem.games.nanty.scoring import points
    assert points(g.state, 1)["buildings"] == 18


def test_new_citizens_arrive_three_times_and_make_trouble_where_a_pawn_is() -> None:
    g, lines = strike("new_citizens", 1, 1, 2)
    assert lines[1:] == ["The die shows 1: Chelsea.", "A New Citizen arrives in Chelsea.", "The die shows 1: Chelsea.",
                         "A New Citizen arrives in Chelsea.", "Trouble breaks out in Chelsea.",
                         "The die shows 2: Westminster.", "A New Citizen arrives in Westminster."]
    assert g.state.citizens == 0


def test_the_riot_act_places_four_grenadiers_each_with_a_trouble_marker() -> None:
    g, lines = strike("riot_act", 3, 7, 7, 12)
    assert [sp.grenadiers for sp in g.state.spots if sp.grenadiers] == [1, 2, 1]
    assert g.state.trouble_count() == 3 and g.state.grenadiers == 0
    assert lines[2:4] == ["A Grenadier arrives in West End.", "Trouble breaks out in West End."]


def test_fog_reveals_and_discards_the_top_five_cards() -> None:
    g = position(hands={0: [EVENT]}, events=["fog"], deck=[1, 2, 3, 4, 5, 6])
    run(g, f"play {EVENT}")
    lines = said(run(g, "skip"))
    assert lines[1].startswith("Fog: Mr Micawber (001), Uriah Heep (002)") and g.state.deck == (6,)
    assert g.state.discard == (EVENT, 1, 2, 3, 4, 5)


def test_the_zeppelin_crash_clears_an_area() -> None:
    g, lines = strike("zeppelin", 6, spots={"city": {"agents": {0: 2, 1: 1}, "building": 2, "trouble": True,
                                                     "grenadiers": 1, "citizens": 1}})
    sp = g.state.spot("city")
    assert sp.pawns == 0 and sp.building == -1 and not sp.trouble
    assert g.state.grenadiers == 4 and g.state.citizens == 3
    assert "The building of seat 2 in City is removed (zeppelin)." in lines


def test_on_a_deadline_a_murder_spares_the_player_own_agent_and_subsidence_takes_the_cheapest() -> None:
    g, _ = strike("murders", 6, spots={"city": {"agents": {0: 1, 1: 1}}})
    assert RULES.prompts(g.state)[0].default == {"kind": "murder", "target": 1}
    g, _ = strike("subsidence", money={0: 2}, spots={"lambeth": {"building": 0}, "chelsea": {"building": 0}})
    assert RULES.prompts(g.state)[0].default == {"kind": "lose", "area": "chelsea"}
