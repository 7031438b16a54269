"""Signed links refused: forged, tampered, expired, wrong purpose, unknown game or seat, stale, replayed, raced."""

from __future__ import annotations

import re
import threading
import time
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from pbem.instance.links import Links
from web.conftest import SECRET, Game, text


def expired(links: Links, purpose: str, subject: str) -> str:
    """A token signed long ago with the right key."""
    old = Links([SECRET], links.max_age)
    old._signers[purpose].get_timestamp = lambda: int(time.time()) - links.max_age - 3600  # type: ignore[method-assign]
    return old.make(purpose, subject)


def tampered(token: str) -> str:
    """One character of the signature changed: not the last, whose low bits base64 may ignore."""
    changed = token[-5]
    return token[:-5] + ("A" if changed != "A" else "B") + token[-4:]


def refusals(game: Game) -> list[tuple[str, str, int]]:
    token = game.token(0)
    subject = f"{game.id}.0.{game.seq()}"
    return [
        ("forged", Links(["another key"], 3600).play(game.id, 0, game.seq()), 403),
        ("tampered signature", tampered(token), 403),
        ("tampered seat", token.replace(f"{game.id}.0.", f"{game.id}.1.", 1), 403),
        ("cut short", token[:-8], 403),
        ("not a token", "..%2e..", 403),
        ("expired", expired(game.links, "play", subject), 410),
        ("wrong purpose", game.links.make("unsubscribe", f"{game.id}.0"), 403),
        ("home token", game.links.make("home", "abc"), 403),
        ("unknown game", game.links.play("nosuchgame", 0, 1), 404),
        ("unknown seat", game.links.play(game.id, 7, game.seq()), 404),
    ]


@pytest.mark.parametrize("case", range(10))
def test_a_bad_link_is_a_clear_page_on_every_method_and_writes_nothing(client: FlaskClient, game: Game,
                                                                    case: int) -> None:
    name, token, status = refusals(game)[case]
    before = (game.seq(), game.outbox())
    csrf = game.links.csrf(game.token(0))
    for method, path, data in (("GET", "", None), ("POST", "/preview", {"csrf": csrf, "text": "bet 1"}),
                               ("POST", "", {"csrf": csrf, "text": "bet 1"}), ("POST", "/undo", {"csrf": csrf}),
                               ("GET", "api", None), ("POST", "api", None)):
        url = f"/api/play/{token}" if path == "api" else f"/play/{token}{path}"
        if method == "GET":
            response = client.get(url)
        elif path == "api":
            response = client.post(url, json={"text": "bet 1"})
        else:
            response = client.post(url, data=data)
        assert response.status_code == status, (name, method, url)
        body = text(response)
        assert ("link" in body.lower() or "game" in body.lower() or "seat" in body.lower()), body
        assert response.headers["Referrer-Policy"] == "no-referrer"
        assert response.headers["Cache-Control"] == "no-store"
    assert (game.seq(), game.outbox()) == before


def test_an_expired_link_says_so(client: FlaskClient, game: Game) -> None:
    page = text(client.get(f"/play/{expired(game.links, 'play', f'{game.id}.0.{game.seq()}')}"))
    assert "This link has expired" in page and "latest mail" in page


def test_an_outdated_link_shows_the_game_now_and_the_current_link(client: FlaskClient, game: Game) -> None:
    old = game.token(1)
    token = game.token(0)
    client.post(f"/play/{token}", data={"csrf": game.links.csrf(token), "text": "bet 2"})
    response = client.get(f"/play/{old}")
    page = text(response)
    assert response.status_code == 409
    assert "The game has moved on" in page and "Nothing was changed" in page
    assert "Waiting for: Ben (your turn)" in page                 # the game as it is now
    # The fresh link is signed when the page is drawn: its timestamp may be a second older than one made here.
    found = re.search(rf'href="/play/({re.escape(game.id)}\.1\.{game.seq()}\.[^"]+)"', page)
    assert found is not None, page
    assert "Ben, it is your move" in text(client.get(f"/play/{found.group(1)}"))


def test_a_link_stays_good_across_a_pause_but_not_across_a_move(client: FlaskClient, game: Game) -> None:
    """Records that change nothing on the table (a pause, a resume) do not outdate the link in a player's mail."""
    from events.handling import Cause
    token = game.token(0)
    game.service.pause(game.id, "lunch", cause=Cause("cli"))
    game.service.resume(game.id, "back", cause=Cause("cli"))
    assert "Ann, it is your move" in text(client.get(f"/play/{token}"))
    done = client.post(f"/play/{token}", data={"csrf": game.links.csrf(token), "text": "bet 2"})
    assert done.status_code == 200 and "Receipt" in text(done)
    assert client.get(f"/play/{token}").status_code == 409  # the move has outdated it


def test_replaying_a_used_link_is_refused_as_stale_and_writes_nothing(client: FlaskClient, game: Game) -> None:
    token = game.token(0)
    form = {"csrf": game.links.csrf(token), "text": "bet 2"}
    assert client.post(f"/play/{token}", data=form).status_code == 200
    before = (game.seq(), game.outbox())
    for path in ("", "/preview", "/undo"):
        again = client.post(f"/play/{token}{path}", data=form)
        assert again.status_code == 409 and "The game has moved on" in text(again)
    assert (game.seq(), game.outbox()) == before


def test_a_link_for_the_seat_that_is_not_prompted_cannot_act(client: FlaskClient, game: Game) -> None:
    token = game.token(1)
    before = game.seq()
    for path in ("", "/preview"):
        response = client.post(f"/play/{token}{path}", data={"csrf": game.links.csrf(token), "text": "bet 1"})
        assert response.status_code == 422 and "not your turn" in text(response)
    assert game.seq() == before


def test_two_posts_for_the_same_prompt_at_once_exactly_one_wins(app: Flask, game: Game) -> None:
    token = game.token(0)
    form = {"csrf": game.links.csrf(token), "text": "bet 1"}
    before = game.seq()
    barrier = threading.Barrier(2)
    statuses: list[int] = []

    def post(command: str) -> None:
        client = app.test_client()
        barrier.wait()
        statuses.append(client.post(f"/play/{token}", data={**form, "text": command}).status_code)

    threads = [threading.Thread(target=post, args=(c,)) for c in ("bet 1", "bet 2")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200, 409]
    bets = [e for e in game.service.store.read(game.id, before) if e.type == "dice.Bet"]
    assert len(bets) == 1


def test_two_api_posts_at_once_exactly_one_wins(app: Flask, game: Game) -> None:
    token = game.token(0)
    before = game.seq()
    barrier = threading.Barrier(2)
    statuses: list[Any] = []

    def post() -> None:
        client = app.test_client()
        barrier.wait()
        statuses.append(client.post(f"/api/play/{token}", json={"text": "bet 3"}).status_code)

    threads = [threading.Thread(target=post) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200, 409]
    assert len([e for e in game.service.store.read(game.id, before) if e.type == "dice.Bet"]) == 1
