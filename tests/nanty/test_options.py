"""A new game records every option it is played under; a game recorded before an option existed keeps the reading
it began with; each contested ruling's option is on the rulings page with both of its readings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from events.handling import Kernel
from events.rules import InvalidAction
from events.store import SQLiteEventStore
from pbem.games.nanty import RULES
from pbem.games.nanty.options import OPTIONS
from pbem.games.nanty.readings import CONTESTED, Readings, readings

DEFAULTS = {"personalities": "standard", "interrupts": "targeted", "fire_saved_building": "goes_on",
            "fire_spread": "ends", "power_relocation": "lift", "relocation_adjacency": "after_lifting",
            "grenadier_counts": "counted", "ties": "shared", "revision": 2}


@pytest.fixture
def nanty(store: SQLiteEventStore) -> Kernel:
    return Kernel(store, {"nanty": RULES})


def test_a_new_game_records_every_option_with_its_default_and_the_rules_revision(nanty: Kernel) -> None:
    created = nanty.create("nanty", ["Ann", "Ben"], seed="o")
    assert created.events[0].payload["options"] == DEFAULTS
    assert created.after.game.readings == Readings(revision=2, fire_saved_building="goes_on")


def test_chosen_options_are_recorded_as_the_rules_read_them_and_other_layers_keys_pass_through(nanty: Kernel) -> None:
    chosen = {"personalities": "classic", "interrupts": "any_time", "ties": "money", "grenadiers_disable_powers": "no",
              "turn_hours": 48}
    created = nanty.create("nanty", ["Ann", "Ben"], seed="o", options=chosen)
    assert created.events[0].payload["options"] == {**DEFAULTS, "personalities": "classic", "interrupts": "any_time",
                                                    "ties": "money", "grenadiers_disable_powers": False,
                                                    "turn_hours": 48}
    game = created.after.game
    assert game.variant == "classic" and not game.grenadiers_disable
    assert (game.readings.interrupts, game.readings.ties) == ("any_time", "money")


def test_a_game_created_without_the_grenadier_option_follows_its_data(nanty: Kernel) -> None:
    created = nanty.create("nanty", ["Ann", "Ben"], seed="o",
                           data_override={"game": {"grenadiers_disable_powers": False}})
    assert "grenadiers_disable_powers" not in created.events[0].payload["options"]
    assert created.after.game.grenadiers_disable is False
    assert nanty.create("nanty", ["Ann", "Ben"], seed="o").after.game.grenadiers_disable is True


def test_a_bad_option_is_refused_by_name_and_nothing_is_written(nanty: Kernel) -> None:
    with pytest.raises(InvalidAction, match=r"option fire_saved_building \(A building Holborn keeps from a Fire\) is "
                                            r"one of 'goes_on', 'stops', not 'smoulders'"):
        nanty.create("nanty", ["Ann", "Ben"], seed="o", game_id="bad", options={"fire_saved_building": "smoulders"})
    assert nanty.store.last("bad")[0] == 0


def test_a_game_recorded_before_the_options_keeps_the_readings_it_began_with() -> None:
    assert readings({}) == Readings(revision=1, interrupts="targeted", fire_saved_building="stops", fire_spread="ends",
                                    power_relocation="lift", relocation_adjacency="after_lifting",
                                    grenadier_counts="counted", ties="shared")
    assert readings({"personalities": "classic"}).revision == 1
    with pytest.raises(InvalidAction, match="revision"):
        readings({"revision": 3})


def test_each_contested_ruling_is_on_the_rulings_page_with_its_option_and_both_readings() -> None:
    page = (Path(__file__).parents[2] / "docs" / "nanty-rulings.md").read_text(encoding="utf-8")
    for option in OPTIONS:
        number = option.ruling.rsplit("#", 1)[1]
        ruling = re.search(rf"^{number}\. (.*?)(?=^\d+\. |^## |\Z)", page, re.M | re.S)
        assert ruling is not None, option.key
        text = ruling.group(1)
        assert f"`{option.key}`" in text, option.key
        for choice in option.choices:
            assert f"`{choice.value}`" in text, (option.key, choice.value)
        assert text.count("\"") >= 2, f"ruling {number} quotes the aid"
    assert {o.key for o in CONTESTED} < {o.key for o in OPTIONS}
