"""One scenario per card symbol: a described position, one card played, the exact outcome."""

from __future__ import annotations

import pytest

from events.rules import IllegalAction
from pbem.games.nanty import RULES
from tests.nanty.harness import Dice, card, position, run, said

AGENT_MONEY = card(["agent", "money:2"])
ASSASSIN = card(["assassinate", "again"])
BUILDER = card(["building", "again"])
TROUBLE = card(["agent", "trouble"])
EVENT = card(["agent", "event"])
MONEY3 = card(["money:3", "again"])


def test_place_agent_goes_where_you_are_or_next_door_and_makes_trouble_where_a_pawn_is() -> None:
    g = position(hands={0: [AGENT_MONEY]}, spots={"city": {"agents": {0: 1}}, "holborn": {"agents": {1: 1}}})
    run(g, "play 001")
    targets = sorted(a["area"] for a in RULES.legal_actions(g.state, 0) if a["kind"] == "agent")
    assert targets == sorted(["city", "holborn", "strand", "highbury", "bermondsey", "east_end"])
    assert said(run(g, "agent Holborn")) == ["seat 0 places an agent in Holborn.", "Trouble breaks out in Holborn."]
    assert g.state.spot("holborn").agents == (1, 1, 0) and g.state.spot("holborn").trouble


def test_place_agent_anywhere_without_agents_and_relocates_when_all_are_out() -> None:
    g = position(hands={0: [AGENT_MONEY]})
    run(g, "play 001")
    assert len([a for a in RULES.legal_actions(g.state, 0) if a["kind"] == "agent"]) == 12
    full = position(hands={0: [AGENT_MONEY]}, spots={"chelsea": {"agents": {0: 12}}})
    run(full, "play 001")
    legal = [a for a in RULES.legal_actions(full.state, 0) if a["kind"] == "agent"]
    assert {a["from"] for a in legal} == {"chelsea"}
    assert said(run(full, "agent Battersea from Chelsea")) == [
        "An agent of seat 0 in Chelsea is lifted to be placed again.", "seat 0 places an agent in Battersea."]


def test_a_building_costs_its_area_and_takes_its_card_but_not_where_there_is_trouble() -> None:
    g = position(hands={0: [BUILDER]}, money={0: 12},
                 spots={"west_end": {"agents": {0: 1}}, "city": {"agents": {0: 1}, "trouble": True}})
    run(g, "play " + str(BUILDER))
    assert [a for a in RULES.legal_actions(g.state, 0) if a["kind"] == "build"] == [{"kind": "build", "area": "west_end"}]
    assert said(run(g, "build West End")) == ["seat 0 pays the bank £12 (a building).",
                                              "seat 0 builds in West End and takes its City Area card."]
    assert g.state.players[0].money == 0 and g.state.buildings_of(0) == ["west_end"]
    view = RULES.view(g.state, 1)
    assert view["players"][0]["area_cards"] == ["west_end"]


def test_assassination_offers_the_victim_a_window_in_the_same_words_whatever_they_hold() -> None:
    holder, empty = card(["interrupt", "agent"]), AGENT_MONEY
    prompts = []
    for hand in ([holder], [empty]):
        g = position(hands={0: [ASSASSIN], 1: hand}, spots={"city": {"agents": {0: 1, 1: 1}, "trouble": True}})
        run(g, f"play {ASSASSIN:03d}")
        run(g, "assassinate bob in City")
        prompts.append(RULES.prompts(g.state)[1])
        assert RULES.view(g.state, 2).get("prompt") is None
    assert prompts[0].text == prompts[1].text and prompts[0].topic == prompts[1].topic == "nanty.interrupt"
    assert prompts[0].text == "ann is about to remove one of your agents from City. Will you stop it with an interrupt card?"
    events = run(g, "decline")
    assert said(events)[:3] == ["seat 1 lets it happen.", "An agent of seat 1 in City is assassinated.",
                                "The trouble in City is over."]


def test_an_interrupt_card_played_out_of_turn_stops_the_assassination() -> None:
    watson = card(["interrupt", "agent"])
    g = position(hands={0: [ASSASSIN], 1: [watson, AGENT_MONEY]}, spots={"city": {"agents": {0: 1, 1: 1}, "trouble": True}})
    run(g, f"play {ASSASSIN:03d}")
    run(g, "assassinate bob in City")
    assert RULES.legal_actions(g.state, 1) == [{"kind": "interrupt", "card": watson}, {"kind": "decline"}]
    assert said(run(g, f"interrupt {watson}")) == [f"seat 1 stops it with Dr Watson ({watson:03d}).",
                                                   f"seat 1 plays Dr Watson ({watson:03d})."]
    assert g.state.spot("city").agents == (1, 1, 0) and g.state.spot("city").trouble
    assert g.state.players[1].hand == (AGENT_MONEY,) and watson in g.state.discard


def test_assassination_takes_grenadiers_and_new_citizens_and_needs_trouble() -> None:
    g = position(hands={0: [ASSASSIN]}, spots={"lambeth": {"grenadiers": 1, "citizens": 1, "trouble": True},
                                                "strand": {"agents": {1: 1}}})
    run(g, f"play {ASSASSIN:03d}")
    legal = [a for a in RULES.legal_actions(g.state, 0) if a["kind"] == "assassinate"]
    assert legal == [{"kind": "assassinate", "area": "lambeth", "target": "grenadier"},
                     {"kind": "assassinate", "area": "lambeth", "target": "citizen"}]
    assert said(run(g, "assassinate grenadier in Lambeth")) == ["A Grenadier leaves Lambeth.",
                                                                "The trouble in Lambeth is over."]
    assert g.state.grenadiers == 4


def test_take_money_from_the_bank_and_an_empty_bank_pays_what_it_has() -> None:
    g = position(hands={0: [MONEY3]})
    run(g, "play 007")
    run(g, "take")
    assert g.state.players[0].money == 13
    poor = position(hands={0: [MONEY3]}, money={0: 60, 1: 59, 2: 0})
    run(poor, "play 007")
    assert said(run(poor, "take")) == ["The bank pays seat 0 £1 (the card's money)."]
    assert poor.state.bank == 0


def test_remove_a_trouble_marker_anywhere() -> None:
    g = position(hands={0: [TROUBLE]}, spots={"battersea": {"agents": {1: 2}, "trouble": True}})
    run(g, f"play {TROUBLE:03d}")
    run(g, "skip")
    assert said(run(g, "remove trouble in Battersea")) == ["The trouble in Battersea is over."]


def test_a_random_event_is_not_optional_and_an_empty_event_deck_does_nothing() -> None:
    g = position(hands={0: [EVENT]}, events=["explosion"], spots={"lambeth": {"building": 1}})
    run(g, f"play {EVENT:03d}")
    assert {"kind": "skip"} in RULES.legal_actions(g.state, 0)
    events = run(g, "skip", Dice(11))
    assert said(events) == ["Random Event: Explosion!", "The die shows 11: Lambeth.",
                            "The building of seat 1 in Lambeth is removed (explosion)."]
    none = position(hands={0: [EVENT]}, events=[])
    run(none, f"play {EVENT:03d}")
    assert said(run(none, "skip")) == []
    assert RULES.legal_actions(none.state, 0)[-1] == {"kind": "end"}


def test_play_another_card_lets_a_second_card_be_played_and_then_the_hand_refills() -> None:
    g = position(hands={0: [MONEY3, AGENT_MONEY, TROUBLE]})
    run(g, "play 007")
    run(g, "take")
    assert RULES.legal_actions(g.state, 0)[:2] == [{"kind": "play", "card": AGENT_MONEY}, {"kind": "play", "card": TROUBLE}]
    run(g, "play 001")
    run(g, "agent Chelsea")
    run(g, "take")
    assert not any(a["kind"] == "play" for a in RULES.legal_actions(g.state, 0))
    events = run(g, "end")
    assert len(g.state.players[0].hand) == 5 and g.state.active == 1
    assert "seat 0 draws 4 cards." in said(events)


def test_nothing_is_played_out_of_turn_but_an_interrupt() -> None:
    g = position(hands={0: [AGENT_MONEY], 1: [MONEY3]})
    with pytest.raises(IllegalAction, match="not your turn"):
        RULES.decide(g.state, 1, {"kind": "play", "card": MONEY3}, Dice())
    with pytest.raises(IllegalAction):
        RULES.decide(g.state, 0, {"kind": "end"}, Dice())   # a card must be played first


def test_a_lifted_agent_does_not_count_for_where_it_may_go() -> None:
    g = position(hands={0: [AGENT_MONEY]}, spots={"chelsea": {"agents": {0: 11}}, "southwark": {"agents": {0: 1}}})
    run(g, "play 001")
    legal = [a for a in RULES.legal_actions(g.state, 0) if a["kind"] == "agent"]
    assert {"kind": "agent", "area": "lambeth", "from": "chelsea"} in legal
    assert {"kind": "agent", "area": "lambeth", "from": "southwark"} not in legal
    assert {"kind": "agent", "area": "battersea", "from": "southwark"} in legal


def test_a_building_moves_when_all_six_are_out_and_its_card_goes_with_it() -> None:
    six = {a: {"building": 0} for a in ("chelsea", "city", "east_end", "bermondsey", "battersea", "southwark")}
    g = position(hands={0: [BUILDER]}, money={0: 20}, spots={**six, "lambeth": {"agents": {0: 1}}})
    run(g, f"play {BUILDER}")
    assert {a.get("from") for a in RULES.legal_actions(g.state, 0) if a["kind"] == "build"} == set(six)
    run(g, "build Lambeth from Chelsea")
    assert g.state.spot("chelsea").building == -1 and g.state.spot("lambeth").building == 0
    assert "chelsea" not in RULES.view(g.state, None)["players"][0]["area_cards"]
    assert g.state.players[0].money == 2
