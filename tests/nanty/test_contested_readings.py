"""The contested rulings a table may choose, each under both of its readings (docs/nanty-rulings.md 10, 14, 16, 17).

Fire (4, 28) and interrupts (26) have files of their own.
"""

from __future__ import annotations

from typing import Any

from pbem.games.nanty import RULES
from pbem.games.nanty.scoring import measure, points
from tests.nanty.harness import Dice, Game, card, position, run, said

MICAWBER = card(["agent", "money:2"])   # 001
EVENT = card(["agent", "event"])
ALL_OUT = {"chelsea": {"agents": {0: 12}, "building": 0}}


def chelsea_powers(g: Game) -> list[dict[str, Any]]:
    return [a for a in RULES.legal_actions(g.state, 0) if a["kind"] == "power" and a["area"] == "chelsea"]


def test_chelsea_with_every_agent_out_lifts_one_to_place_it() -> None:
    """power_relocation = lift (the default): "place one Agent" as Place an Agent does: "If all your Agents are on
    the board, you may remove one and place it back on the board"."""
    g = position(hands={0: [MICAWBER]}, spots=ALL_OUT)
    assert chelsea_powers(g) == [{"kind": "power", "area": "chelsea", "to": a, "from": "chelsea"}
                                 for a in ("westminster", "west_end", "battersea")]
    assert said(run(g, "power Chelsea to West End from Chelsea")) == [
        "seat 0 uses the power of Chelsea.", "seat 0 pays the bank £3 (an area power).",
        "An agent of seat 0 in Chelsea is lifted to be placed again.", "seat 0 places an agent in West End."]


def test_chelsea_with_every_agent_out_cannot_be_used_where_the_table_reads_it_so() -> None:
    """power_relocation = none: the lifting clause belongs to Place an Agent alone."""
    g = position(hands={0: [MICAWBER]}, spots=ALL_OUT, options={"power_relocation": "none"})
    assert chelsea_powers(g) == []
    one_in_stock = position(hands={0: [MICAWBER]}, spots={"chelsea": {"agents": {0: 11}, "building": 0}},
                            options={"power_relocation": "none"})
    assert len(chelsea_powers(one_in_stock)) == 4   # with an agent to place, the power works as ever


def lifted_from_southwark(options: dict[str, Any] | None) -> list[str]:
    g = position(hands={0: [MICAWBER]}, spots={"chelsea": {"agents": {0: 11}}, "southwark": {"agents": {0: 1}}},
                 options=options)
    run(g, "play 001")
    return sorted(a["area"] for a in RULES.legal_actions(g.state, 0) if a.get("from") == "southwark")


def test_a_lifted_agent_goes_next_to_the_others_or_next_to_where_it_was() -> None:
    """relocation_adjacency: after_lifting (the default) judges "an area where you already have an Agent or ...
    an adjacent area" without the lifted agent; before_lifting with it (never back where it was)."""
    near_chelsea = ["battersea", "chelsea", "west_end", "westminster"]
    assert lifted_from_southwark(None) == near_chelsea
    assert lifted_from_southwark({"relocation_adjacency": "before_lifting"}) == sorted(
        near_chelsea + ["lambeth", "strand", "bermondsey"])


def scrooge(counts: str) -> Game:
    """Scrooge (12 pieces with 3 players) has 11 pieces in the open and an agent beside a Grenadier."""
    spots = {"chelsea": {"agents": {1: 6}}, "city": {"agents": {1: 2}, "building": 1},
             "strand": {"agents": {1: 1}, "building": 1}, "lambeth": {"agents": {1: 1}, "grenadiers": 1}}
    g = position(hands={0: [MICAWBER]}, spots=spots, personalities={1: "scrooge"},
                 options={"grenadier_counts": counts})
    return g


def test_pieces_beside_a_grenadier_count_for_scrooge_bellinger_and_lloyd() -> None:
    """grenadier_counts = counted (the default): Scrooge's "Total number of Agents and buildings on the board"."""
    g = scrooge("counted")
    assert measure(g.state, 1, "pieces") == 12
    run(g, "play 001")
    run(g, "agent Chelsea")
    run(g, "take")
    ended = run(g, "end")
    assert g.state.phase == "over" and g.state.winners == (1,) and g.types(ended)[-1] == "GameEnded"


def test_pieces_beside_a_grenadier_do_not_count_where_the_table_reads_it_so() -> None:
    """grenadier_counts = not_counted: as "Buildings in an area with a Grenadier are valued at 0"."""
    g = scrooge("not_counted")
    assert measure(g.state, 1, "pieces") == 11
    run(g, "play 001")
    run(g, "agent Chelsea")
    run(g, "take")
    run(g, "end")
    assert g.state.phase == "play" and g.state.active == 1
    walls = position(spots={"city": {"building": 1, "grenadiers": 1}, "strand": {"building": 1}},
                     options={"grenadier_counts": "not_counted"})
    assert (measure(walls.state, 1, "own_buildings"), measure(walls.state, 1, "all_buildings")) == (1, 1)
    counted = position(spots={"city": {"building": 1, "grenadiers": 1}, "strand": {"building": 1}})
    assert (measure(counted.state, 1, "own_buildings"), measure(counted.state, 1, "all_buildings")) == (2, 2)


RIOTS = {a: {"trouble": True} for a in ("chelsea", "westminster", "west_end", "strand", "holborn", "city",
                                        "highbury", "east_end")}


def riots(ties: str) -> Game:
    """Riots end a game where ann (an agent and £10) and bob (£15) tie on 15 points."""
    g = position(hands={0: [EVENT]}, events=["riots"], money={0: 10, 1: 15, 2: 0},
                 spots={**RIOTS, "lambeth": {"agents": {0: 1}}}, personalities={0: "scrooge", 1: "lloyd", 2: "fagin"},
                 options={"ties": ties})
    run(g, f"play {EVENT}")
    run(g, "skip", Dice())
    assert g.state.phase == "over" and [points(g.state, s)["total"] for s in range(3)] == [15, 15, 0]
    return g


def test_a_tie_on_points_is_a_shared_win() -> None:
    """ties = shared (the default): "the winner is the Player with the most Points" names no tie-break."""
    g = riots("shared")
    assert g.state.winners == (0, 1)
    assert RULES.outcome(g.state).summary == "ann and bob win (Riots: eight or more trouble markers on the board)"


def test_a_tie_on_points_goes_to_the_most_money_where_the_table_reads_it_so() -> None:
    """ties = money: the tied player with the most money wins ("each £1 is worth a point")."""
    g = riots("money")
    assert g.state.winners == (1,)
    assert RULES.outcome(g.state).summary == "bob wins (Riots: eight or more trouble markers on the board)"
