"""Webhooks on the pages and in the JSON API: a player's on their home page and through their play link, a game's
on the organiser's page and through the organiser's link; the address never shown back, bad input refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from flask import Flask
from flask.testing import FlaskClient

from cli.main import cli
from pbem.web import create_app
from web.conftest import ANN, BEN, SECRET, Game, csrf_of, seq_of, text

HOOK = "http://127.0.0.1:9/hook-path-secret"


@pytest.fixture
def app(tmp_path: Path, highdie_registered: None, database: str | None) -> Flask:
    return create_app({"instance": tmp_path / "inst", "secret_key": SECRET, "dev_mode": True, "TESTING": True,
                       "webhook_loopback": True, "webhook_limit": 2})


def hooks(game: Game) -> list[dict[str, Any]]:
    return game.service.store.query("SELECT * FROM webhooks ORDER BY created_at")


def test_a_player_adds_and_removes_a_webhook_on_their_home_page(client: FlaskClient, game: Game) -> None:
    token = game.links.make("home", game.service.player_id(ANN.email))
    page = client.get(f"/home/{token}")
    assert page.status_code == 200 and "No webhook yet" in text(page)
    csrf = csrf_of(text(page))
    added = client.post(f"/home/{token}/webhooks", data={"csrf": csrf, "url": HOOK, "kind": "json"})
    shown = text(added)
    assert added.status_code == 200 and "JSON webhook at 127.0.0.1" in shown
    row = hooks(game)[0]
    assert row["owner"] == ANN.email and row["url"] == HOOK
    assert row["secret"] in shown and "hook-path-secret" not in shown  # the secret once; the address never
    again = text(client.get(f"/home/{token}"))
    assert row["secret"] not in again and "127.0.0.1" in again and "hook-path-secret" not in again
    removed = client.post(f"/home/{token}/webhooks/remove", data={"csrf": csrf, "webhook": row["id"]})
    assert removed.status_code == 200 and "removed" in text(removed) and hooks(game)[0]["removed_at"]
    twice = client.post(f"/home/{token}/webhooks/remove", data={"csrf": csrf, "webhook": row["id"]})
    assert twice.status_code == 404 and "Nothing was changed" in text(twice)


@pytest.mark.parametrize("form,words", [
    ({"url": "http://example.org/x"}, "must start with https://"),
    ({"url": "https://10.1.2.3/x"}, "private network"),
    ({"url": ""}, "give the webhook"),
    ({"url": "https://example.org/x", "kind": "teams"}, "discord, slack or json"),
    ({"url": "https://example.org/x", "kind": "discord"}, "Discord webhook address looks like"),
])
def test_a_bad_webhook_is_refused_on_the_home_page_with_nothing_written(client: FlaskClient, game: Game,
                                                                        form: dict[str, str], words: str) -> None:
    token = game.links.make("home", game.service.player_id(ANN.email))
    csrf = csrf_of(text(client.get(f"/home/{token}")))
    refused = client.post(f"/home/{token}/webhooks", data={"csrf": csrf, **form})
    assert refused.status_code == 400 and words in text(refused) and "Nothing was changed" in text(refused)
    assert hooks(game) == []


def test_a_home_page_post_without_its_csrf_token_changes_nothing(client: FlaskClient, game: Game) -> None:
    token = game.links.make("home", game.service.player_id(ANN.email))
    assert client.post(f"/home/{token}/webhooks", data={"url": HOOK}).status_code == 403
    assert hooks(game) == []


def test_the_organiser_adds_and_removes_the_game_s_webhook(client: FlaskClient, game: Game) -> None:
    token = game.links.make("organiser", game.id)
    page = text(client.get(f"/organise/{token}"))
    csrf = game.links.csrf(token)
    added = client.post(f"/organise/{token}/webhooks", data={"csrf": csrf, "seq": seq_of(page), "url": HOOK})
    assert added.status_code == 200 and "public news is now posted" in text(added)
    row = hooks(game)[0]
    assert row["owner_kind"] == "game" and row["owner"] == game.id and row["kind"] == "json"
    last = game.service.store.read(game.id)[-1]
    assert last.type == "pbem.WebhookAdded" and last.actor == "organiser" and last.cause["via"] == "link"
    assert last.payload == {"webhook": row["id"], "kind": "json", "host": "127.0.0.1"}
    public = text(client.get(f"/games/{game.id}"))
    assert "hook-path-secret" not in public
    removed = client.post(f"/organise/{token}/webhooks/remove",
                          data={"csrf": csrf, "seq": seq_of(text(added)), "webhook": row["id"]})
    assert removed.status_code == 200 and game.service.store.read(game.id)[-1].type == "pbem.WebhookRemoved"
    bad = client.post(f"/organise/{token}/webhooks", data={"csrf": csrf, "seq": seq_of(text(removed)),
                                                           "url": "https://user:pw@example.org/x"})
    assert bad.status_code == 400 and "user name or password" in text(bad)
    assert game.service.store.read(game.id)[-1].type == "pbem.WebhookRemoved"


def test_the_api_lists_adds_and_removes_a_player_s_and_the_game_s_webhooks(client: FlaskClient, game: Game) -> None:
    for base in (f"/api/play/{game.token(1)}", f"/api/organise/{game.links.make('organiser', game.id)}"):
        added = client.post(f"{base}/webhooks", json={"url": HOOK})
        assert added.status_code == 201, added.get_json()
        body = added.get_json()
        assert body["webhook"]["host"] == "127.0.0.1" and body["webhook"]["kind"] == "json" and body["secret"]
        listed = client.get(f"{base}/webhooks").get_json()["webhooks"]
        assert [h["id"] for h in listed] == [body["webhook"]["id"]]
        assert "hook-path-secret" not in json.dumps(listed) and body["secret"] not in json.dumps(listed)
        second = client.post(f"{base}/webhooks", json={"url": HOOK + "2", "kind": "slack"}).get_json()
        full = client.post(f"{base}/webhooks", json={"url": HOOK + "3"})
        assert full.status_code == 400 and "at most 2 webhooks" in full.get_json()["message"]
        assert client.delete(f"{base}/webhooks/{second['webhook']['id']}").get_json() == {
            "removed": second["webhook"]["id"]}
        gone = client.delete(f"{base}/webhooks/{second['webhook']['id']}")
        assert gone.status_code == 404 and gone.get_json()["error"] == "not_found"
    owners = {(h["owner_kind"], h["owner"]) for h in hooks(game)}
    assert owners == {("player", BEN.email), ("game", game.id)}


@pytest.mark.parametrize("body,status,words", [
    ({"url": "ftp://example.org/x"}, 400, "starts with https://"),
    ({"url": 5}, 400, '"url" must be a string'),
    ({"url": HOOK, "colour": "red"}, 400, "only kind, seq, url"),
    ([HOOK], 400, "JSON object"),
])
def test_the_api_refuses_bad_input_plainly(client: FlaskClient, game: Game, body: Any, status: int,
                                           words: str) -> None:
    response = client.post(f"/api/play/{game.token(0)}/webhooks", json=body)
    assert response.status_code == status and words in response.get_json()["message"]
    plain = client.post(f"/api/play/{game.token(0)}/webhooks", data=json.dumps({"url": HOOK}),
                        content_type="text/plain")
    assert plain.status_code == 415
    assert hooks(game) == []


def test_the_cli_adds_lists_and_removes_webhooks(app: Flask, game: Game, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_WEBHOOK_LOOPBACK", "1")
    monkeypatch.setenv("PBEM_SECRET_KEY", SECRET)
    instance = str(app.config["PBEM_SETTINGS"].instance)

    def run(*args: str, ok: bool = True) -> str:
        result = CliRunner().invoke(cli, ["--instance", instance, *args])
        assert (result.exit_code == 0) == ok, result.output
        return result.output

    (game.service.settings.instance / "pbem.toml").write_text("", encoding="utf-8")  # an instance folder
    said = run("webhook", "add", "--game", game.id, HOOK)
    hook_id = said.split()[1].rstrip(":")
    assert "JSON at 127.0.0.1" in said and "signing secret" in said
    assert hook_id in run("webhook", "list", "--game", game.id)
    listed = json.loads(run("webhook", "list", "--game", game.id, "--json"))
    assert listed[0]["id"] == hook_id and "hook-path-secret" not in json.dumps(listed)
    assert "Discord" in run("webhook", "add", "--player", ANN.email, "--kind", "discord", HOOK)
    assert "no webhooks" in run("webhook", "list", "--player", BEN.email)
    assert "give exactly one" in run("webhook", "list", ok=False)
    assert "starts with https://" in run("webhook", "add", "--game", game.id, "ftp://x.org/", ok=False)
    assert f"webhook {hook_id} removed" in run("webhook", "remove", "--game", game.id, hook_id)
    assert "no webhook" in run("webhook", "remove", "--game", game.id, hook_id, ok=False)
