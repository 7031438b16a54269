"""The other pages: front, spectator, a player's home, unsubscribe, the dev mailbox, a game's own board."""

from __future__ import annotations

import re

from pathlib import Path

import jinja2
import pytest
from flask import Flask
from flask.testing import FlaskClient

from pbem.post.mail.dispatch import dispatch
from pbem.post.mail.transport import FileTransport
from pbem.service import Service
from pbem.web import create_app
from web.conftest import ANN, SECRET, Game, settings_of, text


def test_the_front_page(client: FlaskClient) -> None:
    assert "slow board games by email" in text(client.get("/"))


def test_the_public_page_shows_the_public_view_and_log_without_secrets(client: FlaskClient, game: Game) -> None:
    response = client.get(f"/games/{game.id}")
    page = text(response)
    assert response.status_code == 200 and "as a spectator sees it" in page
    assert "Waiting for: Ann (their turn)" in page and "Ann was dealt 2 cards" in page
    assert "<li>14</li>" not in page and "[9, 14]" not in page and "ann@example.org" not in page
    assert "Seed commitment" in page


def test_the_home_page_lists_the_players_games_with_deadlines_and_links(client: FlaskClient, game: Game,
                                                                        service: Service) -> None:
    service.create_game("highdie", [service_player("zed@example.org", "Zed"), ANN], seed="second")
    token = game.links.make("home", service.player_id(ANN.email))
    response = client.get(f"/home/{token}")
    page = text(response)
    assert response.status_code == 200 and "Ann, your games" in page and "2 games" in page
    assert game.id in page and " UTC" in page and "Act now" in page
    link = f"/play/{game.id}.0.{game.seq()}."  # the link's claims; its time and signature follow
    assert f'href="{link}' in page and re.search(f'href="{re.escape(link)}[^"/]+/replay"', page)
    assert response.headers["Referrer-Policy"] == "no-referrer"


def service_player(email: str, name: str):  # type: ignore[no-untyped-def]
    from pbem.service import Player
    return Player(email, name)


def test_a_home_page_of_nobody_and_a_bad_home_link(client: FlaskClient, game: Game) -> None:
    assert "no games on this server" in text(client.get(f"/home/{game.links.make('home', 'nobody')}"))
    assert client.get(f"/home/{game.token(0)}").status_code == 403


def test_unsubscribe_asks_on_get_and_turns_the_mails_off_on_post(client: FlaskClient, game: Game) -> None:
    token = game.links.make("unsubscribe", f"{game.id}.1")
    page = text(client.get(f"/unsubscribe/{token}"))
    assert "Stop the mails for game" in page and game.service.players(game.id)[1]["mail"] == 1
    from web.conftest import csrf_of
    response = client.post(f"/unsubscribe/{token}", data={"csrf": csrf_of(page)})
    assert response.status_code == 200 and "No more mails" in text(response)
    assert [p["mail"] for p in game.service.players(game.id)] == [1, 0]


def test_unsubscribe_accepts_the_one_click_post_of_a_mail_client(client: FlaskClient, game: Game) -> None:
    token = game.links.make("unsubscribe", f"{game.id}.0")
    response = client.post(f"/unsubscribe/{token}", data={"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200 and game.service.players(game.id)[0]["mail"] == 0


def test_unsubscribe_refuses_bad_links_and_forms(client: FlaskClient, game: Game) -> None:
    token = game.links.make("unsubscribe", f"{game.id}.0")
    assert client.post(f"/unsubscribe/{token}", data={"csrf": "nope"}).status_code == 403
    assert client.post(f"/unsubscribe/{token}", data={"List-Unsubscribe": "yes"}).status_code == 403
    assert client.get(f"/unsubscribe/{game.token(0)}").status_code == 403
    assert client.get(f"/unsubscribe/{game.links.make('unsubscribe', 'nosuchgame.0')}").status_code == 404
    assert client.get(f"/unsubscribe/{game.links.make('unsubscribe', f'{game.id}.5')}").status_code == 404
    assert [p["mail"] for p in game.service.players(game.id)] == [1, 1]


def send_all(app: Flask, service: Service) -> None:
    settings = settings_of(app)
    dispatch(service.store, FileTransport(settings.mailbox), "pbem@localhost", max_attempts=3, retry_seconds=1)


def test_the_dev_mailbox_lists_the_mails_and_shows_each_with_clickable_links(app: Flask, client: FlaskClient,
                                                                             game: Game) -> None:
    send_all(app, game.service)
    listing = text(client.get("/dev/mail"))
    assert "Mails sent (1)" in listing and "ann@example.org" in listing and "Your turn" in listing
    name = listing.split('href="/dev/mail/')[1].split('"')[0]
    one = text(client.get(f"/dev/mail/{name}"))
    assert "Subject" in one and '<a href="http://127.0.0.1:8000/play/' in one
    html = client.get(f"/dev/mail/{name}/html")
    assert html.status_code == 200 and html.mimetype == "text/html" and "Open the game and act" in text(html)


def test_the_dev_mailbox_is_404_outside_dev_mode(tmp_path: Path, highdie_registered: None) -> None:
    app = create_app({"instance": tmp_path / "prod", "secret_key": SECRET, "mail_transport": "smtp",
                      "TESTING": True})
    assert app.test_client().get("/dev/mail").status_code == 404


def test_the_app_needs_a_secret_key(tmp_path: Path) -> None:
    from pbem.instance.config import ConfigError
    with pytest.raises(ConfigError, match="secret_key"):
        create_app({"instance": tmp_path / "nokey"})


def test_a_game_with_its_own_board_partial_is_drawn_with_it(app: Flask, client: FlaskClient, game: Game) -> None:
    partial = ('<div class="highdie-board">table: {{ view.table | join(",") or "empty" }}; '
               'seat {{ seat if seat is not none else "spectator" }}</div>')
    app.jinja_env.loader = jinja2.ChoiceLoader([jinja2.DictLoader({"web/games/highdie.html": partial}),
                                                app.jinja_env.loader])  # type: ignore[list-item]
    assert '<div class="highdie-board">table: empty; seat 0</div>' in text(client.get(f"/play/{game.token(0)}"))
    assert '<div class="highdie-board">table: empty; seat spectator</div>' in text(client.get(f"/games/{game.id}"))
