"""The options a game of the 1st edition records, and how a game recorded before them is read."""

from __future__ import annotations

import pytest

from events.rules import InvalidAction
from pbem.games.emerald1 import RULES
from pbem.games.emerald1.options import OPTIONS, REVISION, Readings, readings
from tests.emerald1.harness import Game


def test_a_new_game_records_every_option_and_the_current_revision_and_keeps_the_delivery_layers() -> None:
    recorded = RULES.options({"turn_hours": 48})
    assert recorded == {"turn_hours": 48, "revision": REVISION, **{o.key: o.default().json for o in OPTIONS}}
    assert RULES.options({"revision": 1})["revision"] == REVISION  # a new game is never made under an old revision
    assert RULES.option_choices is OPTIONS


def test_a_game_recorded_before_options_reads_as_revision_one_and_each_option_as_it_was() -> None:
    assert Game.new(2, recorded={}).state.readings == Readings()
    assert Game.new(2).state.readings.revision == REVISION


def test_a_bad_option_value_is_refused_by_name() -> None:
    for option in OPTIONS:
        with pytest.raises(InvalidAction, match=option.key):
            RULES.options({option.key: "no such reading"})


def test_the_readings_have_a_field_for_each_option_and_its_default_before_it() -> None:
    fields = set(Readings.__dataclass_fields__)
    assert fields == {"revision", *(o.key for o in OPTIONS)}
    assert Readings() == readings({})
    for option in OPTIONS:
        assert getattr(Readings(), option.key) == option.read({})
        assert option.ruling.startswith("docs/emerald1-rulings.md#")


def test_each_option_points_at_its_ruling_on_the_rulings_page() -> None:
    import re
    from pathlib import Path
    page = (Path(__file__).parents[2] / "docs" / "emerald1-rulings.md").read_text(encoding="utf-8")
    anchors = {re.sub(r"[^a-z0-9 -]", "", h.lower()).replace(" ", "-") for h in re.findall(r"^### (.+)$", page, re.M)}
    for option in OPTIONS:
        assert option.ruling.split("#", 1)[1] in anchors, option.key
        assert f"`{option.key} = {option.default().json}`" in page and all(
            f"`{option.key} = {c.json}`" in page for c in option.choices), option.key
