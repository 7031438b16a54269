"""Sherlock Holmes and Vampires as out-of-turn interrupts."""

from __future__ import annotations

from pbem.games.emerald import RULES
from tests.emerald.harness import give, put, start_card, started

SHERLOCK, VAMPIRES = 23, 62


def _target(g):  # type: ignore[no-untyped-def]
    put(g, "paris", 0, cubes=1, agents=2)
    put(g, "paris", 1, agents=1)
    put(g, "rome", 1, agents=1)
    give(g, 0, 39, start_card(0, "S003"), start_card(0, "S006"))
    give(g, 1, start_card(1, "S001"), where="deck")


def test_sherlock_is_offered_when_an_agent_would_be_assassinated() -> None:
    g = started()
    _target(g)
    give(g, 1, SHERLOCK)
    events = g.do("assassinate agent of bob in Paris with 39 using 203 206")
    assert g.types(events) == ["CardsPlayed", "InterruptOffered"]
    assert events[-1].visibility.kind == "public" and str(SHERLOCK) not in str(events[-1].payload)
    assert RULES.view(g.state, 0).get("interrupt") is None
    assert RULES.view(g.state, 1)["interrupt"]["cards"] == [SHERLOCK]
    prompts = RULES.prompts(g.state)
    assert list(prompts) == [1]
    p = prompts[1]
    assert (p.kind, p.topic, p.default) == ("interrupt", "emerald.sherlock", {"kind": "decline"})
    assert p.answers == {"use": {"kind": "interrupt", "card": SHERLOCK}, "decline": {"kind": "decline"}}
    assert RULES.legal_actions(g.state, 0) == []


def test_sherlock_negates_the_assassination_but_the_cards_are_spent() -> None:
    g = started()
    _target(g)
    give(g, 1, SHERLOCK)
    g.do("assassinate agent of bob in Paris with 39 using 203 206")
    events = g.do("use Sherlock Holmes", seat=1)
    assert g.types(events)[:6] == ["InterruptAnswered", "InterruptClosed", "CardsPlayed", "CardsDrawn",
                                   "CardsDrawnCount", "CardsPlayed"]
    s = g.state
    assert s.city("paris").agents[1] == 1
    assert 39 in s.removed and {203, 206} <= set(s.players[0].discard)
    assert SHERLOCK in s.players[1].discard and s.players[1].hand == (start_card(1, "S001"),)
    assert s.city("paris").cubes[0] == 1          # nothing else happened
    assert s.actions_done == 1 and list(RULES.prompts(s)) == [0]


def test_declining_lets_the_assassination_happen() -> None:
    g = started()
    _target(g)
    give(g, 1, SHERLOCK)
    g.do("assassinate agent of bob in Paris with 39 using 203 206")
    g.do("decline", seat=1)
    assert g.state.city("paris").agents[1] == 0 and SHERLOCK in g.state.players[1].hand


def test_vampires_negate_an_assassination_but_not_a_shoggoth() -> None:
    g = started()
    _target(g)
    give(g, 1, VAMPIRES)
    g.do("assassinate agent of bob in Paris with 39 using 203 206")
    assert RULES.prompts(g.state)[1].topic == "emerald.vampires"
    g.do("use Vampires", seat=1)
    assert g.state.city("paris").agents[1] == 1 and VAMPIRES in g.state.players[1].kept
    g2 = started()
    put(g2, "paris", 1, agents=1)
    put(g2, "rome", 1, agents=1)
    give(g2, 1, VAMPIRES)
    give(g2, 0, 54)
    events = g2.do("play Shoggoth: agent of bob in Paris")
    assert "InterruptOffered" not in g2.types(events)


def test_sherlock_against_zombies_the_other_zombies_go_on() -> None:
    g = started()
    put(g, "paris", 0, zombies=1)
    put(g, "rome", 0, zombies=1)
    put(g, "paris", 1, agents=1)
    put(g, "rome", 1, agents=1)
    put(g, "cairo", 1, agents=1)
    give(g, 1, SHERLOCK)
    give(g, 1, start_card(1, "S001"), where="deck")
    give(g, 0, 61)
    g.do("play Zombies")
    g.do("kill agent of bob in Paris with zombies")
    g.do("use Sherlock Holmes", seat=1)
    assert g.state.pend() == {"step": "zombie_remove", "cities": ["rome"]}
    g.do("kill agent of bob in Rome with zombies")
    assert g.state.city("paris").agents[1] == 1 and g.state.city("rome").agents[1] == 0


def test_sherlock_against_cthulhu_nothing_happens() -> None:
    g = started()
    put(g, "paris", 1, agents=1, cubes=2)
    put(g, "paris", 2, agents=1)
    give(g, 1, SHERLOCK)
    give(g, 0, 31)
    stack = g.state.city("paris").stack
    g.do("play Cthulhu: Paris")
    assert list(RULES.prompts(g.state)) == [1]
    g.do("use Sherlock Holmes", seat=1)
    c = g.state.city("paris")
    assert c.stack == stack and c.agents == (0, 1, 1) and c.cubes == (0, 2, 0)
    assert 31 in g.state.players[0].kept


def test_irene_adler_can_be_stopped_by_sherlock() -> None:
    g = started()
    put(g, "paris", 1, agents=1)
    give(g, 1, SHERLOCK)
    give(g, 0, 8)
    g.do("play Irene Adler: agent of bob in Paris")
    g.do("use Sherlock Holmes", seat=1)
    assert g.state.city("paris").agents == (0, 1, 0) and 8 in g.state.removed


def test_cthulhu_asks_each_holder_in_turn_order() -> None:
    from dataclasses import replace
    g = started(players=4)
    put(g, "paris", 1, agents=1)
    put(g, "paris", 3, agents=1)
    put(g, "rome", 1, agents=1)
    put(g, "rome", 3, agents=1)
    g.state = replace(g.state, active=2)
    give(g, 3, SHERLOCK)
    give(g, 2, 31)
    g.do("play Cthulhu: Paris")
    assert list(RULES.prompts(g.state)) == [3]       # seat 1 holds no Sherlock: not asked
    g.do("decline", seat=3)
    c = g.state.city("paris")
    assert c.agents == (0, 0, 0, 0) and c.stack == ()
    assert g.state.actions_done == 1 and list(RULES.prompts(g.state)) == [2]
