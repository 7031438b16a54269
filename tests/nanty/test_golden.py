"""Golden counts of legal actions from fixed positions (perft-style): a change in move generation shows here."""

from __future__ import annotations

from collections import Counter
from typing import Any

from pbem.games.nanty import RULES
from tests.nanty.harness import Game, card, position, run


def _kinds(legal: list[dict[str, Any]]) -> dict[str, int]:
    return dict(sorted(Counter(a["kind"] for a in legal).items()))


def test_first_turn_after_setup() -> None:
    g = Game.new(3, seed="golden")
    assert (g.who(), _kinds(RULES.legal_actions(g.state, g.who()))) == (1, {"play": 5})


def test_a_landlord_with_every_agent_out() -> None:
    g = position(4, hands={0: [card(["agent", "money:2"]), card(["assassinate", "again"])]},
                 spots={"city": {"agents": {0: 12, 1: 1}, "trouble": True, "building": 0}, "chelsea": {"building": 0},
                        "east_end": {"building": 0}, "lambeth": {"building": 0, "grenadiers": 1}})
    assert _kinds(RULES.legal_actions(g.state, 0)) == {"play": 2, "power": 6}
    run(g, "play 001")
    # every agent is out: lift one from the City and place it in a neighbouring area (5), or use a power
    assert _kinds(RULES.legal_actions(g.state, 0)) == {"agent": 5, "power": 5, "skip": 1}


def test_spread_out_with_money_to_build() -> None:
    g = position(2, hands={0: [card(["agent", "building"])]}, money={0: 40},
                 spots={a: {"agents": {0: 1, 1: 1 if a in ("city", "strand") else 0}, "trouble": a == "city"}
                        for a in ("chelsea", "city", "strand", "lambeth", "holborn")})
    run(g, f"play {card(['agent', 'building'])}")
    assert _kinds(RULES.legal_actions(g.state, 0)) == {"agent": 12, "skip": 1}
    run(g, "skip")
    assert [a["area"] for a in RULES.legal_actions(g.state, 0) if a["kind"] == "build"] == [
        "chelsea", "strand", "holborn", "lambeth"]
