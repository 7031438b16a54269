"""The dev mailbox shows every player's mail and links: only to this machine, unless the operator opens it."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from delivery import make_settings
from pbem.instance import config
from pbem.post.mail.dispatch import dispatch
from pbem.post.mail.transport import FileTransport
from pbem.web import create_app
from pbem.web.dev import notice
from web.conftest import SECRET, Game, settings_of, text

REMOTE = "192.0.2.7"


@pytest.fixture
def mail_name(app: Flask, game: Game) -> str:
    dispatch(game.service.store, FileTransport(settings_of(app).mailbox), "pbem@localhost", max_attempts=3,
             retry_seconds=1)
    [path] = list(settings_of(app).mailbox.glob("*.eml"))
    return path.name


def pages(name: str) -> list[str]:
    return ["/dev/mail", f"/dev/mail/{name}", f"/dev/mail/{name}/html"]


@pytest.mark.parametrize("address", ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"])
def test_a_request_from_this_machine_is_shown_the_mails(client: FlaskClient, mail_name: str, address: str) -> None:
    for url in pages(mail_name):
        assert client.get(url, environ_base={"REMOTE_ADDR": address}).status_code == 200, url
    listing = text(client.get("/dev/mail", environ_base={"REMOTE_ADDR": address}))
    assert "ann@example.org" in listing and mail_name in listing


@pytest.mark.parametrize("address", [REMOTE, "10.0.0.2", "2001:db8::7", "::ffff:192.0.2.7", ""])
def test_a_request_from_elsewhere_gets_a_plain_404_and_no_mail(client: FlaskClient, mail_name: str,
                                                               address: str) -> None:
    for url in pages(mail_name):
        response = client.get(url, environ_base={"REMOTE_ADDR": address})
        page = text(response)
        assert response.status_code == 404, url
        assert "There is no such page here." in page
        assert "ann@example.org" not in page and mail_name not in page and "/play/" not in page


@pytest.mark.parametrize("header", [("X-Forwarded-For", REMOTE), ("Forwarded", f"for={REMOTE}"),
                                    ("X-Real-IP", REMOTE), ("X-Forwarded-For", "127.0.0.1")])
def test_a_request_passed_on_by_a_proxy_on_this_machine_is_refused(client: FlaskClient, mail_name: str,
                                                                   header: tuple[str, str]) -> None:
    """A reverse proxy connects from loopback for everyone: what it passes on is not from this machine."""
    response = client.get("/dev/mail", headers=[header], environ_base={"REMOTE_ADDR": "127.0.0.1"})
    assert response.status_code == 404 and "ann@example.org" not in text(response)


def test_the_operator_may_open_the_dev_mailbox_to_other_machines(tmp_path: Path, highdie_registered: None,
                                                                 game: Game, mail_name: str) -> None:
    opened = create_app({"instance": tmp_path / "inst", "secret_key": SECRET, "dev_mode": True,
                         "dev_mail_remote": True, "TESTING": True})
    client = opened.test_client()
    for url in pages(mail_name):
        assert client.get(url, environ_base={"REMOTE_ADDR": REMOTE}).status_code == 200, url
    assert client.get("/dev/mail", headers={"X-Forwarded-For": REMOTE}).status_code == 200


def test_dev_mail_remote_is_read_from_the_environment(tmp_path: Path) -> None:
    config.init_instance(tmp_path)
    assert config.load(tmp_path, environ={})["dev_mail_remote"] is False
    assert config.load(tmp_path, environ={"PBEM_DEV_MAIL_REMOTE": "true"})["dev_mail_remote"] is True


def test_outside_dev_mode_the_mailbox_is_404_even_on_this_machine(tmp_path: Path, highdie_registered: None) -> None:
    app = create_app({"instance": tmp_path / "prod", "secret_key": SECRET, "mail_transport": "smtp",
                      "dev_mail_remote": True, "TESTING": True})
    assert app.test_client().get("/dev/mail").status_code == 404


@pytest.mark.parametrize("host, port, values, said", [
    ("127.0.0.1", 8000, {}, "Dev mailbox: http://127.0.0.1:8000/dev/mail (this machine only)"),
    ("0.0.0.0", 8080, {}, "Dev mailbox: http://127.0.0.1:8080/dev/mail (this machine only)"),
    ("::", 8000, {}, "Dev mailbox: http://[::1]:8000/dev/mail (this machine only)"),
    ("0.0.0.0", 8000, {"dev_mail_remote": True, "base_url": "http://games.lan:8000"},
     "Dev mailbox: http://games.lan:8000/dev/mail (open to every address that reaches this server: "
     "dev_mail_remote is on; development only)"),
    ("127.0.0.1", 8000, {"mail_transport": "smtp"}, "Dev mailbox: off (dev_mode)"),
])
def test_serve_says_where_the_dev_mailbox_is_and_who_may_see_it(tmp_path: Path, host: str, port: int,
                                                                  values: dict[str, object], said: str) -> None:
    assert notice(config.serving(make_settings(tmp_path, **values), host, port)) == said


def test_serve_on_an_address_other_than_loopback_says_the_dev_mailbox_is_out_of_reach(tmp_path: Path) -> None:
    said = notice(config.serving(make_settings(tmp_path), "192.0.2.1", 8000))
    assert said.startswith("Dev mailbox: this machine only") and "dev_mail_remote = true" in said


def test_links_follow_the_address_served_unless_base_url_is_set(tmp_path: Path) -> None:
    assert config.serving(make_settings(tmp_path), None, 8123)["base_url"] == "http://127.0.0.1:8123"
    assert config.serving(make_settings(tmp_path), "192.0.2.1", None)["base_url"] == "http://192.0.2.1:8000"
    explicit = make_settings(tmp_path, base_url="https://pbem.example.org")
    assert config.serving(explicit, "0.0.0.0", 9000)["base_url"] == "https://pbem.example.org"
