"""Every address is handled: one check at every door, and mail to international addresses goes out, or fails aloud.

Mails go to a real SMTP server on loopback (aiosmtpd), once offering SMTPUTF8 and once not.
"""

from __future__ import annotations

import email
import email.policy
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any, Iterator

import pytest
from aiosmtpd.controller import Controller
from click.testing import CliRunner

from cli.main import cli
from delivery import free_port, make_settings, text_of
from pbem.errors import ServiceError
from pbem.instance.addresses import AddressError, check_address, needs_smtputf8, wire
from pbem.post.mail.dispatch import dispatch, status
from pbem.post.mail.mime import assemble
from pbem.post.mail.transport import SMTPTransport
from pbem.organising.organisers import check_email
from pbem.service import Player, Service

pytestmark = pytest.mark.usefixtures("highdie_registered")


@pytest.mark.parametrize("given, kept", [
    ("ann@example.org", "ann@example.org"),
    ("  Ann@Example.ORG ", "ann@example.org"),
    ("dé@example.org", "dé@example.org"),
    ("DÉ@example.org", "dé@example.org"),
    ("d@exämple.org", "d@exämple.org"),
    ("d@xn--exmple-cua.org", "d@exämple.org"),  # one player however the domain is written
    ("d@EXÄMPLE.org", "d@exämple.org"),
    ("o'brien+pbem@mail.example.co.uk", "o'brien+pbem@mail.example.co.uk"),
    ("用户@例子.广告", "用户@例子.广告"),
])
def test_an_address_is_kept_in_one_form(given: str, kept: str) -> None:
    assert check_address(given) == kept
    assert check_email(given) == kept and Player.parse(given).email == kept  # the doors call the same check


@pytest.mark.parametrize("given, says", [
    ("a@٣.org", "after the @ is not a domain name that mail can be sent to"),
    ("nobody", "is not an email address"),
    ("ann@localhost", "must be a domain name such as example.org"),
    ("ann@example.123", "must be a domain name such as example.org"),
    ("ann..b@example.org", "not two dots in a row"),
    (".ann@example.org", "nor one at either end"),
    ("ann b@example.org", "is not an email address"),
    ("ann@exa_mple.org", "is not a domain name"),
    ("ann@-example.org", "is not a domain name"),
    ("a\u200bnn@example.org", "the part before the @ may hold letters"),
    ("x" * 65 + "@example.org", "64 bytes at most"),
    ("x" * 60 + "@" + ".".join(c * 60 for c in "abcd") + ".org", "too long"),
])
def test_what_is_not_an_address_is_refused_in_words(given: str, says: str) -> None:
    with pytest.raises(AddressError, match=says):
        check_address(given)
    with pytest.raises(ServiceError, match=says):
        Player.parse(f"Ann <{given}>")


def test_the_wire_carries_the_domain_in_idna_and_only_a_local_part_needs_smtputf8() -> None:
    assert wire("d@exämple.org") == "d@xn--exmple-cua.org" and not needs_smtputf8("d@exämple.org")
    assert wire("dé@example.org") == "dé@example.org" and needs_smtputf8("dé@example.org")


def parsed(raw: str) -> EmailMessage:
    message = email.message_from_string(raw, policy=email.policy.default)
    assert isinstance(message, EmailMessage)
    return message


def test_the_mail_is_ascii_with_an_idna_domain_and_utf8_only_for_an_international_local_part() -> None:
    plain = assemble([("From", "pbem <pbem@example.org>"), ("To", "Zoë <d@exämple.org>"), ("Subject", "Zoë ♛")],
                     "Hello Zoë", "<p>Hello Zoë</p>")
    assert plain.isascii() and "To: =?utf-8?q?Zo=C3=AB?= <d@xn--exmple-cua.org>" in plain
    assert parsed(plain)["Subject"] == "Zoë ♛" and text_of(parsed(plain)) == "Hello Zoë\n"
    utf8 = assemble([("From", "pbem <pbem@example.org>"), ("To", "Zoë <dé@exämple.org>"), ("Subject", "Zoë")],
                    "Hello", "<p>Hello</p>")
    assert "To: Zoë <dé@xn--exmple-cua.org>" in utf8  # headers in UTF-8, for SMTPUTF8; the domain still in IDNA
    assert parsed(utf8)["To"].addresses[0].username == "dé"


def test_a_link_too_long_for_a_line_is_never_made_encoded_words() -> None:
    url = "<https://pbem.example.org/unsubscribe/" + "t" * 150 + ">"
    raw = assemble([("From", "pbem <pbem@example.org>"), ("To", "ann@example.org"), ("Subject", "Ünïcödé " * 20),
                    ("List-Unsubscribe", url)], "x" * 300, "<p>" + "long line " * 60 + "</p>")
    assert f"List-Unsubscribe: {url}\n" in raw and parsed(raw)["List-Unsubscribe"] == url
    assert parsed(raw)["Subject"] == ("Ünïcödé " * 20).strip()
    assert max(len(line) for line in raw.split("\n") if not line.startswith("List-Unsubscribe")) <= 78


@dataclass
class Envelopes:
    """What the loopback SMTP server was given: the envelope and the message of each mail."""

    received: list[tuple[str, list[str], list[str], EmailMessage]] = field(default_factory=list)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_string(envelope.content.decode("utf-8"), policy=email.policy.default)
        assert isinstance(message, EmailMessage)
        self.received.append((envelope.mail_from, list(envelope.rcpt_tos), list(envelope.mail_options), message))
        return "250 OK"


@pytest.fixture(params=[True, False], ids=["smtputf8", "ascii-only"])
def smtp(request: pytest.FixtureRequest) -> Iterator[tuple[Envelopes, int, bool]]:
    found, port = Envelopes(), free_port()
    server = Controller(found, hostname="127.0.0.1", port=port, enable_SMTPUTF8=request.param)
    server.start()
    yield found, port, request.param
    server.stop()


def run(instance: Path, *args: str) -> Any:
    return CliRunner().invoke(cli, ["--instance", str(instance), *args])


def test_a_game_made_on_the_command_line_mails_every_address_or_says_why_not(
        tmp_path: Path, smtp: tuple[Envelopes, int, bool]) -> None:
    received, port, utf8 = smtp
    instance = tmp_path / "inst"
    make_settings(instance)
    (instance / "pbem.toml").write_text((instance / "pbem.toml").read_text() + (
        f'mail_transport = "smtp"\nsmtp_host = "127.0.0.1"\nsmtp_port = {port}\nsmtp_security = "none"\n'
        'mail_from = "pbem <pbem@example.org>"\nreply_address = "play@example.org"\n'), encoding="utf-8")
    refused = run(instance, "game", "new", "highdie", "--player", "Ann <a@٣.org>", "--player", "dé@example.org")
    assert refused.exit_code != 0 and "'a@٣.org' is not an email address" in refused.output
    for first, second in (("Dé <dé@example.org>", "Di <d@exämple.org>"), ("Di <d@exämple.org>", "Dé <dé@example.org>")):
        made = run(instance, "game", "new", "highdie", "--player", first, "--player", second)  # the first is mailed
        assert made.exit_code == 0, made.output
    sent = run(instance, "mail", "send")
    assert sent.exit_code == 0, sent.output
    to_ascii = [r for r in received.received if r[1] == ["d@xn--exmple-cua.org"]]
    assert to_ascii and "SMTPUTF8" not in to_ascii[0][2] and to_ascii[0][0] == "pbem@example.org"
    assert to_ascii[0][3]["To"].addresses[0].domain == "xn--exmple-cua.org"
    to_utf8 = [r for r in received.received if r[1] == ["dé@example.org"]]
    shown = run(instance, "mail", "status")
    if utf8:
        assert to_utf8 and "SMTPUTF8" in to_utf8[0][2]
        assert to_utf8[0][3]["To"].addresses[0].username == "dé" and "Your turn" in str(to_utf8[0][3]["Subject"])
        assert "0 failed" in shown.output
    else:  # nothing silently dropped: the mail is failed, and the operator reads why in plain words
        assert not to_utf8
        assert "1 failed" in shown.output and "dé@example.org" in shown.output
        assert "does not accept addresses with letters beyond ASCII before the @" in shown.output


def test_mail_to_an_international_address_over_smtp(tmp_path: Path, smtp: tuple[Envelopes, int, bool]) -> None:
    received, port, utf8 = smtp
    service = Service.open(make_settings(tmp_path / "inst"))
    try:
        service.create_game("highdie", [Player.parse("Dé <dé@example.org>"), Player.parse("d@exämple.org")],
                            seed="s")
        report = dispatch(service.store, SMTPTransport("127.0.0.1", port, "none"), "pbem <pbem@example.org>",
                          max_attempts=3, retry_seconds=1)
        assert [r[1] for r in received.received] == ([["dé@example.org"]] if utf8 else [])
        assert report.failed == (0 if utf8 else 1)
        if not utf8:
            trouble = status(service.store)["trouble"]
            assert [t["to_addr"] for t in trouble] == ["dé@example.org"]
            assert "give the player an address in plain ASCII" in trouble[0]["last_error"]
    finally:
        service.close()
