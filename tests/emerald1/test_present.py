"""The presentation: the map drawn from a view, the text board, choices in words, no internal keys."""

from __future__ import annotations

import re

from pbem.games.emerald1 import RULES
from pbem.games.emerald1.present import PRESENTATION
from pbem.games.presentation import LINE_WIDTH, choices, lookup
from tests.emerald1.harness import random_playout
from tests.emerald1.position import arrange, cubes, hand, started

SVG = "{http://www.w3.org/2000/svg}"


def test_the_presentation_is_found_for_the_game_type() -> None:
    assert lookup("emerald1") is PRESENTATION


def test_the_map_draws_every_city_route_cost_and_junction_readable_on_a_phone() -> None:
    import xml.etree.ElementTree as ET
    game = started(cities=["paris", "rome", "cairo"])
    s = arrange(game)
    cubes(s, "city:berlin", 1, 2)
    svg = PRESENTATION.svg(PRESENTATION.scene(RULES.view(game.state, 0)))
    root = ET.fromstring(svg)                                    # well-formed
    texts = [t.text for t in root.iter(f"{SVG}text")]
    for name in ("Berlin", "St. Petersburg", "The Hague", "Washington", "Constantinople"):
        assert name in texts                                     # whole, never cut
    assert svg.count("stroke-dasharray") == 6                  # two junctions of three arms
    assert svg.count('r="10"') == 15                            # a cost circle per connection and junction
    assert "junction: London–Madrid–Washington: 3 gold" in svg
    assert root.get("viewBox") == "0 0 340 318" and root.get("role") == "img"   # no links: one picture
    assert min(float(t.get("font-size", 0)) for t in root.iter(f"{SVG}text")) >= 12  # 11 px on a 375-px phone


def test_cities_routes_and_cards_are_clicked_to_find_the_choices_about_them() -> None:
    import xml.etree.ElementTree as ET
    game = started()
    s = arrange(game)
    hand(s, 0, [101, 102, 103, 104, 105])
    view = RULES.view(game.state, 0)
    where = next(c["id"] for c in view["cities"] for a in c["agents"] if a["key"] == "m0")
    routes = [r["cities"] for r in view["map"] if where in r["cities"] and len(r["cities"]) == 2]
    to = next(c for c in routes[0] if c != where)
    move = {"kind": "move", "agent": "m0", "to": to}
    assert PRESENTATION.touches(view, move) == [f"city:{to}", f"city:{where}", "route:" + "-".join(sorted(routes[0]))]
    top_city, top = next((c["id"], c["top"]["number"]) for c in view["cities"] if (c.get("top") or {}).get("number"))
    place = {"kind": "place", "cards": [101, 103], "to": f"card:{top}"}
    assert PRESENTATION.touches(view, place) == [f"card:{top}", f"city:{top_city}", "card:101", "card:103"]
    assert PRESENTATION.pick_name(view, "route:berlin-vienna") == "the route Berlin–Vienna"
    assert PRESENTATION.pick_name(view, "card:101") == "Agent X (101)"
    links = {f"city:{to}": "/play/t?on=city:x", "route:" + "-".join(sorted(routes[0])): "/play/t?on=route:x"}
    root = ET.fromstring(PRESENTATION.svg(PRESENTATION.scene(view), links=links))
    anchors = list(root.iter(f"{SVG}a"))
    assert root.get("role") == "group" and len(anchors) == 2
    named = {a.get("aria-label") for a in anchors}
    assert next(c["name"] for c in view["cities"] if c["id"] == to) in named   # the name the reader sees on it


def test_a_long_group_is_divided_by_card_then_target() -> None:
    game = started()
    s = arrange(game)
    hand(s, 0, [101, 102, 103, 104, 105])
    view = RULES.view(game.state, 0)
    legal = [{"text": RULES.format(game.state, a), "action": a} for a in game.legal(0)]
    place = next(g for g in choices("emerald1", view, legal) if g["label"] == "Place cubes")
    assert len(place["choices"]) > 12 and len(place["parts"]) > 1
    first = place["parts"][0]
    assert first["label"].startswith("with Agent X (1") and first["choices"][0]["short"].startswith("on ")
    assert sum(len(p["choices"]) for p in place["parts"]) == len(place["choices"])


def test_the_text_board_fits_78_columns_and_shows_the_hand_with_numbers() -> None:
    game = started()
    s = arrange(game)
    hand(s, 0, [35, 101, 66, 104, 2])
    lines = PRESENTATION.text_board(PRESENTATION.scene(RULES.view(game.state, 0)))
    assert all(len(line) <= LINE_WIDTH for line in lines)
    text = "\n".join(lines)
    assert "   35  Hired Assassin" in text and "   66  London" in text and "ROUTES" in text


def test_choices_are_grouped_in_words_without_internal_keys() -> None:
    game = started()
    view = RULES.view(game.state, 0)
    legal = [{"text": RULES.format(game.state, a), "action": a} for a in game.legal(0)]
    groups = choices("emerald1", view, legal)
    labels = {g["label"] for g in groups}
    assert {"Place cubes", "Move agents", "Discard cards", "Pass or stop"} <= labels
    words = " ".join(c["label"] for g in groups for c in g["choices"])
    assert "city:" not in words and "card:" not in words and "m0" not in words


def test_no_scene_of_a_whole_game_carries_step_names_or_place_keys() -> None:
    game = random_playout(3, seed=3)
    for seat in (None, 0, 1, 2):
        scene = PRESENTATION.scene(RULES.view(game.state, seat))
        text = " ".join(PRESENTATION.text_board(scene)) + PRESENTATION.svg(scene)
        assert not re.search(r"city:|card:|zombie_place|end_of_turn|\bm[0-4]\b", text)


def test_routes_are_read_by_city_names_in_mails_not_by_their_keys() -> None:
    game = started(3)
    scene = PRESENTATION.scene(RULES.view(game.state, 0))
    board = PRESENTATION.text_board(scene)
    start = next(i for i, line in enumerate(board) if line.startswith("ROUTES"))
    routes = " ".join(board[start:start + 6])
    assert "St. Petersburg" in routes and "The Hague" in routes
    assert "the_hague" not in routes and "st_petersburg" not in routes
    from pbem.post.mail.render import environment
    html = environment().get_template("mail/games/emerald1.html").render(scene=scene)
    assert "the_hague" not in html and "The Hague" in html
