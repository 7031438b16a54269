"""Bounces noticed: delivery reports in the standard and the common other formats mark the right address, by any
route (a pipe, a Maildir, IMAP); temporary failures never mark one; SMTP refusals at send time count the same; the
score over time decides ``unreachable``."""

from __future__ import annotations

import email
import email.policy
import mailbox
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Iterator

import pytest
from aiosmtpd.controller import Controller
from click.testing import CliRunner

from cli.main import cli
from delivery import free_port, make_settings
from pbem.post.mail import bounces
from pbem.post.mail.bounces import Kind, Status, record, status_of, troubled
from pbem.post.mail.dispatch import dispatch
from pbem.post.mail.inbound import process_maildir
from pbem.post.mail.transport import FileTransport, SMTPTransport
from pbem.service import Player, Service

pytestmark = pytest.mark.usefixtures("highdie_registered")

FIXTURES = Path(__file__).parent / "bounces"
PLAYERS = ["ann@example.org", "ben@example.org", "cy@example.org", "dee@example.org", "eve@corp.example.org",
           "fay@gmail.com", "gus@yahoo.com"]
HARD = {"dsn-standard": "ann@example.org", "postfix": "ben@example.org", "exim": "cy@example.org",
        "exim-legacy": "cy@example.org", "qmail": "dee@example.org", "exchange-legacy": "eve@corp.example.org",
        "exchange-online": "eve@corp.example.org", "gmail": "fay@gmail.com", "yahoo": "gus@yahoo.com"}
TEMPORARY = {"temporary-dsn": "ann@example.org", "temporary-postfix": "ben@example.org",
             "temporary-exim": "cy@example.org", "temporary-exchange": "eve@corp.example.org",
             "temporary-gmail": "fay@gmail.com", "temporary-yahoo": "gus@yahoo.com"}
REASONS = {"dsn-standard": "550 5.1.1", "postfix": "550 5.1.1", "exim": "550 5.1.1", "exim-legacy": "550 5.1.1",
           "qmail": "550 5.1.1", "exchange-legacy": "#5.1.1", "exchange-online": "5.1.10", "gmail": "5.1.1",
           "yahoo": "554: delivery error"}


@pytest.fixture
def mailed(tmp_path: Path) -> Iterator[Service]:
    """An instance that mailed each player once (a game each, the player first) and sent the mails."""
    service = Service.open(make_settings(tmp_path / "inst", mail_from="pbem <pbem@pbem.example.org>"))
    for number, address in enumerate(PLAYERS):
        service.create_game("highdie", [Player.parse(address), Player.parse(f"other{number}@example.net")],
                            seed=f"b{number}")
    dispatch(service.store, FileTransport(tmp_path / "mailbox"), "pbem <pbem@pbem.example.org>", max_attempts=3,
             retry_seconds=1)
    yield service
    service.close()


def mail_to(service: Service, address: str) -> dict[str, Any]:
    rows = service.store.query("SELECT id, message_id, status FROM outbox WHERE to_addr = ?", (address,))
    assert len(rows) == 1 and rows[0]["status"] == "sent"
    return dict(rows[0])


def report(name: str, message_id: str) -> bytes:
    return (FIXTURES / f"{name}.eml").read_bytes().replace(b"{message_id}", message_id.encode())


def inbound(service: Service, raw: bytes) -> Any:
    return CliRunner().invoke(cli, ["--instance", str(service.settings.instance), "inbound"], input=raw)


@pytest.mark.parametrize("name", sorted(HARD))
def test_a_hard_bounce_marks_the_address_it_names_and_no_other(mailed: Service, name: str) -> None:
    address = HARD[name]
    mail = mail_to(mailed, address)
    result = inbound(mailed, report(name, mail["message_id"]))
    assert result.exit_code == 0, result.output
    assert result.output.strip() == f"delivery report: {address} bouncing (score 1)"
    found = status_of(mailed.store, address)
    assert found is not None and found.status is Status.BOUNCING and found.score == 1.0
    assert found.outbox_id == mail["id"] and found.message_id == mail["message_id"]
    assert REASONS[name] in found.reason
    assert [s.address for s in troubled(mailed.store)] == [address]
    assert not mailed.store.query("SELECT 1 FROM outbox WHERE kind = 'reply_error'")  # never read as a reply


@pytest.mark.parametrize("name", sorted(TEMPORARY))
def test_a_temporary_failure_marks_no_address(mailed: Service, name: str) -> None:
    address = TEMPORARY[name]
    mail = mail_to(mailed, address)
    for _ in range(3):  # the same day: counted once
        result = inbound(mailed, report(name, mail["message_id"]))
        assert result.exit_code == 0 and result.output.strip() == "delivery report: a temporary failure only"
    found = status_of(mailed.store, address)
    assert found is not None and found.status is Status.OK and found.score == 0.5
    assert troubled(mailed.store) == []


def test_a_report_about_a_mail_pbem_never_sent_marks_nothing(mailed: Service) -> None:
    raw = report("qmail", "<someone-else@example.com>").replace(b"dee@example.org", b"stranger@example.com")
    result = inbound(mailed, raw)
    assert result.exit_code == 0 and "nothing marked" in result.output
    assert status_of(mailed.store, "stranger@example.com") is None and troubled(mailed.store) == []


def test_reports_in_a_maildir_are_noticed_and_removed(mailed: Service, tmp_path: Path) -> None:
    box = mailbox.Maildir(tmp_path / "Maildir", create=True)
    box.add(report("postfix", mail_to(mailed, "ben@example.org")["message_id"]))
    box.add(report("temporary-dsn", mail_to(mailed, "ann@example.org")["message_id"]))
    found = process_maildir(mailed, tmp_path / "Maildir")
    assert found.summary() == ("2 messages read: 0 applied, 0 duplicate(s), 0 refused, 0 without a valid game link, "
                               "2 delivery report(s)")
    assert len(box) == 0 and [s.address for s in troubled(mailed.store)] == ["ben@example.org"]


def test_the_score_over_time_decides_unreachable(mailed: Service) -> None:
    start = datetime(2026, 3, 1, 12, tzinfo=timezone.utc)
    address = "ann@example.org"
    for day in range(12):  # temporary failures alone, every day: never marked
        found = record(mailed.store, address, Kind.SOFT, "452 mailbox full", now=start + timedelta(days=day))
        assert found.status is Status.OK
    assert found.score == 6.0
    bounces.reset(mailed.store, address)
    found = record(mailed.store, address, Kind.HARD, "550 no such user", now=start)
    assert (found.status, found.score) == (Status.BOUNCING, 1.0)
    for hours in (1, 2):  # soft ones the same day count once
        found = record(mailed.store, address, Kind.SOFT, "452 full", now=start + timedelta(hours=hours))
    assert found.score == 1.5
    for day in (1, 2, 3):
        found = record(mailed.store, address, Kind.HARD, "550 no such user", now=start + timedelta(days=day))
    assert (found.status, found.score) == (Status.BOUNCING, 4.5)
    found = record(mailed.store, address, Kind.SOFT, "452 full", now=start + timedelta(days=4))
    assert (found.status, found.score) == (Status.UNREACHABLE, 5.0)
    assert found.reason == "550 no such user"  # the hard bounce's words, not the last soft one's
    other = "ben@example.org"  # a bounce long ago is forgotten: the score starts again
    record(mailed.store, other, Kind.HARD, "550", now=start)
    later = record(mailed.store, other, Kind.HARD, "550", now=start + timedelta(days=bounces.STALE_DAYS + 1))
    assert later.score == 1.0 and later.status is Status.BOUNCING
    assert [b["kind"] for b in bounces.bounces_of(mailed.store, address)].count("hard") == 4


@dataclass
class Refusing:
    """A loopback SMTP server that refuses some recipients at RCPT and records each envelope it accepts."""

    refuse: dict[str, str]
    accepted: list[tuple[str, list[str]]] = field(default_factory=list)

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: list[str]) -> str:
        if address in self.refuse:
            return self.refuse[address]
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.accepted.append((envelope.mail_from, list(envelope.rcpt_tos)))
        return "250 OK"


@pytest.fixture
def refusing() -> Iterator[tuple[Refusing, int]]:
    handler, port = Refusing({"ann@example.org": "550 5.1.1 <ann@example.org>: user unknown",
                              "ben@example.org": "450 4.2.1 try again later"}), free_port()
    server = Controller(handler, hostname="127.0.0.1", port=port)
    server.start()
    yield handler, port
    server.stop()


def test_a_refusal_at_send_time_counts_as_a_hard_bounce_and_a_4xx_does_not(tmp_path: Path,
                                                                         refusing: tuple[Refusing, int]) -> None:
    handler, port = refusing
    service = Service.open(make_settings(tmp_path / "inst"))
    try:
        for number, address in enumerate(["ann@example.org", "ben@example.org", "cy@example.org"]):
            service.create_game("highdie", [Player.parse(address), Player.parse(f"o{number}@example.net")],
                                seed=f"s{number}")
        sent = dispatch(service.store, SMTPTransport("127.0.0.1", port, "none", bounce_address="bounces@pbem.example.org"),
                        "pbem <pbem@pbem.example.org>", max_attempts=3, retry_seconds=1)
        assert (sent.sent, sent.failed, sent.retried) == (1, 1, 1)
        ann = status_of(service.store, "ann@example.org")
        assert ann is not None and ann.status is Status.BOUNCING and "550 5.1.1" in ann.reason
        assert bounces.bounces_of(service.store, "ann@example.org")[0]["via"] == "smtp"
        assert status_of(service.store, "ben@example.org") is None  # retried later, not counted
        cy = service.store.query("SELECT id FROM outbox WHERE to_addr = 'cy@example.org'")[0]["id"]
        assert handler.accepted == [(f"bounces+{cy}@pbem.example.org", ["cy@example.org"])]  # VERP
    finally:
        service.close()


def test_a_report_to_the_bounce_address_names_the_mail_whatever_address_it_gives(tmp_path: Path) -> None:
    service = Service.open(make_settings(tmp_path / "inst", bounce_address="bounces@pbem.example.org"))
    with open(tmp_path / "inst" / "pbem.toml", "a", encoding="utf-8") as out:  # for the command line too
        out.write('bounce_address = "bounces@pbem.example.org"\n')
    try:
        service.create_game("highdie", [Player.parse("dé@example.org"), Player.parse("o@example.net")], seed="v")
        mail = service.store.query("SELECT id FROM outbox WHERE to_addr = 'dé@example.org'")[0]
        # the report names the address its server forwarded to, and quotes no Message-ID: the bounce address says
        raw = (report("qmail", "<unknown@example.org>").replace(b"dee@example.org", b"dee.forward@example.net")
               .replace(b"To: pbem@pbem.example.org", f"To: bounces+{mail['id']}@pbem.example.org".encode()))
        outcome = inbound(service, raw)
        assert outcome.output.strip() == "delivery report: dé@example.org bouncing (score 1)"
        found = status_of(service.store, "dé@example.org")
        assert found is not None and found.outbox_id == mail["id"]
        assert status_of(service.store, "dee.forward@example.net") is None
    finally:
        service.close()


def test_a_report_arriving_by_imap_is_noticed_and_marked_read(dovecot_server: Any, tmp_path: Path) -> None:
    from imapclient import IMAPClient

    from pbem.post.mail import imap
    user, password = dovecot_server.add_user()
    settings = make_settings(tmp_path / "inst", inbound_imap=f"imap://{user}@127.0.0.1:{dovecot_server.port}/INBOX",
                             inbound_imap_password=password)
    service = Service.open(settings)
    try:
        service.create_game("highdie", [Player.parse("gus@yahoo.com"), Player.parse("o@example.net")], seed="y")
        mail = service.store.query("SELECT message_id FROM outbox WHERE to_addr = 'gus@yahoo.com'")[0]
        client = IMAPClient("127.0.0.1", port=dovecot_server.port, ssl=False, timeout=10)
        client.login(user, password)
        client.append("INBOX", report("yahoo", mail["message_id"]))
        found = imap.read_once(settings, service)
        assert (found.read, found.reports) == (1, 1)
        assert int(client.select_folder("INBOX")[b"EXISTS"]) == 0
        client.logout()
        status = status_of(service.store, "gus@yahoo.com")
        assert status is not None and status.status is Status.BOUNCING
    finally:
        service.close()


def test_a_reply_is_not_taken_for_a_report() -> None:
    reply = email.message_from_string("From: Ann <ann@example.org>\nTo: play+x@pbem.example.org\nSubject: Re: Your "
                                      "turn\n\nbet 2\n", policy=email.policy.compat32)
    assert bounces.read_report(reply.as_bytes()) is None
