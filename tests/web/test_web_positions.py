"""A game begun from a position, asked for on the new-game page (an uploaded TOML file) and through the JSON API (an
object): the game checks the position before anything is written, the muster keeps it for the server alone, and
the game its players accept begins from it, the same for every seat as the game it was taken from.
"""

from __future__ import annotations

import io
import json
import random
import tomllib
from typing import Any

import pytest
import tomli_w
from flask.testing import FlaskClient

from delivery import parse, text_of
from events.handling import Cause
from events.schema import POSITION_GIVEN
from pbem.instance.links import Links
from pbem.organising import muster, organisers
from pbem.post.mail.outbox import message_of
from pbem.service import Player, Service
from web.conftest import csrf_of, text

PLAYERS = [Player("ann@example.org", "Ann"), Player("ben@example.org", "Ben"), Player("cy@example.org", "Cy")]


def new_game_path(service: Service, links: Links) -> str:
    """The new-game page of Olive, whom the operator invited."""
    assert service.notifier is not None
    organisers.invite(service.store, service.notifier, "olive@example.org")
    return f"/new/{links.make('newgame', organisers.organiser_id('olive@example.org'))}"


def taken_from(service: Service, game_type: str = "emerald", moves: int = 12) -> tuple[str, int, str]:
    """A game played some way, its last event, and its position there as the organiser's file."""
    game_id = service.create_game(game_type, PLAYERS, seed=f"from-{game_type}").after.game_id
    pick = random.Random(7)
    for _ in range(moves):
        state = service.load(game_id)
        rules = service.kernel.rules(state)
        seat = sorted(rules.prompts(state.game))[0]
        legal = rules.legal_actions(state.game, seat)
        service.act_as(game_id, seat, pick.choice([a for a in legal if a["kind"] != "pass"] or legal),
                       cause=Cause("test"))
    return game_id, service.store.last(game_id)[0], service.position(game_id)


def form(csrf: str, game: str = "emerald", **extra: Any) -> dict[str, Any]:
    rows = [(p.name, p.email) for p in PLAYERS] + [("", "")] * 3
    return {"csrf": csrf, "game": game, "turn_hours": "48", "interrupt_hours": "12", "name": "Olive",
            "player_name": [r[0] for r in rows], "player_email": [r[1] for r in rows], **extra}


def everyone_accepts(service: Service, muster_id: str) -> str:
    found = muster.get(service.store, muster_id)
    for place in found.invitations:
        found = muster.answer(service, muster_id, place.slot, place.invitation, "accept", cause=Cause("test"))
    assert found.status == "started" and found.game_id is not None
    return found.game_id


def same_game(service: Service, original: str, at: int, begun: str) -> None:
    """Every seat and the spectator see the same table and every seat is offered the same commands."""
    then, now = service.load(original, upto_seq=at), service.load(begun)
    rules = service.kernel.rules(then)
    for seat in (None, 0, 1, 2):
        assert rules.view(now.game, seat) == rules.view(then.game, seat), seat
    for seat in (0, 1, 2):
        assert service.legal_texts(now, seat) == service.legal_texts(then, seat), seat


def counts(service: Service) -> tuple[int, int, int]:
    """Musters, games and mails written so far: a refusal adds to none."""
    query = service.store.query
    return (len(muster.listing(service.store)), len(service.list_games()),
            int(query("SELECT count(*) AS n FROM outbox")[0]["n"]))


def test_a_position_uploaded_on_the_new_game_page_begins_the_game_everyone_accepts(
        client: FlaskClient, service: Service, links: Links) -> None:
    original, at, written = taken_from(service)
    path = new_game_path(service, links)
    page = text(client.get(path))
    assert "Starting position (optional)" in page and 'name="position"' in page
    sent = client.post(path, data={**form(csrf_of(page)), "position": (io.BytesIO(written.encode()), "disputed.toml")},
                       content_type="multipart/form-data")
    assert sent.status_code == 303
    shown = text(client.get(sent.headers["Location"]))
    assert "From a position the organiser set up, not from a new deal" in shown
    [found] = muster.listing(service.store)
    opened = service.store.read(found["muster_id"], 0, 1)[0]
    assert opened.payload["position"] == tomllib.loads(written) and opened.visibility.kind == "server"
    [invitation] = service.store.query("SELECT * FROM outbox WHERE to_addr = ? AND kind = 'muster'",
                                       ("ben@example.org",))
    assert "begins from a position the organiser set up" in " ".join(text_of(parse(message_of(invitation))).split())

    begun = everyone_accepts(service, found["muster_id"])
    first = service.store.read(begun, 0, 2)
    assert first[0].payload["from_position"] is True and first[0].payload["options"]["turn_hours"] == 48
    assert first[1].type == POSITION_GIVEN and first[1].visibility.kind == "server"
    same_game(service, original, at, begun)


@pytest.mark.parametrize("position, words", [
    (b"players = [", "the position file is not valid TOML"),
    (b"\xff\xfe", "the position file is not text"),
    (b"# only a comment\n", "the position is empty"),
    (b"when = 1979-05-27", "the position holds a date"),
])
def test_a_position_file_that_is_no_position_gives_the_form_back_and_writes_nothing(
        client: FlaskClient, service: Service, links: Links, position: bytes, words: str) -> None:
    path = new_game_path(service, links)
    before = counts(service)
    page = text(client.get(path))
    refused = client.post(path, data={**form(csrf_of(page)), "position": (io.BytesIO(position), "p.toml")},
                          content_type="multipart/form-data")
    assert refused.status_code == 400 and words.lower() in text(refused).lower()
    assert "choose the data and position files again" in text(refused)
    assert counts(service) == before


def test_a_position_the_game_refuses_is_named_by_its_field_and_nothing_is_written(
        client: FlaskClient, service: Service, links: Links) -> None:
    _, _, written = taken_from(service, "nanty")
    position = tomllib.loads(written)
    position["players"][1]["money"] = -3
    path = new_game_path(service, links)
    before = counts(service)
    page = text(client.get(path))
    refused = client.post(path, data={**form(csrf_of(page), game="nanty"),
                                      "position": (io.BytesIO(tomli_w.dumps(position).encode()), "p.toml")},
                          content_type="multipart/form-data")
    assert refused.status_code == 400 and "players[1].money" in text(refused)
    wrong_game = client.post(path, data={**form(csrf_of(page), game="emerald"),
                                         "position": (io.BytesIO(written.encode()), "p.toml")},
                             content_type="multipart/form-data")
    assert wrong_game.status_code == 400 and "unknown field" in text(wrong_game)
    assert counts(service) == before


def api(client: FlaskClient, path: str, body: Any) -> Any:
    return client.post(path, data=json.dumps(body), content_type="application/json")


def test_the_api_offers_each_game_with_its_options_in_words(client: FlaskClient, service: Service,
                                                            links: Links) -> None:
    offer = client.get("/api" + new_game_path(service, links)).get_json()
    games = {g["game"]: g for g in offer["games"]}
    assert {"emerald", "emerald1", "nanty"} <= set(games) and all(games[g]["positions"] for g in games)
    cthulhu = next(o for o in games["emerald"]["options"] if o["key"] == "cthulhu_takes_royalty")
    assert cthulhu["label"] == "Cthulhu and the Royalty card of its city" and cthulhu["default"] == "no"
    assert cthulhu["choices"][1] == {"value": "yes", "words": "Cthulhu removes the Royalty card with the other cards",
                                     "json": True}
    assert games["emerald"]["min_players"] == 2 and offer["defaults"]["vacation"] == "allowance"
    assert client.get("/api/new/forged").status_code == 403


def test_a_position_given_to_the_api_as_an_object_begins_the_game(client: FlaskClient, service: Service,
                                                                   links: Links) -> None:
    original, at, written = taken_from(service, "emerald1")
    path = "/api" + new_game_path(service, links)
    body = {"game": "emerald1", "players": [{"name": p.name, "email": p.email} for p in PLAYERS],
            "options": {"zombie_kill_card": "discarded", "claim_full_tie": "nobody"}, "turn_hours": 36,
            "vacation": "run", "autopilot_after": 2, "position": tomllib.loads(written), "name": "Olive",
            "request": "0123456789abcdef"}
    created = api(client, path, body)
    assert created.status_code == 201, created.get_json()
    answer = created.get_json()
    assert answer["muster"]["position"] is True and answer["muster"]["options"]["claim_full_tie"] == "nobody"
    assert answer["muster"]["options"]["vacation"] == "run" and answer["muster"]["options"]["turn_hours"] == 36
    assert client.get(answer["url"]).get_json()["muster_id"] == answer["muster"]["muster_id"]
    again = api(client, path, body)  # a client's retry of the same request opens no second muster
    assert again.get_json()["muster"]["muster_id"] == answer["muster"]["muster_id"]
    assert len(muster.listing(service.store)) == 1
    begun = everyone_accepts(service, answer["muster"]["muster_id"])
    same_game(service, original, at, begun)


@pytest.mark.parametrize("change, status, code, words", [
    ({"position": {"turn": 1}}, 400, "bad_field", "position"),
    ({"position": []}, 400, "bad_field", "the position must be an object"),
    ({"options": {"cthulhu_takes_royalty": "maybe"}}, 400, "bad_field",
     "Cthulhu and the Royalty card of its city: choose one of the choices offered (no or yes), not 'maybe'"),
    ({"options": {"cthulu_takes_royalty": "yes"}}, 400, "bad_field", "has no option 'cthulu_takes_royalty'"),
    ({"players": [{"name": "Ann"}]}, 400, "bad_field", "has no email address"),
    ({"players": "Ann, Ben"}, 400, "bad_request", '"players" must be a list'),
    ({"turn_hours": "48"}, 400, "bad_request", "are numbers"),
    ({"turn_hours": 2000}, 400, "bad_field", "between a quarter of an hour"),
    ({"seed": "mine"}, 400, "bad_request", "only"),
    ({"request": "again"}, 400, "bad_request", "16 lowercase hex digits"),
])
def test_a_refused_api_request_says_what_to_fix_and_writes_nothing(
        client: FlaskClient, service: Service, links: Links, change: dict[str, Any], status: int, code: str,
        words: str) -> None:
    path = "/api" + new_game_path(service, links)
    body = {"game": "emerald", "players": [{"name": p.name, "email": p.email} for p in PLAYERS], **change}
    before = counts(service)
    refused = api(client, path, body)
    assert refused.status_code == status and refused.get_json()["error"] == code
    assert words in refused.get_json()["message"]
    assert counts(service) == before


def test_the_api_takes_the_options_as_the_page_sends_them_or_as_their_json(client: FlaskClient, service: Service,
                                                                            links: Links) -> None:
    path = "/api" + new_game_path(service, links)
    players = [{"name": p.name, "email": p.email} for p in PLAYERS]
    as_value = api(client, path, {"game": "emerald", "players": players,
                                  "options": {"cthulhu_takes_royalty": "yes", "free_actions_after_last_action": "no"}})
    as_json = api(client, path, {"game": "emerald", "players": players,
                                 "options": {"cthulhu_takes_royalty": True, "free_actions_after_last_action": False}})
    chosen = [r.get_json()["muster"]["options"] for r in (as_value, as_json)]
    assert chosen[0] == chosen[1] and chosen[0]["cthulhu_takes_royalty"] is True
    assert api(client, path, {"game": "emerald", "players": players,
                              "options": {"free_actions_after_last_action": 1}}).status_code == 400
    refused = client.post(path, data="{}", content_type="text/json")
    assert refused.status_code == 415
