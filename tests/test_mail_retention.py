"""A sent mail's body is kept for the retention period, then dropped; its row, Message-ID and attempts stay.

A mail is stored once: its draft (deflated JSON), rendered when it is sent; sending does not write the body again.
A pending or failed mail is never pruned, whatever its age.
"""

from __future__ import annotations

import email
import email.policy
import json
import zlib
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from delivery import make_settings
from pbem.post.mail.dispatch import dispatch, prune
from pbem.post.mail.outbox import draft_of
from pbem.post.mail.transport import FileTransport
from pbem.service import Player, Service

pytestmark = pytest.mark.usefixtures("highdie_registered")


@pytest.fixture
def service(tmp_path: Path, database: str | None):  # type: ignore[no-untyped-def]
    s = Service.open(make_settings(tmp_path / "inst"))
    yield s
    s.close()


def outbox(service: Service) -> list[dict]:  # type: ignore[type-arg]
    return service.store.query("SELECT id, status, draft, message, message_id, sent_at FROM outbox ORDER BY created_at")


def test_a_sent_mail_keeps_its_draft_only_and_loses_it_after_the_retention_period(service: Service,
                                                                                   tmp_path: Path) -> None:
    service.create_game("highdie", [Player.parse("ann@example.org"), Player.parse("ben@example.org")], seed="r")
    report = dispatch(service.store, FileTransport(tmp_path / "mailbox"), "pbem@example.org", max_attempts=3,
                      retry_seconds=1)
    rows = outbox(service)
    assert report.sent == len(rows) >= 1
    assert all(r["status"] == "sent" and r["draft"] and r["message"] is None for r in rows)  # stored once

    now = datetime.now(timezone.utc)
    assert prune(service.store, 30, now + timedelta(days=29)) == 0
    assert prune(service.store, 0, now + timedelta(days=365)) == 0  # 0: kept forever
    assert prune(service.store, 30, now + timedelta(days=31)) == len(rows)
    after = outbox(service)
    assert all(r["draft"] is None and r["message"] is None for r in after)
    assert [(r["id"], r["message_id"], r["sent_at"]) for r in after] == [
        (r["id"], r["message_id"], r["sent_at"]) for r in rows]
    assert service.store.query("SELECT count(*) AS n FROM mail_attempts")[0]["n"] == len(rows)


def test_a_pending_mail_is_never_pruned(service: Service) -> None:
    service.create_game("highdie", [Player.parse("ann@example.org"), Player.parse("ben@example.org")], seed="p")
    before = outbox(service)
    assert before and all(r["status"] == "pending" for r in before)
    assert prune(service.store, 1, datetime.now(timezone.utc) + timedelta(days=3650)) == 0
    assert outbox(service) == before


def test_a_draft_is_kept_deflated_and_a_plain_json_draft_of_before_still_sends(service: Service,
                                                                              tmp_path: Path) -> None:
    service.create_game("highdie", [Player.parse("ann@example.org"), Player.parse("ben@example.org")], seed="z")
    rows = outbox(service)
    packed = rows[0]["draft"]
    assert isinstance(packed, bytes) and zlib.decompress(packed).startswith(b"{")
    draft = draft_of(rows[0])
    assert len(packed) * 2 < len(json.dumps(draft, sort_keys=True))  # deflated: under half of its JSON
    # a row written before drafts were deflated holds the JSON text: it reads and sends the same (SQLite only:
    # PostgreSQL databases are newer, and `pbem db copy` turns such a text into bytes)
    if service.store.engine == "sqlite":
        with service.store.transaction() as conn:
            conn.execute("UPDATE outbox SET draft = ? WHERE id = ?", (json.dumps(draft, sort_keys=True), rows[0]["id"]))
    assert draft_of(outbox(service)[0]) == draft
    report = dispatch(service.store, FileTransport(tmp_path / "mailbox"), "pbem@example.org", max_attempts=3,
                      retry_seconds=1)
    assert report.sent == len(rows) and report.failed == 0
    sent = email.message_from_string((tmp_path / "mailbox" / f"{rows[0]['id']}.eml").read_text(),
                                     policy=email.policy.default)
    assert sent["Subject"] == draft["subject"] and sent["Message-ID"] == draft["message_id"]
