"""Who is asked whether to stop a card that would remove or move an agent (docs/nanty-rulings.md 26), under each
reading of the aid's "INTERRUPT Can be played at any time, even out of turn."

``targeted`` (the default): the agent's owner, always. ``any_time``: every other player holding a card, the owner
first, then clockwise from the acting player, until one plays an interrupt card. Either way, being asked, its words,
its topic and its answers do not depend on what the asked player holds (docs/architecture.md, "Fair play").
"""

from __future__ import annotations

from typing import Any

from pbem.games.nanty import RULES
from tests.nanty.harness import Game, card, position, run, said

SIKES = card(["assassinate", "again"])                  # 003
WATSON = card(["interrupt", "agent"])                   # 052
MICAWBER = card(["agent", "money:2"])                   # 001
HEEP = card(["agent", "scroll"], scroll="draw")         # 002
CRUMMLES = card(["scroll", "again"], scroll="move_other")  # 031
NANCY = card(["building", "again"])                     # 004
ANY_TIME = {"interrupts": "any_time"}
CITY = {"city": {"agents": {0: 1, 1: 1}, "trouble": True}}


def assassination(hands: dict[int, list[int]], options: dict[str, Any] | None = ANY_TIME) -> Game:
    g = position(4, hands={0: [SIKES], **hands}, spots=CITY, options=options)
    run(g, f"play {SIKES:03d}")
    run(g, "assassinate bob in City")
    return g


def test_every_other_player_holding_a_card_is_asked_in_turn_and_the_first_card_stops_it() -> None:
    g = assassination({1: [MICAWBER], 2: [WATSON], 3: [HEEP]})
    asked = RULES.prompts(g.state)
    assert list(asked) == [1] and asked[1].text == ("ann is about to remove one of your agents from City. "
                                                    "Will you stop it with an interrupt card?")
    assert said(run(g, "decline")) == ["seat 1 lets it happen."]
    asked = RULES.prompts(g.state)
    assert list(asked) == [2] and asked[2].text == ("ann is about to remove one of bob's agents from City. "
                                                    "Will you stop it with an interrupt card?")
    assert RULES.legal_actions(g.state, 2) == [{"kind": "interrupt", "card": WATSON}, {"kind": "decline"}]
    assert said(run(g, f"interrupt {WATSON}")) == ["seat 2 stops it with Dr Watson (052).",
                                                  "seat 2 plays Dr Watson (052)."]
    assert g.state.spot("city").agents == (1, 1, 0, 0) and g.state.players[2].hand == ()
    assert g.who() == 0   # dan is not asked: it was stopped


def test_when_everyone_asked_declines_it_happens_and_an_empty_hand_is_not_asked() -> None:
    g = assassination({1: [MICAWBER], 2: [], 3: [HEEP]})
    assert g.who() == 1
    run(g, "decline")
    assert g.who() == 3   # cat holds nothing, a public fact: there is nothing to ask
    assert said(run(g, "decline"))[:3] == ["seat 3 lets it happen.", "An agent of seat 1 in City is assassinated.",
                                          "The trouble in City is over."]
    assert g.state.spot("city").agents == (1, 0, 0, 0)


def test_with_no_card_in_any_other_hand_it_happens_at_once() -> None:
    g = assassination({1: [], 2: [], 3: []})
    assert g.who() == 0 and g.state.spot("city").agents == (1, 0, 0, 0)


def test_being_asked_tells_nobody_what_the_asked_player_holds() -> None:
    """Cat asked with an interrupt card and without one: the same question, words, topic, answers and default, and
    every other reader's view is the same."""
    holding, empty = (assassination({1: [MICAWBER], 2: [hand], 3: [HEEP]}) for hand in (WATSON, NANCY))
    for g in (holding, empty):
        run(g, "decline")
    a, b = RULES.prompts(holding.state)[2], RULES.prompts(empty.state)[2]
    assert (a.kind, a.text, a.topic, a.default, set(a.answers)) == (b.kind, b.text, b.topic, b.default, set(b.answers))
    assert a.topic == "nanty.interrupt" and a.default == {"kind": "decline"}
    assert (a.answers["use"], b.answers["use"]) == ({"kind": "interrupt", "card": WATSON}, {"kind": "decline"})
    for reader in (None, 0, 1, 3):
        assert RULES.view(holding.state, reader) == RULES.view(empty.state, reader), reader


def test_a_card_that_would_move_an_agent_is_asked_about_the_same_way() -> None:
    g = position(4, hands={0: [CRUMMLES], 1: [], 2: [MICAWBER], 3: [WATSON]},
                 spots={"city": {"agents": {1: 1}}}, options=ANY_TIME)
    run(g, f"play {CRUMMLES}")
    run(g, "scroll bob from City to Holborn")
    assert g.who() == 2 and RULES.prompts(g.state)[2].text == (
        "ann is about to move one of bob's agents from City to Holborn. Will you stop it with an interrupt card?")
    run(g, "decline")
    assert said(run(g, f"interrupt {WATSON}")) == ["seat 3 stops it with Dr Watson (052).",
                                                  "seat 3 plays Dr Watson (052)."]
    assert g.state.spot("city").agents == (0, 1, 0, 0)


def test_by_default_only_the_targeted_player_is_asked_even_with_an_empty_hand() -> None:
    g = assassination({1: [], 2: [WATSON], 3: [HEEP]}, options=None)
    assert g.state.readings.interrupts == "targeted" and g.who() == 1
    assert RULES.legal_actions(g.state, 1) == [{"kind": "decline"}]
    assert said(run(g, "decline"))[:2] == ["seat 1 lets it happen.", "An agent of seat 1 in City is assassinated."]
