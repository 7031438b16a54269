"""The data files: counts, provenance, overrides and the validator."""

from __future__ import annotations

from pathlib import Path

import pytest

from events.handling import Kernel
from events.rules import InvalidAction
from events.store import SQLiteEventStore
from pbem.games.emerald import RULES
from pbem.games.emerald.data import catalog
from tests.emerald.harness import Game


def test_default_data_has_every_component() -> None:
    data = RULES.load_data(None)
    assert sum(c["copies"] for c in data["game_cards"]) == 66
    assert len(data["starting_cards"]) == 10
    assert [c["name"] for c in data["cities"]] == ["Berlin", "Cairo", "Constantinople", "London", "Madrid",
                                                   "Paris", "Rome", "St. Petersburg", "Vienna"]
    assert len(data["royalty"]) == 9
    assert len(data["sanity_die"]["faces"]) == 6
    cat = catalog(data)
    assert len([c for c in cat.cards.values() if c.kind == "start"]) == 50


def test_rulebook_values_are_as_written() -> None:
    data = RULES.load_data(None)
    g = data["game"]
    assert g["victory_target"] == {"2": 28, "3": 24, "4": 22, "5": 20}
    assert g["cards_per_space"] == {"2": 3, "3": 3, "4": 4, "5": 5}
    cities = {c["id"]: c for c in data["cities"]}
    assert cities["paris"]["defence"] == 4
    assert cities["berlin"]["symbols"]["vp_neutral"] + cities["madrid"]["symbols"]["vp_neutral"] == 8
    royal = {r["city"]: r for r in data["royalty"]}
    assert (royal["paris"]["name"], royal["paris"]["defence"], royal["paris"]["vp"]) == \
        ("The Spinner in the Darkness", 5, 4)
    assert royal["london"]["name"] == "Gloriana"
    cards = {c["number"]: c for c in data["game_cards"]}
    assert cards["046"]["symbols"]["bomb"] == 3
    assert cards["054"]["symbols"]["kill_vp"] == 3 and cards["054"]["symbols"]["insanity"] == 1
    assert cards["020"]["symbols"]["kill_vp"] == 4
    assert cards["011"]["symbols"]["vp_resto"] == 1
    assert cards["005"]["symbols"]["agent"] == 2
    starting = {c["number"]: c for c in data["starting_cards"]}
    assert starting["S002"]["name"] == "Hired Assassin"
    assert any(c["symbols"].get("cube") == 2 for c in data["starting_cards"])


def test_assumed_values_are_listed() -> None:
    data = RULES.load_data(None)
    assumed = set(data["assumed"])
    assert "sanity_die.faces" in assumed
    assert "cities.london.defence" in assumed
    assert "cities.paris.defence" not in assumed
    assert "royalty.paris.vp" not in assumed
    assert "royalty.cairo.vp" in assumed
    assert "game.identities" in assumed
    assert "game.victory_target" not in assumed
    assert all(k in ("die_faces", "identities", "card_list", "card_symbols", "city_vp", "city_defence",
                     "royalty", "starting_cards", "kill_vp_type") for k in data["assumed_reasons"])


def test_an_override_is_applied_and_no_longer_assumed() -> None:
    data = RULES.load_data({"cities": [{"id": "london", "defence": 6}],
                            "sanity_die": {"faces": ["insane", "blank", "blank", "blank", "blank", "blank"]},
                            "game_cards": [{"number": "001", "symbols": {"claim": 2}}]})
    cities = {c["id"]: c for c in data["cities"]}
    assert cities["london"]["defence"] == 6
    assert "cities.london.defence" not in data["assumed"]
    assert "cities.london.defence" in data["overridden"]
    assert data["sanity_die"]["faces"].count("insane") == 1
    assert {c["number"]: c for c in data["game_cards"]}["001"]["symbols"]["claim"] == 2
    game = Game.new(3, override={"cities": [{"id": "london", "defence": 6}]})
    assert game.state.cat.city_defence["london"] == 6
    assert game.config.data["overridden"] == ["cities.london.defence"]


def test_the_validator_reports_every_problem_at_once() -> None:
    with pytest.raises(InvalidAction) as err:
        RULES.load_data({"game": {"agents": "ten", "colour": "red"},
                         "cities": [{"id": "atlantis", "defence": 3}, {"id": "paris", "defence": -1},
                                    {"id": "rome", "defense": 4}],
                         "royalty": [{"city": "paris", "vp": "x"}],
                         "sanity_die": {"faces": ["skull"]},
                         "game_cards": [{"number": "001", "copies": 2, "symbols": {"laser": 1}},
                                        {"number": "031", "text": "nonsense"}],
                         "widgets": {}})
    text = str(err.value)
    for bit in ("game.agents", "game.colour", "atlantis", "cities.paris.defence", "royalty.paris.vp",
                "sanity_die.faces", "laser", "nonsense", "67", "widgets",
                "cities.rome.defense: unknown field"):
        assert bit in text, bit


def test_config_data_is_json_and_recorded() -> None:
    import json
    data = RULES.load_data(None)
    assert json.loads(json.dumps(data)) == data


def test_a_snapshot_keeps_the_catalog_as_its_data_and_reads_back_the_same_state() -> None:
    import dataclasses
    import pickle
    from pbem.games.emerald.data import _catalog
    game = Game.new(3, seed="snapshot")
    state = game.state
    RULES.view(state, None)  # fills the state's cache of its public view: a cache, not kept in a snapshot
    blob = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
    back = pickle.loads(blob)
    assert back == state and back.cat is state.cat  # the catalog comes back from the cache of catalogs
    assert "_public_view" not in back.__dict__
    assert pickle.loads(pickle.dumps(state.cat)) is _catalog(state.cat.source)
    # a state read from an older snapshot, whose catalog kept every field but not its data, still pickles
    older = dataclasses.replace(state.cat, source="")
    assert pickle.loads(pickle.dumps(older)) == state.cat


def test_an_effect_that_is_one_of_a_kind_is_counted_by_its_text_not_by_the_card_number(tmp_path: Path) -> None:
    """Fenians: "You cannot play two Fenian cards to quadruple their value." A second card given the Fenians text
    by an override is refused, as a second copy of card 032 is: with both in hand, Hired Assassin with both as bombs
    was offered ({"card": 39, "bombs": [14, 32]})."""
    second_text = {"game_cards": [{"number": "014", "text": "fenians", "text_type": "one-use benefit"}]}
    refusals = {
        "game_cards.014.text, game_cards.032.text: the fenians effect is one of a kind (at most one card in the "
        "game), not 2 cards": second_text,
        "game_cards.032.text (2 copies): the fenians effect is one of a kind (at most one card in the game), not 2 "
        "cards": {"game_cards": [{"number": "032", "copies": 2}, {"number": "001", "copies": 0}]},
        "game_cards.061.text, starting_cards.S003.text (in every player's deck): the zombies effect is one of a "
        "kind (at most one card in the game), not 6 cards":
            {"starting_cards": [{"number": "S003", "text": "zombies", "text_type": "action"}]},
    }
    for words, override in refusals.items():
        with pytest.raises(InvalidAction) as err:
            RULES.load_data(override)
        assert str(err.value) == "The game data has problems:\n- " + words
    moved = RULES.load_data({"game_cards": [{"number": "014", "text": "fenians", "text_type": "one-use benefit"},
                                            {"number": "032", "text": "", "text_type": ""}]})
    assert [c["number"] for c in moved["game_cards"] if c["text"] == "fenians"] == ["014"]   # moved, not doubled
    kernel = Kernel(SQLiteEventStore(tmp_path / "e.sqlite3"), {"emerald": RULES})
    with pytest.raises(InvalidAction, match="the fenians effect is one of a kind"):
        kernel.create("emerald", ["Ann", "Bob"], data_override=second_text, game_id="two-fenians")
    assert kernel.store.last("two-fenians")[0] == 0
    kernel.store.close()
