"""One scenario per area power: once per turn, only the holder, lost to Inigo Jones or a Grenadier."""

from __future__ import annotations

import pytest

from events.rules import InvalidAction
from pbem.games.nanty import RULES
from tests.nanty.harness import Dice, card, position, run, said

AGENT_MONEY = card(["agent", "money:2"])
EVENT = card(["agent", "event"])


def powers(g, seat=0):  # type: ignore[no-untyped-def]
    return [a for a in RULES.legal_actions(g.state, seat) if a["kind"] == "power"]


@pytest.mark.parametrize("area,amount", [("southwark", 1), ("battersea", 1), ("west_end", 2), ("highbury", 2),
                                         ("lambeth", 3)])
def test_money_powers_pay_once_per_turn(area: str, amount: int) -> None:
    g = position(hands={0: [AGENT_MONEY]}, spots={area: {"building": 0}})
    name = RULES.view(g.state, 0)["areas"][g.state.ai(area)]["name"]
    assert said(run(g, f"power {name}")) == [f"seat 0 uses the power of {name}.",
                                             f"The bank pays seat 0 £{amount} (an area power)."]
    assert g.state.players[0].money == 10 + amount and powers(g) == []


@pytest.mark.parametrize("area", ["chelsea", "bermondsey"])
def test_chelsea_and_bermondsey_place_an_agent_nearby_for_3(area: str) -> None:
    g = position(hands={0: [AGENT_MONEY]}, spots={area: {"building": 0}})
    near = {area} | g.state.neighbours(area)
    assert {a["to"] for a in powers(g)} == near
    target = sorted(near - {area})[0]
    run(g, f"power {area} to {target}")
    assert g.state.players[0].money == 7 and g.state.spot(target).agents[0] == 1


def test_chelsea_relocates_an_agent_when_all_are_on_the_board() -> None:
    g = position(hands={0: [AGENT_MONEY]}, spots={"chelsea": {"building": 0}, "east_end": {"agents": {0: 12}}})
    assert all(a["from"] == "east_end" for a in powers(g))
    run(g, "power Chelsea to Battersea from East End")
    assert g.state.spot("battersea").agents[0] == 1 and g.state.spot("east_end").agents[0] == 11


def test_westminster_draws_one_then_discards_one() -> None:
    g = position(hands={0: [AGENT_MONEY]}, spots={"westminster": {"building": 0}}, deck=[EVENT])
    run(g, "power Westminster")
    assert g.state.players[0].hand == (AGENT_MONEY, EVENT)
    assert RULES.prompts(g.state)[0].text == "Westminster: discard one card."
    run(g, f"discard {AGENT_MONEY}")
    assert g.state.players[0].hand == (EVENT,) and g.state.discard == (AGENT_MONEY,)
    empty = position(hands={0: [AGENT_MONEY]}, spots={"westminster": {"building": 0}}, deck=[])
    assert powers(empty) == []


def test_city_discards_a_card_for_2() -> None:
    g = position(hands={0: [AGENT_MONEY, EVENT]}, spots={"city": {"building": 0}})
    assert len(powers(g)) == 2
    run(g, f"power City discard {EVENT}")
    assert g.state.players[0].money == 12 and g.state.players[0].hand == (AGENT_MONEY,)


def test_strand_pays_2_to_remove_trouble_and_east_end_makes_trouble_next_to_it() -> None:
    g = position(hands={0: [AGENT_MONEY]}, spots={"strand": {"building": 0}, "lambeth": {"trouble": True, "agents": {1: 2}}})
    run(g, "power Strand on Lambeth")
    assert not g.state.spot("lambeth").trouble and g.state.players[0].money == 8
    g = position(hands={0: [AGENT_MONEY]}, spots={"east_end": {"building": 0}, "city": {"agents": {2: 1}},
                                                  "bermondsey": {"citizens": 1}})
    assert [a["target"] for a in powers(g)] == ["city"]          # an agent is needed, any player's
    assert said(run(g, "power East End on City")) == ["seat 0 uses the power of East End.", "Trouble breaks out in City."]


def test_holborn_pays_3_apiece_to_ignore_a_random_event() -> None:
    g = position(hands={0: [EVENT]}, spots={"holborn": {"building": 1}, "lambeth": {"building": 1}},
                 events=["explosion"])
    run(g, f"play {EVENT}")
    run(g, "skip", Dice(11))
    prompt = RULES.prompts(g.state)[1]
    assert prompt.kind == "interrupt" and "Holborn" in prompt.text
    assert RULES.legal_actions(g.state, 1) == [{"kind": "protect", "agents": 0, "building": 0},
                                               {"kind": "protect", "agents": 0, "building": 1}]
    run(g, "protect the building")
    assert g.state.spot("lambeth").building == 1 and g.state.players[1].money == 7


def test_a_grenadier_or_inigo_jones_takes_the_power_away_and_holders_alone_use_powers() -> None:
    g = position(hands={0: [AGENT_MONEY]}, spots={"lambeth": {"building": 0, "grenadiers": 1},
                                                  "west_end": {"building": 0, "disabled": True},
                                                  "highbury": {"building": 1}})
    assert powers(g) == []
    off = position(hands={0: [AGENT_MONEY]}, spots={"lambeth": {"building": 0, "grenadiers": 1}},
                   options={"grenadiers_disable_powers": False})
    assert powers(off) == [{"kind": "power", "area": "lambeth"}]
    with pytest.raises(InvalidAction, match="grenadiers_disable_powers .A Grenadier in an area. is one of .yes., .no."):
        position(options={"grenadiers_disable_powers": "sometimes"})


def test_holborn_with_a_grenadier_protects_nothing() -> None:
    g = position(hands={0: [EVENT]}, spots={"holborn": {"building": 1, "grenadiers": 1}, "lambeth": {"building": 1}},
                 events=["explosion"])
    run(g, f"play {EVENT}")
    lines = said(run(g, "skip", Dice(11)))
    assert lines[-1] == "The building of seat 1 in Lambeth is removed (explosion)."
