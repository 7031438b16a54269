"""The presentation: the map drawn from a view, the text board, choices in words, no internal keys."""

from __future__ import annotations

import re

from pbem.games.emerald1 import RULES
from pbem.games.emerald1.present import PRESENTATION
from pbem.games.presentation import LINE_WIDTH, choices, lookup
from tests.emerald1.harness import random_playout
from tests.emerald1.position import arrange, cubes, hand, started


def test_the_presentation_is_found_for_the_game_type() -> None:
    assert lookup("emerald1") is PRESENTATION


def test_the_svg_draws_every_city_route_cost_junction_and_both_tracks() -> None:
    game = started(cities=["paris", "rome", "cairo"])
    s = arrange(game)
    cubes(s, "city:berlin", 1, 2)
    svg = PRESENTATION.svg(PRESENTATION.scene(RULES.view(game.state, 0)))
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    import xml.etree.ElementTree as ET
    ET.fromstring(svg)                                           # well-formed
    for name in ("Berlin", "St. Petersburg", "The Hague", "Washington", "War: 0", "Revolution: 0"):
        assert name in svg
    assert svg.count("stroke-dasharray") == 6                  # two junctions of three arms
    assert svg.count('r="9"') == 15                             # a cost circle per connection and junction
    assert "junction: London, Madrid, Washington" in svg


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
