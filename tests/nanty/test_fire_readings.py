"""The two contested readings of Fire (docs/nanty-rulings.md 4 and 28), each as a table may choose it.

The aid: "FIRE – Roll the die; if there is no building in the area then the event ends. If there is a building it
is removed and the die is rolled again. If this area is adjacent, then the building is removed. Continue until an
area without a building is rolled." Holborn: "Whenever one of your pieces is affected by a random event you can pay
£3 to ignore it." Die faces: 1 Chelsea, 4 Strand, 5 Holborn, 9 Bermondsey, 11 Lambeth.
"""

from __future__ import annotations

from typing import Any

from pbem.games.nanty import RULES
from tests.nanty.harness import Dice, Game, card, position, run, said

EVENT = card(["agent", "event"])
BURNING = {"holborn": {"building": 1}, "strand": {"building": 1}, "lambeth": {"building": 2},
           "bermondsey": {"building": 0}}


def fire(*faces: int, options: dict[str, Any] | None = None, recorded: dict[str, Any] | None = None) -> tuple[Game, list[str]]:
    g = position(hands={0: [EVENT]}, events=["fire"], spots=BURNING, options=options, recorded=recorded)
    run(g, f"play {EVENT}")
    return g, said(run(g, "skip", Dice(*faces)))


def test_a_building_holborn_keeps_still_stands_so_the_fire_goes_on_from_it() -> None:
    """fire_saved_building = goes_on (the default): "Continue until an area without a building is rolled"."""
    g, lines = fire(4)
    assert lines == ["Random Event: Fire!", "The die shows 4: Strand."]
    prompt = RULES.prompts(g.state)[1]
    assert prompt.text == "A Random Event strikes your pieces in Strand: pay £3 apiece with Holborn to keep them?"
    assert RULES.view(g.state, None)["event"] == {"id": "fire", "stage": "burn", "area": "strand"}
    lines = said(run(g, "protect the building", Dice(11, 1)))
    assert lines == ["seat 1 uses the power of Holborn.", "seat 1 pays the bank £3 (Holborn's protection).",
                     "The die shows 11: Lambeth.", "The building of seat 2 in Lambeth is removed (fire).",
                     "The die shows 1: Chelsea."]
    assert [g.state.spot(a).building for a in ("strand", "lambeth", "holborn")] == [1, -1, 1]
    assert g.state.players[1].money == 7 and RULES.view(g.state, None)["event"] is None


def test_the_fire_goes_on_only_next_to_the_saved_building() -> None:
    g, _ = fire(4)
    assert said(run(g, "protect the building", Dice(9)))[-1] == "The die shows 9: Bermondsey."
    assert g.state.spot("bermondsey").building == 0   # not next to Strand: the fire is over


def test_a_building_holborn_keeps_stops_the_fire_where_the_table_reads_it_so() -> None:
    """fire_saved_building = stops, as every game recorded before the option: nothing burnt there."""
    for g, _ in (fire(4, options={"fire_saved_building": "stops"}), fire(4, recorded={"personalities": "standard"})):
        assert g.state.readings.fire_saved_building == "stops"
        lines = said(run(g, "protect the building", Dice()))   # no die is rolled again
        assert lines == ["seat 1 uses the power of Holborn.", "seat 1 pays the bank £3 (Holborn's protection)."]
        assert g.state.spot("lambeth").building == 2 and RULES.view(g.state, None)["event"] is None


def test_a_roll_not_next_to_the_fire_ends_it() -> None:
    """fire_spread = ends (the default): "If this area is adjacent" is the condition for the fire to go on."""
    g, lines = fire(11, 9)
    assert lines == ["Random Event: Fire!", "The die shows 11: Lambeth.",
                     "The building of seat 2 in Lambeth is removed (fire).", "The die shows 9: Bermondsey."]
    assert g.state.spot("bermondsey").building == 0 and g.state.spot("strand").building == 1


def test_a_building_not_next_to_the_fire_is_spared_and_the_die_rolled_again_where_the_table_reads_it_so() -> None:
    """fire_spread = rolls_on: only "an area without a building" ends the fire."""
    g, lines = fire(11, 9, 1, options={"fire_spread": "rolls_on"})
    assert lines == ["Random Event: Fire!", "The die shows 11: Lambeth.",
                     "The building of seat 2 in Lambeth is removed (fire).", "The die shows 9: Bermondsey.",
                     "The die shows 1: Chelsea."]
    assert g.state.spot("bermondsey").building == 0
    g, lines = fire(11, 9, 4, options={"fire_spread": "rolls_on"})   # then Strand, next to Lambeth: it burns
    assert lines[-1] == "The die shows 4: Strand." and RULES.prompts(g.state)[1].text.startswith(
        "A Random Event strikes your pieces in Strand")
    assert said(run(g, "protect nothing", Dice(10))) == ["The building of seat 1 in Strand is removed (fire).",
                                                         "The die shows 10: Southwark."]
