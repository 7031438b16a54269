"""Bounces told to people: a player whose mail comes back is noticed within one mail, by a refusal at send time or a
delivery report in a Maildir: the table reads it in the game (by name, never the address), the organiser is mailed,
the player sees a banner on their pages; a temporary failure does none of it. A new address confirmed by the link
mailed to it (a forged or expired link changes nothing), or one the organiser gives, makes the mail arrive again,
and the table is told so. Two processes telling at once tell each table once."""

from __future__ import annotations

import html
import json
import mailbox
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import pytest
from aiosmtpd.controller import Controller
from flask import Flask
from flask.testing import FlaskClient

from delivery import free_port, make_settings
from events.envelope import ORGANISER, SYSTEM
from pbem.instance.links import Links
from pbem.post import new_address, undelivered
from pbem.post.mail import bounces
from pbem.post.mail.inbound import process_maildir
from pbem.post.mail.outbox import draft_of
from pbem.scheduler import Jobs
from pbem.service import Player, Service
from pbem.table.seat_events import MAIL_ARRIVING, MAIL_NOT_ARRIVING
from pbem.web import create_app

pytestmark = pytest.mark.usefixtures("highdie_registered")

FIXTURES = Path(__file__).parent / "bounces"
ANN, BEN, CY = Player("ann@example.org", "Ann"), Player("ben@example.org", "Ben"), Player("cy@example.org", "Cy")
ORG = "org@example.org"
REFUSAL = "550 5.1.1 <ann@example.org>: user unknown"


@dataclass
class Refusing:
    """A loopback SMTP server that answers some recipients' RCPT with a refusal, and keeps every mail it takes."""

    refuse: dict[str, str]
    taken: list[tuple[list[str], bytes]] = field(default_factory=list)

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: list[str]) -> str:
        if address in self.refuse:
            return self.refuse[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.taken.append((list(envelope.rcpt_tos), envelope.content))
        return "250 OK"

    def to(self, address: str) -> list[str]:
        """The mails taken for ``address``, as text (quoted-printable undone)."""
        import email
        import email.policy
        found = []
        for recipients, content in self.taken:
            if address in recipients:
                message = email.message_from_bytes(content, policy=email.policy.default)
                body = message.get_body(preferencelist=("plain",))
                found.append(f"Subject: {message['Subject']}\n{body.get_content() if body else ''}")
        return found


@dataclass
class Instance:
    path: Path
    settings: Any
    service: Service
    app: Flask

    def client(self) -> FlaskClient:
        return self.app.test_client()

    def events(self, game_id: str, type_: str) -> list[Any]:
        return [e for e in self.service.store.read(game_id) if e.type == type_]

    @property
    def links(self) -> Links:
        assert self.service.notifier is not None
        return self.service.notifier.links

    def play_token(self, game_id: str, seat: int) -> str:
        return self.links.play(game_id, seat, self.service.store.last(game_id)[0])

    def home_token(self, email: str) -> str:
        return self.links.make("home", self.service.player_id(email))


def open_instance(tmp_path: Path, **values: Any) -> Iterator[Instance]:
    settings = make_settings(tmp_path / "inst", mail_from="pbem <pbem@pbem.example.org>", **values)
    service = Service.open(settings)
    app = create_app({"instance": tmp_path / "inst", "TESTING": True, **values})
    try:
        yield Instance(tmp_path / "inst", settings, service, app)
    finally:
        service.close()


@pytest.fixture
def refusing() -> Iterator[tuple[Refusing, int]]:
    handler, port = Refusing({ANN.email: REFUSAL, CY.email: "450 4.2.1 try again later"}), free_port()
    server = Controller(handler, hostname="127.0.0.1", port=port)
    server.start()
    yield handler, port
    server.stop()


@pytest.fixture
def smtp(tmp_path: Path, refusing: tuple[Refusing, int], database: str | None) -> Iterator[Instance]:
    yield from open_instance(tmp_path, mail_transport="smtp", smtp_host="127.0.0.1", smtp_port=refusing[1],
                             smtp_security="none")


@pytest.fixture
def filed(tmp_path: Path, database: str | None) -> Iterator[Instance]:
    yield from open_instance(tmp_path)


def text(response: Any) -> str:
    return " ".join(html.unescape(response.get_data(as_text=True)).split())


def no_address_in_the_record(instance: Instance, game_id: str, *addresses: str) -> None:
    record = json.dumps([e.to_record() for e in instance.service.store.read(game_id)])
    for address in addresses:
        assert address not in record


def test_a_refusal_at_send_time_is_told_to_the_table_the_organiser_and_the_player_within_one_mail(
        smtp: Instance, refusing: tuple[Refusing, int]) -> None:
    handler, _ = refusing
    svc = smtp.service
    game = svc.create_game("highdie", [ANN, BEN], seed="t1", organiser=ORG).after.game_id
    other = svc.create_game("highdie", [ANN, CY], seed="t2").after.game_id  # no organiser: nobody to mail
    Jobs(smtp.settings).send_mail()
    # one mail to Ann was tried, once, and refused: that was enough
    attempts = svc.store.query("SELECT a.ok FROM mail_attempts a JOIN outbox o ON o.id = a.outbox_id "
                               "WHERE o.to_addr = ?", (ANN.email,))
    assert [a["ok"] for a in attempts] == [0, 0]  # her first mail of each game
    # the table reads it in each game Ann plays, by name, with the server's words and no address
    for game_id in (game, other):
        [told] = smtp.events(game_id, MAIL_NOT_ARRIVING)
        assert told.payload == {"seat": 0, "reason": "550 5.1.1: user unknown"}
        assert told.actor == SYSTEM and told.visibility.kind == "public"
        assert told.cause["via"] == "delivery" and "@" not in json.dumps(told.cause)
        no_address_in_the_record(smtp, game_id, ANN.email)
    lines = [line["text"] for line in svc.log(game, BEN.email)]
    assert "Ann's mail is not arriving: 550 5.1.1: user unknown" in lines
    # the organiser was mailed in the same run; the game without an organiser mails nobody
    [organiser_mail] = handler.to(ORG)
    assert "Ann's mail is not arriving" in organiser_mail and "550 5.1.1: user unknown" in organiser_mail
    assert "/organise/" in organiser_mail and ANN.email not in organiser_mail
    assert svc.store.query("SELECT count(*) AS n FROM outbox WHERE kind = 'not_arriving'")[0]["n"] == 1
    # Ann's pages say so, with the way to a new address; Ben's do not
    client = smtp.client()
    play = text(client.get(f"/play/{smtp.play_token(game, 0)}"))
    assert "Your mail is not arriving" in play and "550 5.1.1: user unknown" in play
    assert "Give a new address on your games page" in play
    home = text(client.get(f"/home/{smtp.home_token(ANN.email)}"))
    assert "Your mail is not arriving" in home and "Give a new address below" in home
    assert "Your mail is not arriving" not in text(client.get(f"/play/{smtp.play_token(game, 1)}"))
    # told once: the next runs tell nothing again
    Jobs(smtp.settings).send_mail()
    assert len(smtp.events(game, MAIL_NOT_ARRIVING)) == 1 and len(handler.to(ORG)) == 1


def test_a_delivery_report_in_the_maildir_is_told_the_same_way(filed: Instance, tmp_path: Path) -> None:
    svc = filed.service
    game = svc.create_game("highdie", [BEN, ANN], seed="m1", organiser=ORG).after.game_id
    from pbem.post.mail.dispatch import dispatch
    from pbem.post.mail.transport import FileTransport
    dispatch(svc.store, FileTransport(tmp_path / "mailbox"), "pbem <pbem@pbem.example.org>", max_attempts=3,
             retry_seconds=1)
    sent = svc.store.query("SELECT message_id FROM outbox WHERE to_addr = ?", (BEN.email,))[0]
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    box.add((FIXTURES / "postfix.eml").read_bytes().replace(b"{message_id}", sent["message_id"].encode()))
    found = process_maildir(svc, tmp_path / "Maildir")
    assert found.reports == 1
    [told] = filed.events(game, MAIL_NOT_ARRIVING)
    assert told.payload == {"seat": 0, "reason": "550 5.1.1: Recipient address rejected: User unknown in virtual "
                                                 "mailbox table"}
    no_address_in_the_record(filed, game, BEN.email)
    [mail] = svc.store.query("SELECT * FROM outbox WHERE kind = 'not_arriving'")
    assert mail["to_addr"] == ORG and mail["subject"] == f"[Highdie (test game) · {game}] Ben's mail is not arriving"
    assert draft_of(mail)["context"]["reason"] == told.payload["reason"]
    assert "Your mail is not arriving" in text(filed.client().get(f"/play/{filed.play_token(game, 0)}"))


def test_a_temporary_failure_tells_nobody(smtp: Instance, refusing: tuple[Refusing, int], tmp_path: Path) -> None:
    handler, _ = refusing
    svc = smtp.service
    game = svc.create_game("highdie", [CY, ANN], seed="s1", organiser=ORG).after.game_id  # Cy's server says 450
    other = svc.create_game("highdie", [BEN, ANN], seed="s2", organiser=ORG).after.game_id
    Jobs(smtp.settings).send_mail()
    assert svc.store.query("SELECT status, attempts FROM outbox WHERE to_addr = ?", (CY.email,)) == [
        {"status": "pending", "attempts": 1}]  # retried later
    [sent] = svc.store.query("SELECT message_id FROM outbox WHERE to_addr = ? AND status = 'sent'", (BEN.email,))
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    box.add((FIXTURES / "temporary-postfix.eml").read_bytes().replace(b"{message_id}", sent["message_id"].encode()))
    assert process_maildir(svc, tmp_path / "Maildir").reports == 1
    for address in (CY.email, BEN.email):
        found = bounces.status_of(svc.store, address)
        assert found is None or found.status is bounces.Status.OK
    assert smtp.events(game, MAIL_NOT_ARRIVING) == smtp.events(other, MAIL_NOT_ARRIVING) == [] and handler.to(ORG) == []
    assert not svc.store.query("SELECT 1 FROM outbox WHERE kind = 'not_arriving'")
    assert "Your mail is not arriving" not in text(smtp.client().get(f"/play/{smtp.play_token(game, 0)}"))


def bounced(instance: Instance, address: str) -> None:
    """A hard bounce of ``address`` noticed, and the tables told (as the worker does after sending)."""
    bounces.record(instance.service.store, address, bounces.Kind.HARD, f"smtp; 550 5.1.1 <{address}>: no such user")
    undelivered.tell(instance.service)


def ask(client: FlaskClient, instance: Instance, email: str, new: str) -> tuple[Any, str | None]:
    """Ask for ``new`` on the home page of ``email``; the response, and the link mailed to ``new`` (if one was)."""
    token = instance.home_token(email)
    response = client.post(f"/home/{token}/address", data={"csrf": instance.links.csrf(token), "email": new})
    mails = instance.service.store.query("SELECT * FROM outbox WHERE to_addr = ? AND kind = 'address_confirm' "
                                         "ORDER BY created_at DESC", (new,))
    link = draft_of(mails[0])["context"]["confirm_url"] if mails else None
    return response, link


def test_a_new_address_confirmed_by_the_mailed_link_moves_every_seat_and_the_tables_hear_it_arrives(
        filed: Instance) -> None:
    svc, client = filed.service, filed.client()
    first = svc.create_game("highdie", [ANN, BEN], seed="n1", organiser=ORG).after.game_id
    second = svc.create_game("highdie", [CY, ANN], seed="n2").after.game_id
    ann_token = filed.play_token(first, 0)
    home = filed.home_token(ANN.email)
    client.post(f"/home/{home}/timezone", data={"csrf": filed.links.csrf(home), "timezone": "Europe/Paris"})
    bounced(filed, ANN.email)
    assert [len(filed.events(g, MAIL_NOT_ARRIVING)) for g in (first, second)] == [1, 1]
    new = "ann.new@example.net"
    response, link = ask(client, filed, ANN.email, new)
    assert response.status_code == 200 and f"A link was mailed to {new}" in text(response)
    assert link is not None and link.startswith("http") and "/address/" in link
    [mail] = svc.store.query("SELECT * FROM outbox WHERE kind = 'address_confirm'")
    assert ANN.email not in json.dumps(draft_of(mail))  # the new address's holder never reads the old one
    path = link[link.index("/address/"):]
    token = path.rsplit("/", 1)[1]
    seats_before = svc.store.query("SELECT game_id, seat, email FROM seats ORDER BY game_id, seat")
    # a forged link and an expired one are refused, and change nothing
    forged = token[:-3] + ("AAA" if not token.endswith("AAA") else "BBB")
    assert client.get(f"/address/{forged}").status_code == 403
    assert client.post(f"/address/{forged}", data={"csrf": filed.links.csrf(forged)}).status_code == 403
    change_id = svc.store.query("SELECT id FROM address_changes")[0]["id"]
    late = Links(filed.links.keys, filed.links.max_age)  # signs as if the link had been mailed days ago
    late._signers[new_address.PURPOSE].get_timestamp = (  # type: ignore[method-assign]
        lambda: int(time.time()) - (new_address.CONFIRM_DAYS * 86_400 + 60))
    old = late.make(new_address.PURPOSE, change_id)
    expired = client.post(f"/address/{old}", data={"csrf": filed.links.csrf(old)})
    assert expired.status_code == 410 and "expired" in text(expired)
    assert client.post(f"/address/{token}", data={"csrf": "nope"}).status_code == 403  # a form not from the page
    assert svc.store.query("SELECT game_id, seat, email FROM seats ORDER BY game_id, seat") == seats_before
    assert filed.events(first, MAIL_ARRIVING) == [] and svc.store.query("SELECT done_at FROM address_changes") == [
        {"done_at": None}]
    # the link: a GET only shows, the button makes the change
    shown = client.get(path)
    assert shown.status_code == 200 and f"Use {new} for your games?" in text(shown)
    assert svc.seat_of(first, ANN.email) == 0
    page = shown.get_data(as_text=True)
    csrf = page.split('name="csrf" value="', 1)[1].split('"', 1)[0]
    done = client.post(path, data={"csrf": csrf})
    assert done.status_code == 200 and f"Your games' mail goes to {new}" in text(done)
    assert [svc.seat_of(first, new), svc.seat_of(second, new)] == [0, 1]
    assert not svc.store.query("SELECT 1 FROM seats WHERE email = ?", (ANN.email,))
    for game_id, seat in ((first, 0), (second, 1)):
        [arriving] = filed.events(game_id, MAIL_ARRIVING)
        assert arriving.payload == {"seat": seat, "how": "player"} and arriving.actor == SYSTEM
        no_address_in_the_record(filed, game_id, ANN.email, new)
    assert ("Ann's mail is arriving again: Ann gave an address and confirmed it by the link mailed to it"
            in [line["text"] for line in svc.log(first, BEN.email)])
    # her settings went with her; the old address stays marked, the new one is not
    assert svc.store.query("SELECT name, timezone FROM players WHERE email = ?", (new,)) == [
        {"name": "Ann", "timezone": "Europe/Paris"}]
    assert bounces.status_of(svc.store, new) is None
    kept = bounces.status_of(svc.store, ANN.email)
    assert kept is not None and kept.status is bounces.Status.BOUNCING
    # the seat is hers still: her links work on, and her new games page has no banner
    assert client.get(f"/play/{ann_token}").status_code == 200
    assert "Your mail is not arriving" not in text(client.get(f"/home/{filed.home_token(new)}"))
    again = client.post(path, data={"csrf": csrf})
    assert again.status_code == 200 and "made already" in text(again)
    assert len(filed.events(first, MAIL_ARRIVING)) == 1
    undelivered.tell(svc)
    assert len(filed.events(first, MAIL_ARRIVING)) == 1 and len(filed.events(first, MAIL_NOT_ARRIVING)) == 1


def test_a_new_address_is_refused_where_it_cannot_be_made(filed: Instance) -> None:
    svc, client = filed.service, filed.client()
    game = svc.create_game("highdie", [ANN, BEN], seed="r1").after.game_id
    for new, words in ((ANN.email, "is your address already"), (BEN.email, f"plays another seat of game {game}"),
                       ("not an address", "")):
        response, link = ask(client, filed, ANN.email, new)
        assert response.status_code == 400 and words in text(response) and link is None
    # the same address once it comes back: confirmed again by its link, it clears the mark
    bounced(filed, ANN.email)
    response, link = ask(client, filed, ANN.email, ANN.email)
    assert response.status_code == 200 and link is not None
    path = link[link.index("/address/"):]
    csrf = filed.links.csrf(path.rsplit("/", 1)[1])
    assert client.post(path, data={"csrf": csrf}).status_code == 200
    assert bounces.status_of(svc.store, ANN.email) is None
    assert [e.payload for e in filed.events(game, MAIL_ARRIVING)] == [{"seat": 0, "how": "player"}]
    for _ in range(new_address.ASKED_PER_DAY - 1):
        assert ask(client, filed, ANN.email, "ann@example.com")[0].status_code == 200
    refused, link = ask(client, filed, ANN.email, "ann@example.biz")
    assert refused.status_code == 400 and "today already" in text(refused) and link is None


def organiser_post(client: FlaskClient, instance: Instance, game_id: str, seat: int, email: str,
                   seq: int | None = None) -> Any:
    token = instance.links.make("organiser", game_id)
    return client.post(f"/organise/{token}/address", data={
        "csrf": instance.links.csrf(token), "seat": str(seat), "email": email,
        "seq": str(instance.service.store.last(game_id)[0] if seq is None else seq)})


def test_the_organiser_gives_an_address_at_once_and_the_table_hears_it_arrives(filed: Instance) -> None:
    svc, client = filed.service, filed.client()
    game = svc.create_game("highdie", [ANN, BEN], seed="o1", organiser=ORG).after.game_id
    elsewhere = svc.create_game("highdie", [ANN, CY], seed="o2").after.game_id
    token = filed.play_token(game, 0)
    bounced(filed, ANN.email)
    organise = filed.links.make("organiser", game)
    page = text(client.get(f"/organise/{organise}"))
    assert "Mail that is not arriving" in page and "Address for Ann" in page and ANN.email not in page
    seq = svc.store.last(game)[0]
    refused = organiser_post(client, filed, game, 1, "ben.new@example.org")  # Ben's mail arrives: his to change
    assert refused.status_code == 400 and "mail to Ben is arriving" in text(refused)
    taken = organiser_post(client, filed, game, 0, BEN.email)
    assert taken.status_code == 400 and "already plays another seat" in text(taken)
    assert svc.store.last(game)[0] == seq and svc.seat_of(game, ANN.email) == 0
    done = organiser_post(client, filed, game, 0, "ann@example.com")
    assert done.status_code == 200 and "Ann's mail goes to the address you gave" in text(done)
    assert svc.seat_of(game, "ann@example.com") == 0
    [arriving] = filed.events(game, MAIL_ARRIVING)
    assert arriving.payload == {"seat": 0, "how": "organiser"} and arriving.actor == ORGANISER
    no_address_in_the_record(filed, game, ANN.email, "ann@example.com")
    assert ("Ann's mail is arriving again: the organiser gave an address for Ann"
            in [line["text"] for line in svc.log(game, BEN.email)])
    assert "Mail that is not arriving" not in text(client.get(f"/organise/{organise}"))
    # the seat's holder is the same: her links work on; her other game still waits for an address
    assert client.get(f"/play/{token}").status_code == 200
    assert filed.events(elsewhere, MAIL_ARRIVING) == [] and svc.seat_of(elsewhere, ANN.email) == 0
    undelivered.tell(svc)
    assert len(filed.events(game, MAIL_ARRIVING)) == 1 and filed.events(elsewhere, MAIL_ARRIVING) == []


def test_an_address_that_keeps_failing_is_not_told_twice_and_a_mark_cleared_on_the_server_is_told(
        filed: Instance) -> None:
    svc, client = filed.service, filed.client()
    game = svc.create_game("highdie", [ANN, BEN], seed="u1", organiser=ORG).after.game_id
    other = svc.create_game("highdie", [CY, ANN], seed="u2").after.game_id
    bounced(filed, ANN.email)
    for _ in range(int(bounces.THRESHOLD / bounces.HARD_POINTS)):
        bounced(filed, ANN.email)
    mark = bounces.status_of(svc.store, ANN.email)
    assert mark is not None and mark.status is bounces.Status.UNREACHABLE
    # unreachable is the same news to the table and the organiser: told once, when it first came back
    assert [len(filed.events(g, MAIL_NOT_ARRIVING)) for g in (game, other)] == [1, 1]
    assert svc.store.query("SELECT count(*) AS n FROM outbox WHERE kind = 'not_arriving'")[0]["n"] == 1
    assert "It has come back again and again" in text(client.get(f"/home/{filed.home_token(ANN.email)}"))
    organise = text(client.get(f"/organise/{filed.links.make('organiser', game)}"))
    assert "<strong>Ann</strong>: 550 5.1.1: no such user" in organise and "it came back again and again" in organise
    # the operator clears the mark (the mailbox works again): the next run tells every table, and nobody else
    bounces.reset(svc.store, ANN.email)
    assert undelivered.tell(svc) == 2
    for game_id, seat in ((game, 0), (other, 1)):
        [arriving] = filed.events(game_id, MAIL_ARRIVING)
        assert arriving.payload == {"seat": seat, "how": "cleared"} and arriving.actor == SYSTEM
    assert "Ann's mail is arriving again" in [line["text"] for line in svc.log(game, BEN.email)]
    assert not svc.store.query("SELECT 1 FROM mail_told")
    assert svc.store.query("SELECT count(*) AS n FROM outbox WHERE kind = 'not_arriving'")[0]["n"] == 1
    assert "Your mail is not arriving" not in text(client.get(f"/play/{filed.play_token(game, 0)}"))
    assert "Mail that is not arriving" not in text(client.get(f"/organise/{filed.links.make('organiser', game)}"))
    assert undelivered.tell(svc) == 0


def test_a_seat_given_to_another_player_is_not_told_its_old_mail_arrives(filed: Instance) -> None:
    from events.handling import Cause
    svc = filed.service
    game = svc.create_game("highdie", [ANN, BEN], seed="g1", organiser=ORG).after.game_id
    bounced(filed, ANN.email)
    svc.replace(game, 0, CY, cause=Cause("cli"))
    undelivered.tell(svc)
    assert filed.events(game, MAIL_ARRIVING) == []
    assert not svc.store.query("SELECT 1 FROM mail_told WHERE game_id = ?", (game,))
    bounced(filed, CY.email)  # the new player's mail fails too: the table is told of them
    assert [e.payload["seat"] for e in filed.events(game, MAIL_NOT_ARRIVING)] == [0, 0]


@pytest.mark.parametrize("name, words", [("dsn-standard", "550 5.1.1: Recipient address rejected"),
                                         ("exim", "550 5.1.1: Recipient address rejected: User unknown"),
                                         ("qmail", "550 5.1.1"), ("yahoo", "account (the address)")])
def test_the_words_the_table_reads_hold_no_address(name: str, words: str) -> None:
    report = bounces.read_report((FIXTURES / f"{name}.eml").read_bytes().replace(b"{message_id}", b"<a@b>"))
    assert report is not None and "@" in report.reason
    said = undelivered.public_reason(report.reason)
    assert words in said and "@" not in said and not said.lower().startswith("smtp")


class Racing:
    """The service as a teller sees it, except that another process tells the same tables just after this one
    looked at a seat (its first look only): the other's command comes between this one's look and its append."""

    def __init__(self, service: Service, other: Service) -> None:
        self.service, self.other, self.raced = service, other, False
        outer = self

        class Store:
            def __getattr__(self, name: str) -> Any:
                return getattr(service.store, name)

            def query(self, sql: str, params: Any = ()) -> Any:
                found = service.store.query(sql, params)
                if sql == undelivered.SEAT_NOW and not outer.raced:
                    outer.raced = True
                    assert undelivered.tell(other) == 1
                return found

        self.store = Store()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.service, name)


def test_two_processes_telling_at_once_tell_the_table_once(filed: Instance) -> None:
    svc = filed.service
    game = svc.create_game("highdie", [ANN, BEN], seed="c1", organiser=ORG).after.game_id
    bounces.record(svc.store, ANN.email, bounces.Kind.HARD, "550 5.1.1 no such user")
    other = Service.open(filed.settings)
    try:
        racing = Racing(svc, other)
        assert undelivered.tell(racing) == 0  # it looked, the other told, its append was refused: it looked again
        assert racing.raced
    finally:
        other.close()
    assert len(filed.events(game, MAIL_NOT_ARRIVING)) == 1
    assert svc.store.query("SELECT count(*) AS n FROM outbox WHERE kind = 'not_arriving'")[0]["n"] == 1
