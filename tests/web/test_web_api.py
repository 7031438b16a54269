"""The JSON API: the same service and links as the pages, for bots; every error JSON with a 4xx."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from web.conftest import Game


def test_the_public_game_hides_the_hands_and_gives_the_public_log(client: FlaskClient, game: Game) -> None:
    response = client.get(f"/api/games/{game.id}")
    body = response.json
    assert response.status_code == 200 and response.headers["Cache-Control"] == "no-store"
    assert body["game"]["game_id"] == game.id and body["game"]["seat"] is None
    assert all("hand" not in p for p in body["game"]["view"]["players"])
    assert body["log"][0]["type"] == "pbem.GameCreated"
    assert all(e["payload"] is None for e in body["log"] if e["type"] == "dice.HandDealt")


def test_a_play_link_gives_the_private_view_the_prompt_and_the_legal_actions(client: FlaskClient,
                                                                             game: Game) -> None:
    body = client.get(f"/api/play/{game.token(0)}").json
    assert body["game"]["seat"] == 0 and body["game"]["view"]["players"][0]["hand"] == [9, 14]
    assert body["prompt"]["kind"] == "turn" and body["deadline"]
    assert {"text": "bet 3", "action": {"kind": "bet", "points": 3}} in body["legal_actions"]


@pytest.mark.parametrize("command", [{"text": "bet 3"}, {"action": {"kind": "bet", "points": 3}}])
def test_posting_a_command_returns_the_receipt_and_the_next_link(client: FlaskClient, game: Game,
                                                                 command: dict[str, Any]) -> None:
    before = game.seq()
    response = client.post(f"/api/play/{game.token(0)}", json=command)
    body = response.json
    assert response.status_code == 200
    stored = game.service.store.read(game.id, before)
    assert body["receipt"] == [{"seq": e.seq, "type": e.type, "hash": e.hash} for e in stored]
    assert stored[0].cause["via"] == "api"
    assert body["seq"] == game.seq() and body["status"] == "running" and body["prompt"] is None
    assert body["next_url"] == f"/api/play/{body['next_token']}"
    assert client.get(body["next_url"]).status_code == 200


BAD = [
    ("not json", dict(data="bet 3", content_type="text/plain"), 415, "unsupported_media_type"),
    ("broken json", dict(data="{", content_type="application/json"), 400, "bad_request"),
    ("deep json", dict(data="[" * 30_000 + "]" * 30_000, content_type="application/json"), 400, "bad_request"),
    ("a list", dict(json=["bet 3"]), 400, "bad_request"),
    ("neither", dict(json={}), 400, "bad_request"),
    ("both", dict(json={"text": "bet 3", "action": {"kind": "bet", "points": 3}}), 400, "bad_request"),
    ("unknown key", dict(json={"text": "bet 3", "seat": 1}), 400, "bad_request"),
    ("text a number", dict(json={"text": 3}), 400, "bad_request"),
    ("text empty", dict(json={"text": "  "}), 400, "bad_request"),
    ("action a string", dict(json={"action": "bet 3"}), 400, "bad_request"),
    ("action without kind", dict(json={"action": {"points": 3}}), 400, "bad_request"),
    ("kind not a string", dict(json={"action": {"kind": 3}}), 400, "bad_request"),
    ("points a float", dict(json={"action": {"kind": "bet", "points": 3.0}}), 422, "illegal_command"),
    ("points a bool", dict(json={"action": {"kind": "bet", "points": True}}), 422, "illegal_command"),
    ("points a list", dict(json={"action": {"kind": "bet", "points": [3]}}), 422, "illegal_command"),
    ("illegal action", dict(json={"action": {"kind": "play", "card": 3}}), 422, "illegal_command"),
    ("unparseable", dict(json={"text": "dance"}), 400, "invalid_command"),
    ("illegal text", dict(json={"text": "play 3"}), 422, "illegal_command"),
    ("too long", dict(json={"text": "x" * 5000}), 400, "bad_field"),
]


@pytest.mark.parametrize("case", BAD, ids=[c[0] for c in BAD])
def test_bad_api_input_is_a_json_4xx_and_writes_nothing(client: FlaskClient, game: Game, case: tuple) -> None:
    _, kwargs, status, code = case
    before = (game.seq(), game.outbox())
    response = client.post(f"/api/play/{game.token(0)}", **kwargs)
    assert response.status_code == status and response.is_json
    assert response.json["error"] == code and response.json["message"]
    if status == 422:
        assert "bet 3" in response.json["legal"]
    assert (game.seq(), game.outbox()) == before


def test_a_stale_api_link_gives_the_current_one(client: FlaskClient, game: Game) -> None:
    token = game.token(0)
    assert client.post(f"/api/play/{token}", json={"text": "bet 1"}).status_code == 200
    before = game.seq()
    for response in (client.get(f"/api/play/{token}"), client.post(f"/api/play/{token}", json={"text": "bet 1"})):
        body = response.json
        assert response.status_code == 409 and body["error"] == "stale" and body["current_seq"] == before
        assert body["current_url"] == f"/api/play/{body['current_token']}" and "moved on" in body["message"]
    assert game.seq() == before


def test_api_errors_for_unknown_things_are_json(client: FlaskClient, game: Game) -> None:
    assert client.get("/api/games/nosuchgame").json["error"] == "unknown_game"
    assert client.get("/api/nothing").status_code == 404 and client.get("/api/nothing").is_json
    assert client.get("/api/play/not-a-token").json["error"] == "forged_link"
    response = client.delete(f"/api/play/{game.token(0)}")
    assert response.status_code == 405 and response.is_json
