"""The data file: provenance, the manifest's 61 Game cards, overrides validated and recorded."""

from __future__ import annotations

import pytest

from events.rules import InvalidAction
from pbem.games.emerald1 import RULES
from pbem.games.emerald1.data import catalog, load_data
from tests.emerald1.harness import Game
from tests.emerald1.position import arrange, hand, payloads


def test_the_manifest_as_printed_61_game_cards_12_cities_12_permanent_effects() -> None:
    data = load_data()
    cat = catalog(data)
    assert len(cat.game_card_ids) == 61 and "61 Game cards" in data["manifest_note"]
    assert sum(1 for c in cat.cards.values() if c.kind == "city") == 12
    assert sum(1 for c in cat.cards.values() if c.kind == "pe") == 12
    names = [cat.cards[c].name for c in cat.game_card_ids]
    assert names.count("Hired Assassin") == 6 and names.count("Freemasons") == 3 and names.count("Hide Royalty") == 3


def test_rulebook_values_are_not_listed_as_assumed_and_the_map_is() -> None:
    data = load_data()
    assumed = data["assumed"]
    assert "cities.berlin.vp" not in assumed and "cities.washington.royal.defence" not in assumed
    assert "agents.16.bombs" not in assumed and "agents.2.resto_vp" not in assumed
    assert "map (every connection, junction and cost)" in assumed and "game.sanity_mad" in assumed
    assert "cities.berlin.royal.defence" in assumed and "game.track_vp" in assumed


def test_the_default_map_keeps_every_city_reachable_with_two_connections() -> None:
    cat = catalog(load_data())
    assert all(len(cat.neighbours[c]) >= 2 for c in cat.city_ids)


def test_an_override_changes_values_is_recorded_and_is_no_longer_assumed() -> None:
    data = load_data({"game": {"sanity_mad": 8}, "cities": [{"id": "cairo", "vp": 4}]})
    assert data["game"]["sanity_mad"] == 8 and data["overridden"] == ["cities.cairo.vp", "game.sanity_mad"]
    assert "game.sanity_mad" not in data["assumed"] and "cities.cairo.vp" not in data["assumed"]
    game = Game.new(2, override={"game": {"sanity_mad": 8}})
    assert game.state.sanity_pool.count("mad") == 8


def test_a_bad_override_reports_every_problem_at_once() -> None:
    with pytest.raises(InvalidAction) as err:
        load_data({"game": {"hand_size": "five", "colour": 1},
                   "cities": [{"id": "atlantis", "vp": 1}, {"id": "rome", "vp": -1}],
                   "map": {"connections": [["rome", "nowhere", 1]], "junctions": []},
                   "spells": {}})
    text = str(err.value)
    for words in ("game.hand_size: must be a whole number", "game.colour: unknown setting",
                  "unknown id 'atlantis'", "cities.rome.vp: must be between 0 and 20",
                  "map.connections[0]", "spells: unknown section", "not every city can be reached"):
        assert words in text, words


def test_the_rules_load_data_entry_point() -> None:
    assert RULES.load_data(None) == load_data()


def test_the_data_doc_names_every_assumed_value() -> None:
    from pathlib import Path
    doc = (Path(__file__).parents[2] / "docs" / "emerald1-data.md").read_text(encoding="utf-8")
    missing = [key for key in load_data()["assumed"] if key not in doc]
    assert not missing, missing


LEAF_MAP = {"map": {
    "connections": [["london", "paris", 1], ["london", "the_hague", 1], ["paris", "the_hague", 1],
                    ["the_hague", "berlin", 1], ["paris", "zurich", 1], ["zurich", "vienna", 1],
                    ["berlin", "vienna", 1], ["berlin", "st_petersburg", 2], ["vienna", "st_petersburg", 2], ["paris", "madrid", 2],
                    ["zurich", "rome", 2], ["vienna", "constantinople", 2], ["constantinople", "cairo", 2],
                    ["london", "washington", 3]],
    "junctions": [[["madrid", "rome", "cairo"], 2]]}}


def test_a_groups_map_may_hang_a_city_off_one_connection_but_must_be_connected() -> None:
    """Washington hangs off London alone: accepted (docs/emerald1-rulings.md, 46). Without that connection it is cut
    off: refused, by name."""
    cat = catalog(load_data(LEAF_MAP))
    assert cat.neighbours["washington"] == ("london",)
    cut = {"map": {**LEAF_MAP["map"], "connections": LEAF_MAP["map"]["connections"][:-1]}}
    with pytest.raises(InvalidAction, match="not every city can be reached \\(cut off: washington\\)"):
        load_data(cut)


def test_an_agent_forced_out_of_a_leaf_city_goes_to_its_one_neighbour() -> None:
    """Bismarck on Washington: "each player apart from the active player must move each of their agents in the
    city to an adjacent connected city"; London is the only one, so Bob's Main Agent goes there at once."""
    game = Game.new(3, seed="leaf", override=LEAF_MAP)
    game.start(["washington", "washington", "cairo"])
    s = arrange(game)
    s.active = 0
    s.owner["washington"] = 0
    hand(s, 0, [23, 101, 102, 103, 104])
    events = game.act(0, {"kind": "card", "card": 23, "city": "washington"})
    assert payloads(events, "AgentMoved") == [{"seat": 1, "agent": "m1", "from": "washington", "to": "london",
                                               "cost": 0, "why": "forced out"}]
    assert not game.state.window and game.state.agents["m0"]["city"] == "washington"
