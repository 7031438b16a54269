"""The data file: provenance, the deck's make-up, overrides validated (every problem at once) and recorded."""

from __future__ import annotations

from collections import Counter

import pytest

from events.rules import InvalidAction
from pbem.games.nanty import RULES
from pbem.games.nanty.data import catalog, load_data
from tests.nanty.harness import Game


def test_the_default_data_is_valid_and_says_what_is_assumed() -> None:
    data = load_data(None)
    cat = catalog(data)
    assert len(cat.cards) == 101 and len(cat.area_ids) == 12 and len(cat.events) == 12
    assert [a.card for a in cat.areas.values()] == list(range(114, 126))
    assert {"cards", "die.faces", "game.agents", "game.start_money"} <= set(data["assumed"])
    assert "game.bank" not in data["assumed"] and "game.hand_size" not in data["assumed"]
    assert all(reason for key, reason in data["assumed_reasons"].items())
    assert len(cat.personalities["standard"]) == 10 and len(cat.personalities["classic"]) == 7


def test_the_deck_has_a_symbol_mix_like_the_parent_design() -> None:
    cat = catalog(load_data(None))
    has = Counter(s.split(":")[0] for c in cat.cards.values() for s in set(c.symbols))
    assert 0.45 <= has["agent"] / 101 <= 0.65 and 0.12 <= has["assassinate"] / 101 <= 0.25
    assert 0.08 <= has["event"] / 101 <= 0.15 and 3 <= has["interrupt"] <= 6
    assert Counter(c.border for c in cat.cards.values()) == {"first": 48, "second": 53}


def test_the_board_is_symmetric_and_the_die_names_every_area_once() -> None:
    cat = catalog(load_data(None))
    for a in cat.areas.values():
        assert all(a.id in cat.areas[n].neighbours for n in a.neighbours)
    assert sorted(cat.die) == sorted(cat.area_ids)
    assert [a for a in cat.area_ids if cat.areas[a].start] == ["chelsea", "city", "east_end"]
    assert [a for a in cat.area_ids if not cat.areas[a].river] == ["west_end", "highbury"]


def test_an_override_reports_every_problem_at_once() -> None:
    with pytest.raises(InvalidAction) as err:
        load_data({"game": {"bank": "lots", "colour": 3}, "areas": [{"id": "chelsea", "neighbours": ["atlantis"]}],
                   "die": {"faces": ["chelsea"]}, "cards": [{"number": "001", "symbols": ["teleport"]}],
                   "personalities": [{"set": "classic", "id": "nobody", "goals": []}], "fleet": {}})
    text = str(err.value)
    for words in ("game.bank: must be a whole number", "game.colour: unknown setting", "unknown area 'atlantis'",
                  "die.faces: must name each", "unknown symbol 'teleport'", "personalities[0]: needs a known",
                  "fleet: unknown section"):
        assert words in text


def test_an_override_is_applied_recorded_and_no_longer_assumed() -> None:
    data = load_data({"game": {"start_money": 12}, "areas": [{"id": "lambeth", "cost": 20}]})
    assert "game.start_money" in data["overridden"] and "game.start_money" not in data["assumed"]
    g = Game.new(2, override={"game": {"start_money": 12}})
    assert [p.money for p in g.state.players] == [12, 12] and g.state.bank == 96
    assert catalog(data).areas["lambeth"].cost == 20


def test_options_choose_the_personalities_and_refuse_others() -> None:
    assert Game.new(2, variant="classic").state.variant == "classic"
    with pytest.raises(InvalidAction, match="personalities .Personalities. is one of 'standard', 'classic'"):
        Game.new(2, variant="modern")
    assert RULES.min_seats == 2 and RULES.max_seats == 4


def test_the_data_document_lists_every_card_and_every_assumed_setting() -> None:
    from pathlib import Path
    doc = (Path(__file__).parents[2] / "docs" / "nanty-data.md").read_text(encoding="utf-8")
    cat = catalog(load_data(None))
    for c in cat.cards.values():
        assert f"| {c.number} | {c.name} |" in doc, c.label
    for key in load_data(None)["assumed"]:
        if key.startswith("game."):
            assert f"`{key.split('.', 1)[1]}`" in doc, key
