"""International addresses on the web's forms: the new game, the muster's replacement, the organiser's replacement.

Each form refuses ``a@٣.org`` in words (400, nothing written) and takes ``dé@example.org`` and ``d@exämple.org``;
their mails reach a real SMTP server on loopback that offers SMTPUTF8, the second with its domain in IDNA.
"""

from __future__ import annotations

import re
from typing import Any, Iterator

import pytest
from aiosmtpd.controller import Controller
from flask.testing import FlaskClient

from delivery import free_port, text_of
from pbem.organising import organisers
from pbem.post.mail.dispatch import dispatch
from pbem.post.mail.transport import SMTPTransport
from pbem.service import Service
from test_addresses import Envelopes
from web.conftest import Game, csrf_of, text
from web.test_web_muster import answer, form

BAD, UTF8_LOCAL, IDN = "a@٣.org", "dé@example.org", "d@exämple.org"
REFUSAL = "is not an email address: '٣.org' after the @ is not a domain name that mail can be sent to"


class Post:
    """A loopback SMTP server that offers SMTPUTF8, and the outbox sent to it."""

    def __init__(self, service: Service) -> None:
        self.service, self.received, self.port = service, Envelopes(), free_port()
        self.server = Controller(self.received, hostname="127.0.0.1", port=self.port, enable_SMTPUTF8=True)
        self.server.start()

    def to(self, rcpt: str) -> list[Any]:
        self.service.write_owed_mail()
        dispatch(self.service.store, SMTPTransport("127.0.0.1", self.port, "none"), "pbem <pbem@localhost>",
                 max_attempts=3, retry_seconds=1)
        return [message for _, rcpts, _, message in self.received.received if rcpts == [rcpt]]

    def link(self, rcpt: str, label: str) -> str:
        for mail in reversed(self.to(rcpt)):
            found = re.findall(rf"^{label}: http://[^/]+(\S+?)\r?$", text_of(mail), re.M)
            if found:
                return str(found[-1])
        raise AssertionError(f"no mail to {rcpt} has a link {label!r}")


@pytest.fixture
def post(service: Service) -> Iterator[Post]:
    found = Post(service)
    yield found
    found.server.stop()


def refused(page: Any) -> str:
    assert page.status_code == 400, page.status_code
    return " ".join(re.sub(r"<[^>]+>", " ", text(page)).replace("&#39;", "'").split())


def test_the_new_game_and_muster_forms_take_international_addresses_and_refuse_what_is_none(
        client: FlaskClient, service: Service, post: Post) -> None:
    assert service.notifier is not None
    organisers.invite(service.store, service.notifier, "olive@example.org")
    path = post.link("olive@example.org", "Create a game")
    csrf = csrf_of(text(client.get(path)))
    players = [("Dé", UTF8_LOCAL), ("Di", IDN), ("Cy", "cy@example.org")]
    bad = client.post(path, data=form(csrf, players=[("Ann", BAD), *players[1:]]))
    assert REFUSAL in refused(bad) and service.store.query("SELECT count(*) AS n FROM events")[0]["n"] == 0
    created = client.post(path, data=form(csrf, players=players))
    assert created.status_code == 303, refused(created)
    muster_page = created.headers["Location"]
    assert "dé@example.org" in text(client.get(muster_page))
    assert [str(m["Subject"]) for m in post.to(UTF8_LOCAL)] == ["[pbem] Invitation: Emerald with Dé, Di and Cy"]
    invited = post.to("d@xn--exmple-cua.org")  # the domain in IDNA, in the envelope and in the header
    assert len(invited) == 1 and invited[0]["To"].addresses[0].addr_spec == "d@xn--exmple-cua.org"
    assert post.to(UTF8_LOCAL)[0]["To"].addresses[0].username == "dé"

    assert "You declined" in text(answer(client, post.link("cy@example.org", "Decline"), "decline"))
    shown = text(client.get(muster_page))
    replace = {"csrf": csrf_of(shown), "what": "replace", "slot": "2", "name": "Dee"}
    assert REFUSAL in refused(client.post(muster_page.split("?")[0], data={**replace, "email": BAD}))
    done = client.post(muster_page.split("?")[0], data={**replace, "email": "DÉE@EXÄMPLE.org"})
    assert done.status_code == 200 and "Dee was invited to place 3" in text(done), re.findall(r"class=\"alert.*?</div>", text(done), re.S)
    assert len(post.to("dée@xn--exmple-cua.org")) == 1


def test_the_organiser_gives_a_seat_to_an_international_address(client: FlaskClient, game: Game,
                                                                  post: Post) -> None:
    organise = game.links.make("organiser", game.id)
    page = text(client.get(f"/organise/{organise}"))
    seq = re.search(r'name="seq" value="(\d+)"', page)[1]  # type: ignore[index]
    data = {"csrf": game.links.csrf(organise), "seq": seq, "seat": "0", "name": "Dé"}
    assert REFUSAL in refused(client.post(f"/organise/{organise}/replace", data={**data, "email": BAD}))
    api = client.post(f"/api/organise/{organise}/replace", json={"seat": 0, "email": BAD, "seq": int(seq)})
    assert api.status_code == 400 and REFUSAL in api.get_json()["message"]
    done = client.post(f"/organise/{organise}/replace", data={**data, "email": UTF8_LOCAL})
    assert done.status_code == 200 and "The seat is now Dé" in text(done)
    assert game.service.players(game.id)[0]["email"] == UTF8_LOCAL
    mails = post.to(UTF8_LOCAL)
    assert mails and "Dé" in str(mails[0]["To"])
