"""Bad input on the pages: a clear 4xx, never a 500, never a write."""

from __future__ import annotations

import logging

import pytest
from flask import Flask
from flask.testing import FlaskClient

from web.conftest import Game, text


@pytest.fixture
def token(game: Game) -> str:
    return game.token(0)


BAD_FORMS = [
    ("no csrf", {"text": "bet 1"}, 403, "This form has expired"),
    ("empty csrf", {"csrf": "", "text": "bet 1"}, 403, "This form has expired"),
    ("forged csrf", {"csrf": "x.y.z", "text": "bet 1"}, 403, "This form has expired"),
    ("nothing chosen", {"text": "", "choice": ""}, 400, "Choose one of the actions"),
    ("unparseable", {"text": "dance a jig"}, 400, "cannot read"),
    ("illegal", {"text": "play 3"}, 422, "not legal now"),
    ("too long", {"text": "bet " + "1" * 2000}, 400, "at most 1000 characters"),
    ("two lines", {"text": "bet 1\nbet 2"}, 400, "one line"),
    ("binary", {"text": "bet \x00"}, 400, "one line"),
]


@pytest.mark.parametrize("path", ["", "/preview"])
@pytest.mark.parametrize("case", BAD_FORMS, ids=[c[0] for c in BAD_FORMS])
def test_a_bad_form_is_refused_with_a_clear_message_and_writes_nothing(client: FlaskClient, game: Game, token: str,
                                                                      path: str, case: tuple) -> None:
    _, form, status, words = case
    if "csrf" not in form and case[0] != "no csrf":
        form = {"csrf": game.links.csrf(token), **form}
    before = (game.seq(), game.outbox())
    response = client.post(f"/play/{token}{path}", data=form)
    assert response.status_code == status and words.lower() in text(response).lower()
    assert "Nothing was changed" in text(response)
    assert (game.seq(), game.outbox()) == before


def test_a_refused_command_shows_the_play_page_again_with_the_reason(client: FlaskClient, game: Game,
                                                                    token: str) -> None:
    response = client.post(f"/play/{token}", data={"csrf": game.links.csrf(token), "text": "play 3"})
    page = text(response)
    assert response.status_code == 422 and 'role="alert"' in page and "you may: play 9, play 14" in page
    assert 'value="bet 3"' in page                                 # the choices are there to try again


def test_a_csrf_token_of_another_link_is_refused(client: FlaskClient, game: Game, token: str) -> None:
    other = game.links.csrf(game.token(1))
    response = client.post(f"/play/{token}", data={"csrf": other, "text": "bet 1"})
    assert response.status_code == 403 and game.service.show(game.id)["seq"] == game.seq()


def test_a_huge_body_is_refused_before_it_is_read(client: FlaskClient, game: Game, token: str) -> None:
    before = game.seq()
    for path in (f"/play/{token}", f"/play/{token}/preview", f"/api/play/{token}"):
        response = client.post(path, data={"csrf": game.links.csrf(token), "text": "x" * 70_000})
        assert response.status_code == 413 and "too large" in text(response)
    response = client.post(f"/api/play/{token}", data=b"{" * 70_000, content_type="application/json")
    assert response.status_code == 413 and response.json["error"] == "request_entity_too_large"
    assert game.seq() == before


def test_wrong_methods_are_405_with_a_clear_page(client: FlaskClient, token: str) -> None:
    for path in (f"/play/{token}/preview", f"/play/{token}/undo", f"/play/{token}/orders"):
        response = client.get(path)
        assert response.status_code == 405 and "wrong HTTP method" in text(response)
    assert client.put(f"/play/{token}").status_code == 405


@pytest.mark.parametrize("path", ["/games/nosuchgame", "/games/bad%20id", "/games/" + "a" * 200,
                                  "/nothing/here", "/play/", "/dev/mail/nosuch.eml", "/dev/mail/..%2fpbem.toml"])
def test_unknown_pages_and_games_are_404(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404 and ("no game" in text(response) or "no such page" in text(response))


def test_an_unexpected_error_is_a_plain_500_page_and_is_logged(app: Flask, caplog: pytest.LogCaptureFixture) -> None:
    @app.get("/boom")
    def boom() -> str:
        raise RuntimeError("boom")

    seen: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record)

    web_log = logging.getLogger("pbem.web")
    handler = Keep()
    web_log.addHandler(handler)
    web_log.propagate = False          # keep it from the guard that fails a test on an ERROR log
    try:
        response = app.test_client().get("/boom")
    finally:
        web_log.propagate = True
        web_log.removeHandler(handler)
    assert response.status_code == 500 and "Something went wrong on the server" in text(response)
    assert "boom" not in text(response) and response.headers["Cache-Control"] == "no-store"
    assert [r.levelno for r in seen] == [logging.ERROR] and seen[0].exc_info is not None
