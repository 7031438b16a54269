"""What a player reads of Nanty Narking: London drawn on pages, the tables and text board in mails, the hand
by the numbers the commands accept, and no internal key or step name anywhere."""

from __future__ import annotations

import email
import email.policy
import random
import re
import xml.etree.ElementTree as ET
from typing import Any, Iterator

import pytest
from flask import Flask

from events.handling import Cause
from pbem.games.nanty.present import PRESENTATION
from pbem.post.mail.render import build
from pbem.games.presentation import LINE_WIDTH, lookup
from pbem.service import Player, Service
from pbem.web import create_app
from tests.nanty.checks import read_draft

PLAYERS = [Player(f"{n.lower()}@example.org", n) for n in ("Alice", "Bob", "Carol")]
CLI = Cause("cli")
FORBIDDEN = [r"\bpending\b", r"plays_left", r"power_works", r'"kind"', r"\bkind:", r"east_end", r"west_end",
             r"place_trouble", r"draw_discard", r"discard_money", r"remove_trouble", r"\bask:", r"new_citizens",
             r"riot_act", r"inigo_jones", r"deck_out", r"holmes_classic", r"\bde_sidonia\b", r"agents_in_stock"]


def internals(text: str) -> list[str]:
    return [p for p in FORBIDDEN if re.search(p, text)]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, Service, str]]:
    app = create_app({"instance": tmp_path_factory.mktemp("nanty") / "inst", "secret_key": "k", "TESTING": True})
    service = Service.open(app.config["PBEM_SETTINGS"])
    game_id = service.create_game("nanty", PLAYERS, seed="present", options={"personalities": "classic"}).after.game_id
    chooser = random.Random(5)
    for _ in range(30):
        waiting = service.show(game_id)["waiting_for"]
        if not waiting:
            break
        who = PLAYERS[waiting[0]["seat"]].email
        legal = service.legal(game_id, who)
        moves = [e for e in legal if e["action"]["kind"] not in ("skip", "end")] or legal
        service.act(game_id, who, chooser.choice(moves)["text"], cause=CLI)
    yield app, service, game_id
    service.close()


def turn_mails(service: Service, game_id: str) -> list[dict[str, Any]]:
    rows = service.store.query("SELECT draft FROM outbox WHERE game_id = ? ORDER BY created_at", (game_id,))
    return [read_draft(r) for r in rows]


def parts(message: str) -> tuple[str, str]:
    parsed = email.message_from_string(message, policy=email.policy.default)
    return (parsed.get_body(("plain",)).get_content(),  # type: ignore[union-attr]
            parsed.get_body(("html",)).get_content())  # type: ignore[union-attr]


def test_nanty_has_its_presentation() -> None:
    assert lookup("nanty") is PRESENTATION


def test_mails_show_the_board_and_hand_in_words_and_no_internals(played: tuple[Flask, Service, str]) -> None:
    _, service, game_id = played
    drafts = turn_mails(service, game_id)
    assert drafts
    for draft in drafts:
        text, html = parts(build(draft))
        assert internals(text) == [] and internals(html) == [], (internals(text), internals(html))
        assert "<svg" not in html
    turn = [d for d in drafts if d["template"] == "turn"][-1]
    text, html = parts(build(turn))
    assert "LONDON" in text and "YOUR HAND" in text and "Westminster" in html
    hand = set(re.findall(r"^ +([0-9]{3})  \S", text[text.index("YOUR HAND"):], re.M))
    assert hand == {c["number"] for c in turn["context"]["view"]["you"]["hand"]}
    board = PRESENTATION.text_board(PRESENTATION.scene(turn["context"]["view"]))
    assert all(len(line) <= LINE_WIDTH for line in board)


def test_pages_draw_london_with_the_river_and_no_internals(played: tuple[Flask, Service, str]) -> None:
    app, service, game_id = played
    client = app.test_client()
    seat = service.show(game_id)["waiting_for"][0]["seat"]
    token = app.extensions["pbem.links"].play(game_id, seat, service.store.last(game_id)[0])
    for url in (f"/play/{token}", f"/games/{game_id}", f"/games/{game_id}/replay", f"/games/{game_id}/assumed"):
        page = client.get(url).get_data(as_text=True)
        assert internals(page) == [], (url, internals(page))
    play = client.get(f"/play/{token}").get_data(as_text=True)
    svg = re.search(r"<svg.*?</svg>", play, re.S)
    assert svg is not None
    root = ET.fromstring(svg[0])
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    titles = [t.text for t in root.iter("{http://www.w3.org/2000/svg}title")]
    assert "The River Thames" in titles and "Chelsea" in texts and "Bermondsey" in texts
    assert min(float(t.get("font-size", 0)) for t in root.iter("{http://www.w3.org/2000/svg}text")) >= 12
    assert '<ul class="places">' in play and "<h3>The areas</h3>" in play   # each area in words, as a card
    assert "You are <strong>" in play   # the reader's own personality, in words
    assumed = client.get(f"/games/{game_id}/assumed").get_data(as_text=True)
    assert "The character deck" in assumed


def test_the_scene_marks_trouble_grenadiers_citizens_and_buildings() -> None:
    view = {"phase": "play", "turn": 3, "active": 0, "seat": None, "players": [{"name": "Ann"}, {"name": "Ben"}],
            "areas": [{"id": "city", "name": "City", "cost": 6, "die": 6, "river": True, "agents": [2, 1],
                       "building": 1, "trouble": True, "grenadiers": 1, "citizens": 1, "neighbours": [],
                       "power_text": "p", "power_works": False}]}
    scene = PRESENTATION.scene(view)
    board = PRESENTATION.text_board(scene)
    assert any(line.startswith("City £6 (6, river)") and "Ann 2a | Ben 1a | B Ben | ! | G1 | N1" in line
               for line in board)
    root = ET.fromstring(PRESENTATION.svg(scene))
    titles = [t.text for t in root.iter("{http://www.w3.org/2000/svg}title")]
    assert "City: building £6, die 6; agents: Ann 2, Ben 1; building of Ben; trouble" in titles
    edge = next(r for r in root.iter("{http://www.w3.org/2000/svg}rect"))
    assert edge.get("stroke") == "#b00020" and edge.get("stroke-width") == "3"   # trouble: a thick red edge


def test_choices_are_grouped_and_said_in_words() -> None:
    view = {"phase": "play", "seat": 0, "players": [{"name": "Ann"}, {"name": "Ben"}],
            "areas": [{"id": "city", "name": "City"}, {"id": "east_end", "name": "East End"}],
            "playing": {"id": 7, "number": "007", "name": "Mrs Gamp", "symbols": ["money:3", "again"]}, "symbol": 0,
            "you": {"hand": [{"id": 1, "number": "001", "name": "Mr Micawber", "symbols": ["agent"]}]}}
    legal = [{"text": "take", "action": {"kind": "take"}}, {"text": "skip", "action": {"kind": "skip"}},
             {"text": "power East End on City", "action": {"kind": "power", "area": "east_end", "target": "city"}},
             {"text": "assassinate Ben in City", "action": {"kind": "assassinate", "area": "city", "target": 1}}]
    assert PRESENTATION.group(view, legal) == [
        ("Assassinate", [("assassinate Ben in City", "an agent of Ben in City")]),
        ("Take money", [("take", "take £3 from the bank")]),
        ("Use an area power", [("power East End on City", "East End: City")]),
        ("Skip or end", [("skip", "skip this symbol")])]


def test_areas_and_cards_an_action_is_about_can_be_clicked() -> None:
    view = {"areas": [{"id": "city", "name": "City"}, {"id": "strand", "name": "Strand"}], "players": [{"name": "Ann"}],
            "you": {"hand": [{"id": 12, "number": "012", "name": "Mr Guppy", "symbols": ["agent"]}]}}
    assert PRESENTATION.touches(view, {"kind": "agent", "area": "city", "from": "strand"}) == ["area:city", "area:strand"]
    assert PRESENTATION.touches(view, {"kind": "assassinate", "area": "city", "target": "grenadier"}) == ["area:city"]
    assert PRESENTATION.touches(view, {"kind": "play", "card": 12}) == ["card:012"]
    assert PRESENTATION.pick_name(view, "card:012") == "Mr Guppy (012)"
    assert PRESENTATION.pick_name(view, "area:strand") == "Strand"
    scene = PRESENTATION.scene({"phase": "play", "players": [{"name": "Ann"}],
                                "areas": [{"id": "city", "name": "City", "agents": [1], "neighbours": []}]})
    root = ET.fromstring(PRESENTATION.svg(scene, links={"area:city": "/play/t?on=area:city"}))
    anchors = list(root.iter("{http://www.w3.org/2000/svg}a"))
    assert [a.get("href") for a in anchors] == ["/play/t?on=area:city"]
