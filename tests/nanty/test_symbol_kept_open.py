"""A symbol with no option stays open while a power the player can still use this turn could make it possible
(rules revision 2, docs/nanty-rulings.md 25).

The aid: "Play one card and carry out actions from top to bottom; each action is optional except Random Events",
and area powers "Once per turn you can take £2 from the bank" (Highbury), used "before, between or after" a card's
symbols (ruling 9). A game of revision 1 passed such a symbol over at once.
"""

from __future__ import annotations

from pbem.games.nanty import RULES
from tests.nanty.harness import Game, card, position, run, said

JAGGERS = card(["agent", "building"])            # 010: place an agent, then place a building
SIKES = card(["assassinate", "again"])          # 003: assassinate, then play another card
BEFORE = {"personalities": "standard"}          # the options of a game recorded before revision 2


def legal(g: Game, seat: int = 0) -> list[dict[str, object]]:
    return RULES.legal_actions(g.state, seat)


def test_highbury_pays_for_west_end_after_the_agent_is_placed() -> None:
    """Red with £10 who owns Highbury plays 010, places the agent: the Building symbol waits for Highbury's £2."""
    g = position(hands={0: [JAGGERS]}, money={0: 10}, spots={"highbury": {"building": 0}})
    run(g, "play 010")
    placed = run(g, "agent West End")
    assert [RULES.describe(e, None) for e in placed] == ["seat 0 places an agent in West End.",
                                                        "Next on Mr Jaggers: place a building (or skip it)."]
    assert legal(g) == [{"kind": "skip"}, {"kind": "power", "area": "highbury"}]
    view = RULES.view(g.state, 0)
    assert view["playing"]["number"] == "010" and view["symbol"] == 1
    assert view["prompt"]["text"] == "Go on with your card: use its next symbol, or skip it."
    assert view["prompt"]["default"] == {"kind": "skip"}
    assert said(run(g, "power Highbury")) == ["seat 0 uses the power of Highbury.",
                                             "The bank pays seat 0 £2 (an area power)."]
    assert legal(g) == [{"kind": "build", "area": "west_end"}, {"kind": "skip"}]
    assert said(run(g, "build West End")) == ["seat 0 pays the bank £12 (a building).",
                                             "seat 0 builds in West End and takes its City Area card."]
    assert g.state.buildings_of(0) == ["west_end", "highbury"] and g.state.players[0].money == 0
    assert legal(g) == [{"kind": "power", "area": "west_end"}, {"kind": "end"}]   # West End's power, at once


def test_a_game_of_revision_1_passes_the_symbol_over_at_once() -> None:
    g = position(hands={0: [JAGGERS]}, money={0: 10}, spots={"highbury": {"building": 0}}, recorded=BEFORE)
    assert g.state.readings.revision == 1
    run(g, "play 010")
    placed = run(g, "agent West End")
    assert [RULES.describe(e, None) for e in placed] == ["seat 0 places an agent in West End.", "The card is done."]
    assert legal(g) == [{"kind": "power", "area": "highbury"}, {"kind": "end"}]
    assert RULES.view(g.state, None)["playing"] is None


def test_two_powers_together_keep_it_open_until_the_second_makes_it_possible() -> None:
    g = position(hands={0: [JAGGERS]}, money={0: 8}, spots={"highbury": {"building": 0}, "west_end": {"building": 0}})
    run(g, "play 010")
    run(g, "agent Strand")   # Strand costs £12: £8 and two powers of £2
    assert legal(g) == [{"kind": "skip"}, {"kind": "power", "area": "west_end"},
                        {"kind": "power", "area": "highbury"}]
    run(g, "power Highbury")
    assert legal(g) == [{"kind": "skip"}, {"kind": "power", "area": "west_end"}]
    run(g, "power West End")
    assert legal(g) == [{"kind": "build", "area": "strand"}, {"kind": "skip"}]


def test_a_power_that_cannot_make_it_possible_does_not_keep_it_open() -> None:
    g = position(hands={0: [JAGGERS]}, money={0: 6}, spots={"southwark": {"building": 0}})
    run(g, "play 010")
    assert said(run(g, "agent West End")) == ["seat 0 places an agent in West End."]   # £6 and £1 < £12
    assert legal(g) == [{"kind": "power", "area": "southwark"}, {"kind": "end"}]


def test_once_no_power_could_make_it_possible_it_is_passed_over_at_once() -> None:
    """Bermondsey's £3 agent in East End (£6) would leave £6 to build there; placed in Southwark, it leaves nothing
    affordable, and the symbol goes."""
    g = position(hands={0: [JAGGERS]}, money={0: 9},
                 spots={"bermondsey": {"building": 0}, "city": {"agents": {0: 1}, "trouble": True}})
    run(g, "play 010")
    run(g, "agent City")
    assert legal(g) == [{"kind": "skip"}] + [{"kind": "power", "area": "bermondsey", "to": a}
                                             for a in ("city", "east_end", "bermondsey", "southwark")]
    moved = run(g, "power Bermondsey to Southwark")
    assert [RULES.describe(e, None) for e in moved] == [
        "seat 0 uses the power of Bermondsey.", "seat 0 pays the bank £3 (an area power).",
        "seat 0 places an agent in Southwark.", "The card is done."]
    assert legal(g) == [{"kind": "end"}]


def test_east_end_can_make_a_target_for_an_assassination() -> None:
    g = position(hands={0: [SIKES, JAGGERS]}, spots={"east_end": {"building": 0}, "city": {"agents": {1: 1}}})
    run(g, f"play {SIKES:03d}")
    assert legal(g) == [{"kind": "skip"}, {"kind": "power", "area": "east_end", "target": "city"}]
    assert said(run(g, "power East End on City")) == ["seat 0 uses the power of East End.",
                                                     "Trouble breaks out in City."]
    assert legal(g) == [{"kind": "assassinate", "area": "city", "target": 1}, {"kind": "skip"}]


def test_the_symbol_kept_open_can_still_be_skipped() -> None:
    g = position(hands={0: [JAGGERS]}, money={0: 10}, spots={"highbury": {"building": 0}})
    run(g, "play 010")
    run(g, "agent West End")
    assert [RULES.describe(e, None) for e in run(g, "skip")] == ["The card is done."]
    assert legal(g) == [{"kind": "power", "area": "highbury"}, {"kind": "end"}]
