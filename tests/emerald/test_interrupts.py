"""Sherlock Holmes and Vampires as out-of-turn interrupts: every targeted player is asked, holder or not."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

from events.envelope import Event
from events.rules import IllegalAction
from pbem.games.emerald import RULES
from tests.emerald.harness import Game, give, put, start_card, started, to_box

SHERLOCK, VAMPIRES = 23, 62
TOPIC = "emerald.interrupt"
ASKED = "ann is about to assassinate one of your agents in Paris. Will you stop it?"


def _target(g: Game) -> None:
    put(g, "paris", 0, cubes=1, agents=2)
    put(g, "paris", 1, agents=1)
    put(g, "rome", 1, agents=1)
    give(g, 0, 39, start_card(0, "S003"), start_card(0, "S006"))
    give(g, 1, start_card(1, "S001"), where="deck")


def _assassinate(hand: tuple[int, ...]) -> tuple[Game, list[Event]]:
    """Ann assassinates an agent of bob in Paris; bob holds ``hand``."""
    g = started()
    _target(g)
    give(g, 1, *hand)
    return g, g.do("assassinate agent of bob in Paris with 39 using 203 206")


def _shape(g: Game) -> tuple[Any, ...]:
    (seat, p), = RULES.prompts(g.state).items()
    return seat, p.kind, p.topic, sorted(p.answers), p.text, p.default


def _public(g: Game, events: list[Event], victim: int = 1) -> list[Any]:
    """What a spectator and the players other than ``victim`` read: public events, log lines, views."""
    shown = [(e.type, e.payload, RULES.describe(e, None)) for e in events if e.visibility.kind == "public"]
    views = [RULES.view(g.state, seat) for seat in [None, *range(g.state.n)] if seat != victim]
    return [shown, views]


# --- who is asked, and what everyone sees of it ------------------------------------------------

def test_sherlock_is_offered_when_an_agent_would_be_assassinated() -> None:
    g, events = _assassinate((SHERLOCK,))
    assert g.types(events) == ["CardsPlayed", "InterruptOffered"]
    assert events[-1].visibility.kind == "public" and str(SHERLOCK) not in str(events[-1].payload)
    assert RULES.describe(events[-1], None) == "seat 1 may respond."
    assert RULES.view(g.state, 0).get("interrupt") is None
    assert RULES.view(g.state, 1)["interrupt"]["cards"] == [SHERLOCK]
    prompts = RULES.prompts(g.state)
    assert list(prompts) == [1]
    p = prompts[1]
    assert (p.kind, p.topic, p.text, p.default) == ("interrupt", TOPIC, ASKED, {"kind": "decline"})
    assert p.answers == {"use": {"kind": "interrupt", "card": SHERLOCK}, "decline": {"kind": "decline"}}
    assert RULES.legal_actions(g.state, 1) == [{"kind": "interrupt", "card": SHERLOCK}, {"kind": "decline"}]
    assert RULES.legal_actions(g.state, 0) == []


def test_a_victim_without_a_card_is_asked_the_same_question() -> None:
    g, events = _assassinate((start_card(1, "S004"),))
    holder, held_events = _assassinate((SHERLOCK,))
    assert g.types(events) == ["CardsPlayed", "InterruptOffered"]
    assert _shape(g) == _shape(holder) == (1, "interrupt", TOPIC, ["decline", "use"], ASKED, {"kind": "decline"})
    p = RULES.prompts(g.state)[1]
    assert p.answers == {"use": {"kind": "decline"}, "decline": {"kind": "decline"}}
    assert RULES.legal_actions(g.state, 1) == [{"kind": "decline"}]
    assert RULES.view(g.state, 1)["interrupt"]["cards"] == []
    assert _public(g, events) == _public(holder, held_events)
    with pytest.raises(IllegalAction, match="decline"):
        g.do("use Sherlock Holmes", seat=1)


def test_the_waiting_text_names_no_card() -> None:
    for hand in ((SHERLOCK,), (VAMPIRES,), (SHERLOCK, VAMPIRES), (start_card(1, "S004"),)):
        g, _ = _assassinate(hand)
        text = RULES.prompts(g.state)[1].text
        assert text == ASKED and "Sherlock" not in text and "Vampire" not in text


@pytest.mark.parametrize("hand", [(SHERLOCK,), (VAMPIRES,), (start_card(1, "S004"),)])
@pytest.mark.parametrize("order", ["use", "decline"])
def test_standing_order_answers_are_legal_for_holder_and_non_holder(hand: tuple[int, ...], order: str) -> None:
    g, _ = _assassinate(hand)
    assert TOPIC in RULES.standing_order_topics          # every player can set the order before being asked
    answer = RULES.prompts(g.state)[1].answers[order]
    assert answer in RULES.legal_actions(g.state, 1)
    events = g.act(1, answer)
    used = order == "use" and hand[0] in (SHERLOCK, VAMPIRES)
    assert events[0].payload["used"] is used
    assert g.state.city("paris").agents[1] == (1 if used else 0)


def test_sherlock_negates_the_assassination_but_the_cards_are_spent() -> None:
    g, _ = _assassinate((SHERLOCK,))
    events = g.do("use Sherlock Holmes", seat=1)
    assert g.types(events)[:6] == ["InterruptAnswered", "InterruptClosed", "CardsPlayed", "CardsDrawn",
                                   "CardsDrawnCount", "CardsPlayed"]
    s = g.state
    assert s.city("paris").agents[1] == 1
    assert 39 in s.removed and {203, 206} <= set(s.players[0].discard)
    assert SHERLOCK in s.players[1].discard and s.players[1].hand == (start_card(1, "S001"),)
    assert s.city("paris").cubes[0] == 1          # nothing else happened
    assert s.actions_done == 1 and list(RULES.prompts(s)) == [0]


def test_declining_lets_the_assassination_happen_exactly_as_before() -> None:
    held, _ = _assassinate((SHERLOCK,))
    empty, _ = _assassinate((start_card(1, "S004"),))
    out = {}
    for name, g in (("held", held), ("empty", empty)):
        events = g.do("decline", seat=1)
        out[name] = [(e.type, e.payload) for e in events]
        assert g.types(events) == ["InterruptAnswered", "InterruptClosed", "AgentRemoved", "CardsPlayed",
                                   "KillScored", "CubesCleared", "ActionCompleted"]
        assert RULES.describe(events[0], None) == "seat 1 lets it happen."
        s = g.state
        assert s.city("paris").agents[1] == 0 and s.city("paris").cubes[0] == 0
        assert [(k.card, k.victim) for k in s.players[0].kills] == [(39, 1)]
    assert out["held"] == out["empty"]
    assert SHERLOCK in held.state.players[1].hand


def test_vampires_negate_an_assassination_but_not_a_shoggoth() -> None:
    g, _ = _assassinate((VAMPIRES,))
    assert RULES.prompts(g.state)[1].topic == TOPIC
    g.do("use Vampires", seat=1)
    assert g.state.city("paris").agents[1] == 1 and VAMPIRES in g.state.players[1].discard   # ruling 1
    g2 = started()
    put(g2, "paris", 1, agents=1)
    put(g2, "rome", 1, agents=1)
    give(g2, 1, VAMPIRES)
    give(g2, 0, 54)
    events = g2.do("play Shoggoth: agent of bob in Paris")
    assert g2.types(events) == ["InterruptOffered"]          # asked all the same, and can only let it happen
    p = RULES.prompts(g2.state)[1]
    assert (p.topic, sorted(p.answers), p.answers["use"]) == (TOPIC, ["decline", "use"], {"kind": "decline"})
    assert RULES.legal_actions(g2.state, 1) == [{"kind": "decline"}]
    g2.act(1, p.answers["use"])
    assert g2.state.city("paris").agents[1] == 0 and VAMPIRES in g2.state.players[1].hand


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
    assert RULES.prompts(g.state)[1].answers["use"] == {"kind": "decline"}      # no Sherlock left
    g.do("decline", seat=1)
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


def test_cthulhu_asks_every_victim_in_turn_order() -> None:
    g = started(players=4)
    put(g, "paris", 1, agents=1)
    put(g, "paris", 3, agents=1)
    put(g, "rome", 1, agents=1)
    put(g, "rome", 3, agents=1)
    g.state = replace(g.state, active=2)
    give(g, 3, SHERLOCK)
    give(g, 2, 31)
    events = g.do("play Cthulhu: Paris")
    assert g.types(events) == ["CardsPlayed", "InterruptOffered"]
    asked = "cat is about to destroy everything in Paris, your agents included, with Cthulhu. Will you stop it?"
    assert _shape(g) == (3, "interrupt", TOPIC, ["decline", "use"], asked, {"kind": "decline"})
    events = g.do("decline", seat=3)
    assert g.types(events) == ["InterruptAnswered", "InterruptClosed", "InterruptOffered"]
    assert _shape(g) == (1, "interrupt", TOPIC, ["decline", "use"], asked, {"kind": "decline"})
    assert RULES.legal_actions(g.state, 1) == [{"kind": "decline"}]       # seat 1 holds nothing: asked anyway
    events = g.do("decline", seat=1)
    assert g.types(events)[:3] == ["InterruptAnswered", "InterruptClosed", "CardRemoved"]
    c = g.state.city("paris")
    assert c.agents == (0, 0, 0, 0) and c.stack == ()
    assert g.state.actions_done == 1 and list(RULES.prompts(g.state)) == [2]


def test_cthulhu_on_a_city_without_other_agents_asks_nobody() -> None:
    g = started()
    put(g, "paris", 0, agents=1)
    put(g, "paris", 1, cubes=1)
    give(g, 1, SHERLOCK)
    give(g, 0, 31)
    events = g.do("play Cthulhu: Paris")
    assert "InterruptOffered" not in g.types(events) and g.state.city("paris").agents == (0, 0, 0)


# --- the property: being asked does not depend on the hand -------------------------------------

FILLERS = ("S001", "S003", "S004", "S006", "S009")


def _position(seed: int, holds: bool) -> tuple[Game, int, list[tuple[int, Any]]]:
    """A seeded targeting position; the first victim holds Sherlock/Vampires (``holds``) or plain cards.

    Returns the game, that victim, and the actions (seat, action) that lead to the first interrupt prompt.
    """
    rnd = random.Random(seed)
    players = rnd.randint(2, 5)
    g = started(players=players, seed=f"interrupt-{seed}")
    to_box(g, SHERLOCK, VAMPIRES)           # off the board in both positions: only the hand differs
    actor = rnd.randrange(players)
    g.state = replace(g.state, active=actor)
    cities = list(g.state.cat.city_ids)
    city = rnd.choice(cities)
    others = [v for v in range(players) if v != actor]
    victims = rnd.sample(others, rnd.randint(1, len(others)))
    for v in victims:
        put(g, city, v, agents=rnd.randint(1, 2))
        put(g, rnd.choice([c for c in cities if c != city]), v, agents=1)
        size = rnd.randint(2, 4)
        plain = [start_card(v, n) for n in rnd.sample(FILLERS, size)]
        special = rnd.choice([[SHERLOCK], [VAMPIRES], [SHERLOCK, VAMPIRES]])     # drawn either way
        if holds and v == victims[0]:
            plain[: len(special)] = special
        give(g, v, *plain)
    kind = rnd.choice(["assassinate", "shoggoth", "replace", "zombie", "cthulhu"])
    target = victims[0]
    steps: list[tuple[int, Any]]
    if kind == "assassinate":
        put(g, city, actor, agents=6)
        give(g, actor, 39)
        steps = [(actor, {"kind": "assassinate", "city": city, "target": target, "card": 39, "bombs": []})]
    elif kind == "shoggoth":
        give(g, actor, 54)
        steps = [(actor, {"kind": "play", "card": 54, "player": target, "city": city})]
    elif kind == "replace":
        give(g, actor, 8)
        steps = [(actor, {"kind": "play", "card": 8, "player": target, "city": city})]
    elif kind == "zombie":
        put(g, city, actor, zombies=1)
        give(g, actor, 61)
        steps = [(actor, {"kind": "play", "card": 61}),
                 (actor, {"kind": "zombie_kill", "city": city, "player": target})]
    else:
        give(g, actor, 31)
        steps = [(actor, {"kind": "play", "card": 31, "city": city})]
    return g, target, steps


@pytest.mark.parametrize("seed", range(40))
def test_the_question_is_the_same_whatever_the_victim_holds(seed: int) -> None:
    runs = {}
    for holds in (True, False):
        g, victim, steps = _position(seed, holds)
        public = []
        for seat, action in steps:
            public.append(_public(g, g.act(seat, action), victim))
        shapes = []
        while g.state.interrupt:
            shapes.append(_shape(g))
            seat = shapes[-1][0]
            assert RULES.prompts(g.state)[seat].answers["decline"] in RULES.legal_actions(g.state, seat)
            public.append(_public(g, g.act(seat, {"kind": "decline"}), victim))
        runs[holds] = (shapes, public)
    assert runs[True][0], "every position targets somebody"
    assert runs[True] == runs[False]
