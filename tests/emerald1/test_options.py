"""The options a game of the 1st edition records, and how a game recorded before them is read."""

from __future__ import annotations

import pytest

from events.rules import InvalidAction
from pbem.games.emerald1 import RULES
from pbem.games.emerald1.options import OPTIONS, REVISION, Readings
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
