"""A game whose record was damaged by hand: every page of it answers 503 and names where, verify names the first
damaged event, and nothing answers a server error or prints a traceback.

Each kind of damage (a payload, visibility or cause that no longer parses, a ``pbem.GameCreated`` without its game
type, a gap in the sequence, a field of the wrong type, a hash that does not match, a row missing) is made at the
first event, one in the middle and the last, then every GET route of the app that takes a game or a token of it is
asked for, the routes read from the app's URL map (as ``test_web_fuzz.py`` does): a new route is checked without a
change here, and one whose token this test cannot make fails it until it is taught.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from typing import Any, Callable

import pytest
from click.testing import CliRunner
from flask import Flask
from werkzeug.routing import Rule

from cli.main import cli
from events.envelope import recompute_hash
from events.handling import Cause
from pbem.instance.links import Links
from pbem.service import Service
from web.conftest import ANN, BEN

CLI = Cause("cli")
Damage = Callable[[Service, str, int], None]

# The purposes of the tokens a game's page takes, by the route's endpoint; a token of no game is not this test's.
PLAY = {"play.page", "api.play", "proof.player_replay", "proof.player_audit", "seats.api_seats"}
ORGANISER = {"organise.show", "proof.organiser_audit"}
NOT_A_GAMES = {"home.page", "newgame.new", "muster.invitation", "muster.organiser_page", "api.muster_of",
               "api.invitation", "api.new_game_offer", "address.show", "dev.mail", "dev.mail_html"}


def _edit(column: str, change: Callable[[Any], Any]) -> Damage:
    def damage(service: Service, game: str, seq: int) -> None:
        [row] = service.store.query(f"SELECT {column} FROM events WHERE game_id = ? AND seq = ?", (game, seq))
        with service.store.transaction() as conn:
            conn.execute(f"UPDATE events SET {column} = ? WHERE game_id = ? AND seq = ?", (change(row[column]), game,
                                                                                        seq))
    return damage


def _payload(change: Callable[[dict[str, Any]], None]) -> Damage:
    def edited(text: str) -> str:
        value = json.loads(text)
        change(value)
        return json.dumps(value)
    return _edit("payload", edited)


def _every_field_a_word(payload: dict[str, Any]) -> None:
    payload.update({key: "seven" for key in payload})


def _delete(service: Service, game: str, seq: int) -> None:
    with service.store.transaction() as conn:
        conn.execute("DELETE FROM events WHERE game_id = ? AND seq = ?", (game, seq))


def _no_game_type(service: Service, game: str, seq: int) -> None:
    _payload(lambda created: created.pop("game_type"))(service, game, 1)


# Each kind of damage, made at the event the test names (which is then the first damaged one).
DAMAGES: dict[str, Damage] = {
    "a payload that no longer parses": _edit("payload", lambda text: text[:-2]),
    "a visibility that no longer parses": _edit("visibility", lambda text: "everyone"),
    "a cause that no longer parses": _edit("cause", lambda text: "{'via': 'cli'}"),
    "a payload that is no JSON object": _edit("payload", lambda text: "[1, 2]"),
    "a field of the wrong type": _payload(_every_field_a_word),
    "a hash that does not match": _edit("hash", lambda text: "0" * 64),
    "an event altered, its hash kept": _payload(lambda payload: payload.update(seat=1)),
    "a gap in the sequence (a row missing)": _delete,
}
ONLY_ON_SQLITE = {  # a column of the wrong type: PostgreSQL's columns refuse it, SQLite's keep it
    "a version of the wrong type": _edit("version", lambda number: "two"),
    "a seq of the wrong type": _edit("seq", lambda number: "seven"),
}


def _game(service: Service) -> str:
    """Fourteen events: set up, three moves each and an undo request open (its answer page is a page of the game)."""
    game = service.create_game("highdie", [ANN, BEN], seed="damaged").after.game_id
    for _ in range(2):
        service.act_as(game, 0, "bet 1", cause=CLI)
        service.act_as(game, 1, "bet 2", cause=CLI)
    service.request_undo(game, 0, "a slip", cause=CLI)
    return game


def _values(rule: Rule, game: str, service: Service, links: Links) -> dict[str, str]:
    """Values for the rule's arguments that name ``game``: a token of the purpose its endpoint reads."""
    known = {"game_id": game, "seq": "5", "kind": "organise"}  # kind: the API's webhook lists, the organiser's
    values = {name: known[name] for name in rule.arguments if name != "token"}
    if "token" not in rule.arguments:
        return values
    endpoint = rule.endpoint
    if endpoint in PLAY:
        values["token"] = links.play(game, 0, service.store.last(game)[0])
    elif endpoint in ORGANISER or endpoint == "api.list_webhooks":
        values["token"] = links.make("organiser", game)
    elif endpoint == "undo.show":
        request = service.undo_request(game)
        assert request is not None
        values["token"] = links.undo(game, request.request, 1)
    elif endpoint == "unsubscribe.ask":
        values["token"] = links.make("unsubscribe", f"{game}.1")
    else:
        raise AssertionError(f"{rule.rule} ({endpoint}) takes a token this test cannot make: teach it")
    return values


def game_pages(app: Flask, game: str, service: Service, links: Links) -> list[str]:
    """Every GET route of the app that takes a game or a token of one, as a URL of ``game``."""
    adapter = app.url_map.bind("localhost")
    urls = []
    for rule in app.url_map.iter_rules():
        if "GET" not in (rule.methods or set()) or not {"game_id", "token"} & set(rule.arguments) \
                or rule.endpoint in NOT_A_GAMES:
            continue
        url = adapter.build(rule.endpoint, _values(rule, game, service, links))
        urls.append(url + ("?seq=5" if rule.rule.endswith("/audit") else ""))
    assert len(urls) >= 15, urls
    return urls


def _kinds(database: str | None) -> list[str]:
    return list(DAMAGES) + ([] if database else list(ONLY_ON_SQLITE))


@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_every_page_of_a_damaged_game_answers_503_and_verify_names_the_first_damaged_event(
        app: Flask, service: Service, links: Links, database: str | None, where: str) -> None:
    client = app.test_client()
    for kind in _kinds(database):
        game = _game(service)
        at = {"first": 1, "middle": 6, "last": service.store.last(game)[0]}[where]
        if kind == "a gap in the sequence (a row missing)" and where == "last":
            continue  # a log cut short is a whole chain: only a server that read it, or a player's mail, knows
        pages = game_pages(app, game, service, links)
        {**DAMAGES, **ONLY_ON_SQLITE}[kind](service, game, at)
        named = re.compile(rf"\bevent {at}\b")
        for url in pages:
            page = client.get(url)
            said = page.get_data(as_text=True)
            if "/verify" in url:
                assert page.status_code == 200 and f"Verification failed at event {at}<" in said, (kind, at, said)
                continue
            assert page.status_code == 503, (kind, at, url, page.status_code, said[:300])
            assert "game_damaged" in said if url.startswith("/api/") else "This game cannot be shown" in said
            assert named.search(said), (kind, at, url, said[:600])
        report = service.verify(game)
        assert report.failure is not None and report.failure.seq == at, (kind, at, report.failure)


def test_a_game_created_without_its_game_type_answers_503_on_every_page(app: Flask, service: Service,
                                                                         links: Links) -> None:
    client = app.test_client()
    game = _game(service)
    pages = game_pages(app, game, service, links)
    _no_game_type(service, game, 1)
    for url in pages:
        page = client.get(url)
        assert page.status_code == (200 if "/verify" in url else 503), (url, page.status_code)
    assert service.verify(game).failure is not None and service.verify(game).failure.seq == 1  # type: ignore


def test_a_damaged_game_leaves_the_players_home_page_and_the_list_of_games_standing(app: Flask, service: Service,
                                                                                      links: Links) -> None:
    client = app.test_client()
    damaged, whole = _game(service), _game(service)
    DAMAGES["a payload that no longer parses"](service, damaged, 6)
    home = client.get(f"/home/{links.make('home', service.player_id(ANN.email))}")
    assert home.status_code == 200 and whole in home.get_data(as_text=True)
    assert client.get("/").status_code == 200
    assert client.get(f"/games/{whole}").status_code == 200


def test_a_rehashed_forgery_that_breaks_a_page_is_found_by_verification_not_a_server_error(
        app: Flask, service: Service, links: Links) -> None:
    """The forger rehashed every event after the one changed, so the chain holds: a page that fails on what was
    changed is diagnosed (the whole verification) before it could be called a server error."""
    client = app.test_client()
    game = _game(service)
    _no_game_type(service, game, 1)
    seed, events = service.kernel.seed(game), service.store.read(game)
    prev = events[0].prev_hash
    with service.store.transaction() as conn:
        for event in events:
            rehashed = recompute_hash(replace(event, prev_hash=prev), seed, seed)
            conn.execute("UPDATE events SET prev_hash = ?, hash = ? WHERE game_id = ? AND seq = ?",
                         (prev, rehashed, game, event.seq))
            prev = rehashed
    statuses = {url: client.get(url).status_code for url in game_pages(app, game, service, links)}
    assert 500 not in statuses.values(), statuses
    replay = client.get(f"/games/{game}/replay")  # replays from event 1, whose game type is gone
    assert replay.status_code == 503 and re.search(r"\bevent 1\b", replay.get_data(as_text=True))
    assert service.verify(game).failure is not None


def test_events_cut_from_the_end_of_a_game_this_server_has_read_answer_503(app: Flask, service: Service,
                                                                            links: Links) -> None:
    """A cut tail leaves a whole chain; but a server that read the game up to its end knows it had more events."""
    client = app.test_client()
    game = _game(service)
    assert client.get(f"/games/{game}").status_code == 200  # this process has checked the chain to its end
    _delete(service, game, service.store.last(game)[0])
    page = client.get(f"/games/{game}")
    assert page.status_code == 503 and "removed from its end" in page.get_data(as_text=True)


def test_a_process_checks_a_chain_whole_once_then_only_the_events_recorded_since(app: Flask, service: Service) -> None:
    """What a page costs: the first page of a game read in a process checks its whole chain; later pages check the
    events recorded since (one primary-key lookup when there are none). An edit behind what was checked waits for
    the next process, or for ``pbem game verify``."""
    client = app.test_client()
    game = _game(service)
    assert client.get(f"/games/{game}").status_code == 200
    DAMAGES["a hash that does not match"](service, game, 3)
    assert client.get(f"/games/{game}").status_code == 200  # behind the head this process checked
    checked = service.store.last(game)[0]
    service.answer_undo(game, service.undo_request(game).request, 1, "refuse", cause=CLI)  # type: ignore[union-attr]
    DAMAGES["a field of the wrong type"](service, game, checked + 1)  # among the new events: found
    page = client.get(f"/games/{game}")
    assert page.status_code == 503 and re.search(rf"\bevent {checked + 1}\b", page.get_data(as_text=True))
    assert service.verify(game).failure is not None and service.verify(game).failure.seq == 3  # type: ignore


@pytest.mark.parametrize("where", ["first", "middle", "last"])
def test_pbem_game_verify_names_the_first_damaged_event_for_every_kind_of_damage(
        app: Flask, service: Service, database: str | None, where: str) -> None:
    instance = str(service.settings.instance)
    for kind in _kinds(database) + ["a game created without its game type"]:
        game = _game(service)
        at = {"first": 1, "middle": 6, "last": service.store.last(game)[0]}[where]
        if kind == "a gap in the sequence (a row missing)" and where == "last":
            continue  # a whole chain, only shorter: the witnesses of players' mails find it (test_witness.py)
        if kind == "a game created without its game type":
            _no_game_type(service, game, at)
            at = 1
        else:
            {**DAMAGES, **ONLY_ON_SQLITE}[kind](service, game, at)
        for args in (["game", "verify", game], ["game", "verify", game, "--json"]):
            result = CliRunner().invoke(cli, ["--instance", instance, *args])
            assert result.exit_code == 1, (kind, at, result.output, result.exception)
            assert result.exception is None or isinstance(result.exception, SystemExit), (kind, result.exception)
            if "--json" in args:
                assert json.loads(result.output)["failure"]["seq"] == at, (kind, result.output)
            else:
                assert result.output.splitlines()[-1].startswith(f"FAILED at event {at}: "), (kind, result.output)
