"""A sent mail's body is kept for the retention period, then dropped; its row, Message-ID and attempts stay.

A mail is stored once: its draft, rendered when it is sent; sending does not write the body again.
A pending or failed mail is never pruned, whatever its age.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from delivery import make_settings
from pbem.mail.dispatch import dispatch, prune
from pbem.mail.transport import FileTransport
from pbem.service import Player, Service

pytestmark = pytest.mark.usefixtures("highdie_registered")


@pytest.fixture
def service(tmp_path: Path):  # type: ignore[no-untyped-def]
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
