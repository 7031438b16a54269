"""DKIM: ``pbem mail dkim-key`` makes a key and prints its DNS record; mails sent over SMTP with ``dkim_key`` set carry
a signature that verifies against that record, and fails once the mail is changed."""

from __future__ import annotations

import re
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import dkim
import pytest
from aiosmtpd.controller import Controller
from click.testing import CliRunner

from cli.main import cli
from delivery import free_port, make_settings

pytestmark = pytest.mark.usefixtures("highdie_registered")


@dataclass
class Raw:
    """A loopback SMTP server that keeps each message as the bytes it received."""

    messages: list[bytes] = field(default_factory=list)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(envelope.original_content)
        return "250 OK"


@pytest.fixture
def smtp() -> Iterator[tuple[Raw, int]]:
    found, port = Raw(), free_port()
    server = Controller(found, hostname="127.0.0.1", port=port)
    server.start()
    yield found, port
    server.stop()


def run(instance: Path, *args: str) -> Any:
    return CliRunner().invoke(cli, ["--instance", str(instance), *args])


def published(output: str) -> bytes:
    """The TXT record's value, as a resolver gives it: the quoted strings joined."""
    line = next(l for l in output.splitlines() if "._domainkey." in l)
    return "".join(re.findall(r'"([^"]*)"', line)).encode()


def test_a_key_is_made_once_and_its_record_printed(tmp_path: Path) -> None:
    instance = tmp_path / "inst"
    make_settings(instance)
    (instance / "pbem.toml").write_text((instance / "pbem.toml").read_text() +
                                        'mail_from = "pbem <pbem@games.example.org>"\n', encoding="utf-8")
    made = run(instance, "mail", "dkim-key")
    assert made.exit_code == 0, made.output
    assert "pbem._domainkey.games.example.org. IN TXT (" in made.output
    assert published(made.output).startswith(b"v=DKIM1; k=rsa; h=sha256; p=MII")
    assert 'dkim_key = "dkim/pbem.pem"' in made.output
    key = instance / "dkim" / "pbem.pem"
    assert key.read_text().startswith("-----BEGIN") and stat.S_IMODE(key.stat().st_mode) == 0o600
    again = run(instance, "mail", "dkim-key")
    assert again.exit_code == 1 and "exists already" in again.output and key.read_text() == key.read_text()


def test_mail_sent_with_a_key_verifies_against_the_record_and_not_once_changed(tmp_path: Path,
                                                                               smtp: tuple[Raw, int]) -> None:
    received, port = smtp
    instance = tmp_path / "inst"
    make_settings(instance)
    config = (instance / "pbem.toml").read_text() + (
        f'mail_transport = "smtp"\nsmtp_host = "127.0.0.1"\nsmtp_port = {port}\nsmtp_security = "none"\n'
        'mail_from = "pbem <pbem@games.example.org>"\nreply_address = "play@games.example.org"\n')
    (instance / "pbem.toml").write_text(config, encoding="utf-8")
    made = run(instance, "mail", "dkim-key")
    record = published(made.output)
    unsigned = run(instance, "game", "new", "highdie", "--player", "Ann <ann@example.org>", "--player", "b@x.org")
    assert unsigned.exit_code == 0 and run(instance, "mail", "send").exit_code == 0
    assert b"DKIM-Signature" not in received.messages[-1]  # no key set: no signature
    (instance / "pbem.toml").write_text(config + 'dkim_key = "dkim/pbem.pem"\n', encoding="utf-8")
    run(instance, "game", "new", "highdie", "--player", "Zoë <zoe@example.org>", "--player", "c@x.org")
    assert run(instance, "mail", "send").exit_code == 0
    raw = received.messages[-1]
    assert raw.startswith(b"DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/simple; d=games.example.org;")
    signed = re.search(rb"h=([^;]+);", raw.replace(b"\r\n", b"").replace(b"\t", b"").replace(b" ", b""))
    assert signed is not None and {b"list-unsubscribe", b"from", b"subject"} <= set(signed.group(1).split(b":"))

    def dns(name: bytes, timeout: int = 5) -> bytes:
        assert name == b"pbem._domainkey.games.example.org."
        return record
    assert dkim.verify(raw, dnsfunc=dns)
    assert not dkim.verify(raw.replace(b"Your turn", b"Your tern", 1), dnsfunc=dns)


def test_a_key_that_cannot_be_read_sends_nothing_and_says_why(tmp_path: Path, smtp: tuple[Raw, int]) -> None:
    received, port = smtp
    instance = tmp_path / "inst"
    make_settings(instance)
    (instance / "pbem.toml").write_text((instance / "pbem.toml").read_text() + (
        f'mail_transport = "smtp"\nsmtp_host = "127.0.0.1"\nsmtp_port = {port}\nsmtp_security = "none"\n'
        'dkim_key = "dkim/missing.pem"\n'), encoding="utf-8")
    run(instance, "game", "new", "highdie", "--player", "Ann <ann@example.org>", "--player", "b@x.org")
    sent = run(instance, "mail", "send")
    assert sent.exit_code == 1 and "dkim/missing.pem" in sent.output and "pbem mail dkim-key" in sent.output
    assert received.messages == [] and "1 pending" in run(instance, "mail", "status").output
