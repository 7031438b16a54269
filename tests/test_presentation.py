"""What a player reads of A Study in Emerald: the board, the hand and the table in words, on pages and in mails.

A seeded three-player game is played some moves; then every mail and every page a player reads is
searched for the game's internals (state keys, step names, data keys), the hand's numbers are checked
against the legal commands and the examples, and the board's shapes are checked: the SVG parses, the
text board fits a terminal, the mail is small.
"""

from __future__ import annotations

import email
import email.policy
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any, Iterator

import pytest
from flask import Flask

from events.handling import Cause
from pbem.games.emerald.commands import parse_command
from pbem.games.emerald.present import PRESENTATION
from pbem.post.mail.render import build
from pbem.games.presentation import LINE_WIDTH, lookup, present
from pbem.service import Player, Service
from pbem.web import create_app
from pbem.post.mail.outbox import draft_of

PLAYERS = [Player(f"{n.lower()}@example.org", n) for n in ("Alice", "Bob", "Carol")]
CLI = Cause("cli")
KINDS = ("turn", "prompt", "reminder", "timeout", "receipt", "undone")

# What must never reach a player: the view's keys and their dumped labels, step names, data keys.
FORBIDDEN = [r"actions_done", r"actions done:", r"\bactive:", r'"step": ', r"\bstep:", r"text_type", r"text type:",
             r"\bdefault:", r"\bkind:", r"\bprompt:", r"cities\.[a-z]", r"game_cards\.[0-9]",
             r"starting_cards\.", r"royalty\.[a-z]", r"place_agent", r"move_agent", r"take_cube", r"zombie_supply",
             r"uses assumed data", r"end_of_turn", r"assassinate_more", r"zombie_place", r"zombie_remove",
             r"\b(?:emerald1?|nanty|pbem)\.[A-Z]"]  # an event's type name (the audit pages have them)


def internals(text: str) -> list[str]:
    return [pattern for pattern in FORBIDDEN if re.search(pattern, text)]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Flask, Service, str]]:
    folder = tmp_path_factory.mktemp("present")
    # every decision mailed at once (no mail held for a player who just acted): the last mail is the game as it is
    app = create_app({"instance": folder / "inst", "secret_key": "present-test-key", "TESTING": True, "idle_minutes": 0})
    service = Service.open(app.config["PBEM_SETTINGS"])
    game_id = service.create_game("emerald", PLAYERS, seed="present").after.game_id
    chooser = random.Random(7)
    for _ in range(40):
        waiting = service.show(game_id)["waiting_for"]
        if not waiting:
            break
        email_ = PLAYERS[waiting[0]["seat"]].email
        legal = service.legal(game_id, email_)
        moves = [entry for entry in legal if entry["action"]["kind"] != "pass"] or legal
        service.act(game_id, email_, chooser.choice(moves)["text"], cause=CLI)
    yield app, service, game_id
    service.close()


def drafts(service: Service, game_id: str) -> list[dict[str, Any]]:
    rows = service.store.query("SELECT draft FROM outbox WHERE game_id = ? ORDER BY created_at", (game_id,))
    return [draft_of(row) for row in rows]


def parts(message: str) -> tuple[str, str]:
    parsed = email.message_from_string(message, policy=email.policy.default)
    text = parsed.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    html = parsed.get_body(("html",)).get_content()  # type: ignore[union-attr]
    return text, html


def last_turn_mail(service: Service, game_id: str) -> dict[str, Any]:
    return [d for d in drafts(service, game_id) if d["template"] == "turn"][-1]


def test_emerald_has_a_presentation_and_unknown_games_fall_back_to_the_generic_renderer() -> None:
    assert lookup("emerald") is PRESENTATION
    assert lookup("no_such_game") is None and present("no_such_game", {}) is None


def test_no_mail_of_any_kind_shows_internal_keys_or_data_key_lists(played: tuple[Flask, Service, str]) -> None:
    _, service, game_id = played
    sample = last_turn_mail(service, game_id)
    for draft in drafts(service, game_id) + [{**sample, "template": kind} for kind in KINDS]:
        text, html = parts(build(draft))
        assert internals(text) == [], (draft["template"], internals(text))
        assert internals(html) == [], (draft["template"], internals(html))
        assert "Some card values are assumed" in text and "/assumed" in text


def test_the_turn_mail_is_small_and_its_text_board_fits_a_terminal(played: tuple[Flask, Service, str]) -> None:
    _, service, game_id = played
    draft = last_turn_mail(service, game_id)
    message = build(draft)
    assert len(message.encode()) < 30_000
    text, html = parts(message)
    assert "THE TABLE, AS YOU SEE IT" in text and "YOUR HAND" in text and "<svg" not in html
    board = PRESENTATION.text_board(PRESENTATION.scene(draft["context"]["view"]))
    assert len(board) < 40 and all(len(line) <= LINE_WIDTH for line in board)
    assert all(len(line) <= LINE_WIDTH for line in text[text.index("THE TABLE"):].splitlines()[:-8])


def test_the_hand_names_cards_by_the_numbers_the_commands_and_examples_use(
        played: tuple[Flask, Service, str]) -> None:
    _, service, game_id = played
    draft = last_turn_mail(service, game_id)
    text, html = parts(build(draft))
    hand = {int(n) for n in re.findall(r"^ +([0-9]+)  \S", text[text.index("YOUR HAND"):], re.M)}
    assert hand == {c["id"] for c in draft["context"]["view"]["you"]["hand"]}
    seat = draft["context"]["seat"]
    state = service.load(game_id)
    for command in service.legal_texts(state, seat) + draft["context"]["commands"]:
        used = re.search(r"(?:using|with) ([0-9 ]+)", command)
        if used:
            assert {int(n) for n in used[1].split()} <= hand, command
    for number in hand:
        assert f"<strong>{number}</strong>" in html


def test_a_starting_card_s_printed_number_is_read_as_the_number_commands_use(
        played: tuple[Flask, Service, str]) -> None:
    _, service, game_id = played
    state = service.load(game_id)
    rules = service.kernel.rules(state)
    seat = service.show(game_id)["waiting_for"][0]["seat"]
    printed = f"S{(200 + 100 * seat + 1) % 100:03d}"
    assert parse_command(state.game, f"discard {printed}") == {"kind": "discard", "cards": [100 * (seat + 2) + 1]}
    assert rules.parse(state.game, f"move markers: loyalist using {printed.lower()}")["loyal"] == [100 * (seat + 2) + 1]


def test_every_page_a_player_reads_draws_the_board_without_internals(played: tuple[Flask, Service, str]) -> None:
    app, service, game_id = played
    client = app.test_client()
    links = app.extensions["pbem.links"]
    seat = service.show(game_id)["waiting_for"][0]["seat"]
    token = links.play(game_id, seat, service.store.last(game_id)[0])
    pages = [f"/play/{token}", f"/games/{game_id}", f"/games/{game_id}/replay", f"/play/{token}/replay",
             f"/games/{game_id}/assumed"]
    for url in pages:
        page = client.get(url).get_data(as_text=True)
        assert internals(page) == [], (url, internals(page))
    play = client.get(f"/play/{token}").get_data(as_text=True)
    svg = re.search(r"<svg.*?</svg>", play, re.S)
    assert svg is not None
    root = ET.fromstring(svg[0])
    assert root.get("viewBox") and root.get("width") == "100%"
    names = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert names == ["Restorationist track: 0 of 10", "Loyalist track: 0 of 10"]  # the tracks drawn
    cities = re.findall(r"<h4>(?:<a [^>]+>)?([^<]+)(?:</a>)? <span", play)    # the cities as cards, named whole
    assert "London" in cities and "Vienna" in cities and "St. Petersburg" in cities
    assert play.index("Your move") < play.index("<svg")  # the decision first, then the board
    assert re.search(r"Turn [0-9]+: \w+ to play, action [12] of 2", play)
    state = service.load(game_id)
    rules = service.kernel.rules(state)
    action = rules.legal_actions(state.game, seat)[0]
    done = client.post(f"/play/{token}", data={"csrf": links.csrf(token), "seq": str(state.seq),
                                               "text": rules.format(state.game, action)})
    receipt = done.get_data(as_text=True)
    assert done.status_code == 200 and 'id="receipt-h"' in receipt
    assert internals(receipt) == [], internals(receipt)  # the receipt names each event in words


def test_the_assumed_page_lists_the_assumed_values_grouped(played: tuple[Flask, Service, str]) -> None:
    app, _, game_id = played
    page = app.test_client().get(f"/games/{game_id}/assumed").get_data(as_text=True)
    assert "Game cards" in page and "Cities" in page and "card 006" in page
    assert app.test_client().get("/games/nosuchgame/assumed").status_code == 404


def test_the_scene_is_built_from_the_view_alone(tmp_path: Path) -> None:
    view = {"game": "emerald", "phase": "play", "turn": 6, "active": 1, "actions_done": 1, "seat": 0,
            "tracks": {"restorationist": 2, "loyalist": 1, "max": 10}, "players": [{"name": "Ann"}, {"name": "Ben"}],
            "cities": [{"name": "London", "defence": 4, "agents": [1, 0], "cubes": [2, 1], "zombies": [0, 0],
                        "top": {"id": 35, "number": "035", "name": "Freemasons", "kind": "game", "symbols": {},
                                "text": "freemasons", "text_type": "free action"}}],
            "you": {"hand": [{"id": 310, "number": "S010", "name": "Organiser", "kind": "start",
                              "symbols": {"cube": 1, "retrieve": 1}}], "identity_card": "loyalist"}}
    scene = PRESENTATION.scene(view)
    assert scene["turn_words"] == "Turn 6: Ben to play, action 2 of 2."
    board = PRESENTATION.text_board(scene)
    assert any(line.startswith("London (def 4)") and "Ann 1a 2c | Ben 1c" in line for line in board)
    assert any(line.strip().startswith("310  Organiser: place a cube, retrieve a cube") for line in board)
    assert "S010" not in "\n".join(board)
    ET.fromstring(PRESENTATION.svg(scene))
