"""Every personality, standard and classic, checked at the start of its owner's turn (3 players), and the
deck-out and riots ends."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.games.nanty import RULES
from tests.nanty.harness import Game, position, run

AREAS = ["chelsea", "westminster", "west_end", "strand", "holborn", "city", "highbury", "east_end", "bermondsey",
         "southwark", "lambeth", "battersea"]


def agents_in(n: int, seat: int = 0) -> dict[str, Any]:
    return {a: {"agents": {seat: 1}} for a in AREAS[:n]}


def buildings(n: int, seat: int = 0) -> dict[str, Any]:
    return {a: {"building": seat} for a in AREAS[:n]}


def turn_comes(pid: str, variant: str, spots: dict[str, Any], money: int = 10, loan: bool = False) -> Game:
    """Seat 2 ends its turn; seat 0, holding ``pid``, starts one."""
    others = [p for p in ("fagin", "holmes", "moriarty") if p != pid]
    g = position(active=2, hands={2: []}, spots=spots, money={0: money},
                 personalities={0: pid, 1: others[0], 2: others[1]}, variant=variant)
    if loan:
        g.state = g.state.with_player(0, loans=(71,))
    run(g, "end")
    return g


CASES = [  # variant, personality, spots, money, loan, wins
    ("standard", "moriarty", agents_in(10), 10, False, True),
    ("standard", "moriarty", agents_in(9), 10, False, False),
    ("standard", "balmoral", agents_in(5), 10, False, True),         # control of 5 areas
    ("standard", "balmoral", {**agents_in(4), "city": {"agents": {0: 1, 1: 1}}}, 10, False, False),
    ("standard", "bellinger", buildings(5), 10, False, True),
    ("standard", "bellinger", buildings(4), 10, False, False),
    ("standard", "holdhurst", {"westminster": {"building": 0}, "holborn": {"building": 0}, "city": {"building": 0}}, 10, False, True),
    ("standard", "holdhurst", {"westminster": {"building": 0}, "holborn": {"building": 0}, "city": {"building": 0}}, 10, True, False),
    ("standard", "de_sidonia", {"westminster": {"building": 0}}, 32, False, True),
    ("standard", "de_sidonia", {"westminster": {"building": 0, "grenadiers": 1}}, 32, False, False),
    ("standard", "scrooge", {**agents_in(10), **{a: {"agents": {0: 1}, "building": 0} for a in AREAS[:2]}}, 10, False, True),
    ("standard", "scrooge", agents_in(11), 10, False, False),
    ("standard", "gradgrind", {"lambeth": {"building": 0}}, 36, False, True),
    ("standard", "gradgrind", agents_in(10), 10, False, True),
    ("standard", "gradgrind", {"lambeth": {"building": 0}}, 35, False, False),
    ("standard", "lloyd", {**buildings(4, 1), **{a: {"building": 2} for a in AREAS[4:9]}}, 10, False, True),
    ("standard", "lloyd", buildings(8, 1), 10, False, False),
    ("standard", "fagin", {a: {"trouble": True} for a in AREAS[:8]}, 10, False, True),
    ("standard", "fagin", {a: {"trouble": True} for a in AREAS[:7]}, 10, False, False),
    ("standard", "holmes", agents_in(12), 100, False, False),
    ("classic", "moriarty", agents_in(9), 10, False, True),
    ("classic", "moriarty", {**agents_in(9), "city": {"agents": {0: 1}, "grenadiers": 1}}, 10, False, False),
    ("classic", "balmoral", agents_in(5), 10, False, True),
    ("classic", "bellinger", agents_in(5), 10, False, True),
    ("classic", "holdhurst", agents_in(5), 10, False, True),
    ("classic", "holdhurst", {**agents_in(5), "holborn": {"agents": {0: 1}, "citizens": 1}}, 10, False, False),
    ("classic", "fagin", {a: {"trouble": True} for a in AREAS[:8]}, 10, False, True),
    ("classic", "de_sidonia", {"westminster": {"building": 0}}, 32, False, True),
    ("classic", "de_sidonia", {"westminster": {"building": 0}}, 43, True, False),
    ("classic", "holmes", agents_in(12), 100, False, False),
]


@pytest.mark.parametrize("variant,pid,spots,money,loan,wins", CASES)
def test_goal_checked_silently_at_the_start_of_the_owner_turn(variant: str, pid: str, spots: dict[str, Any],
                                                              money: int, loan: bool, wins: bool) -> None:
    g = turn_comes(pid, variant, spots, money, loan)
    if wins:
        assert g.state.phase == "over" and g.state.end_reason == "personality" and g.state.winners == (0,)
        assert g.events[-1].type == "nanty.GameEnded" and g.events[-1].payload["personalities"]["0"] == pid
        assert RULES.view(g.state, 1)["players"][0]["personality"]["id"] == pid
    else:
        assert g.state.phase == "play" and g.state.active == 0
        assert g.events[-1].type in ("nanty.TurnStarted", "nanty.StepSet")
        assert all(e.type != "nanty.GameEnded" for e in g.events)


def deck_out(pid: str, variant: str, spots: dict[str, Any], money: dict[int, int] | None = None) -> Game:
    g = position(active=2, hands={2: []}, spots=spots, money=money or {}, deck=[1, 2],
                 personalities={0: pid, 1: "scrooge" if variant == "standard" else "moriarty",
                                2: "lloyd" if variant == "standard" else "fagin"}, variant=variant)
    run(g, "end")
    assert g.state.end_reason == "deck_out" and len(g.state.players[2].hand) == 2
    return g


def test_deck_out_standard_fagin_wins_with_more_trouble_than_anyone_else_has_agents() -> None:
    spots = {a: {"trouble": True, "agents": {1: 1}} for a in AREAS[:2]} | {"west_end": {"trouble": True}}
    assert deck_out("fagin", "standard", spots, {1: 50}).state.winners == (0,)
    spots = spots | {"city": {"agents": {1: 1}}}
    assert deck_out("fagin", "standard", spots, {1: 50}).state.winners == (1,)


def test_deck_out_standard_holmes_wins_with_more_agents_than_trouble_markers() -> None:
    spots = {a: {"agents": {0: 1}} for a in AREAS[:2]} | {"city": {"trouble": True, "agents": {1: 2}}}
    assert deck_out("holmes", "standard", spots, {1: 80}).state.winners == (0,)
    spots = {"chelsea": {"agents": {0: 1}}, "city": {"trouble": True, "agents": {1: 2}}}
    assert deck_out("holmes", "standard", spots, {1: 80}).state.winners == (1,)


def test_deck_out_classic_holmes_wins_and_without_holmes_scoring_decides_ties_shared() -> None:
    assert deck_out("holmes", "classic", {}, {1: 80}).state.winners == (0,)
    g = deck_out("balmoral", "classic", {}, {0: 20, 1: 20, 2: 5})
    assert g.state.winners == (0, 1)
    assert RULES.outcome(g.state).scores == {0: 20, 1: 20, 2: 5}
