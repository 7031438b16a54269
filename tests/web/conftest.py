"""Fixtures of the web tests: an instance folder, the app over it, a Highdie game of two players."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient

from pbem.instance import config
from pbem.instance.links import Links
from pbem.service import Player, Service
from pbem.web import create_app

SECRET = "test-secret-key-for-links"
ANN = Player("ann@example.org", "Ann")
BEN = Player("ben@example.org", "Ben")


@pytest.fixture
def app(tmp_path: Path, highdie_registered: None, database: str | None) -> Flask:
    return create_app({"instance": tmp_path / "inst", "secret_key": SECRET, "dev_mode": True, "TESTING": True})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def service(app: Flask) -> Iterator[Service]:
    svc = Service.open(app.config["PBEM_SETTINGS"])
    yield svc
    svc.close()


@pytest.fixture
def links(app: Flask) -> Links:
    found: Links = app.extensions["pbem.links"]
    return found


@dataclass
class Game:
    """A running Highdie game and the means to follow it from the outside."""

    id: str
    service: Service
    links: Links

    def seq(self) -> int:
        return self.service.store.last(self.id)[0]

    def token(self, seat: int, seq: int | None = None) -> str:
        return self.links.play(self.id, seat, self.seq() if seq is None else seq)

    def turn(self) -> int:
        return int(self.service.show(self.id)["waiting_for"][0]["seat"])

    def outbox(self) -> int:
        """Mails written or owed (a page's move leaves its mails owed to the worker: ``pbem.post.owed_mail``)."""
        return sum(int(self.service.store.query(f"SELECT count(*) AS n FROM {table}")[0]["n"])
                   for table in ("outbox", "mail_owed"))

    def worker_composes(self) -> None:
        """What the worker does before it sends: compose the mails the pages' moves owe."""
        self.service.write_owed_mail()


@pytest.fixture
def game(service: Service, links: Links) -> Game:
    result = service.create_game("highdie", [ANN, BEN], seed="web-tests")
    return Game(result.after.game_id, service, links)


def csrf_of(page: str) -> str:
    """The CSRF token in a page's first form."""
    marker = 'name="csrf" value="'
    start = page.index(marker) + len(marker)
    return page[start:page.index('"', start)]


def seq_of(page: str) -> str:
    """The move a page's first form is bound to (its hidden ``seq`` field)."""
    marker = 'type="hidden" name="seq" value="'
    start = page.index(marker) + len(marker)
    return page[start:page.index('"', start)]


def text(response: Any) -> str:
    return str(response.get_data(as_text=True))


def settings_of(app: Flask) -> config.Settings:
    found: config.Settings = app.config["PBEM_SETTINGS"]
    return found
