"""Several senders on one outbox: each mail is claimed by one of them and reaches the server once."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from delivery import ANN, BEN, Inbox, free_port, smtp_server
from events.store import SQLiteEventStore, write_row
from pbem.instance.database import open_address
from pbem.post.claims import claim_due
from pbem.post.mail.dispatch import dispatch, status
from pbem.post.mail.outbox import OUTBOX, mail_rows, draft_of
from pbem.post.mail.transport import SMTPTransport
from pbem.service import Service

pytestmark = pytest.mark.usefixtures("highdie_registered")
ROOT = Path(__file__).parent.parent
SENDER = "pbem <pbem@localhost>"


class SlowInbox(Inbox):
    """A server that takes a while over each mail, so that senders overlap."""

    delay: float = 0.01

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        await asyncio.sleep(self.delay)
        return await super().handle_DATA(server, session, envelope)


def queue_mails(service: Service, count: int) -> set[str]:
    """``count`` due mails (copies of a game's first mail, each with its own Message-ID); their Message-IDs."""
    game = service.create_game("highdie", [ANN, BEN], seed="claims").after.game_id
    [first] = service.store.query("SELECT * FROM outbox WHERE game_id = ?", (game,))
    draft = draft_of(first)
    now = datetime.now(timezone.utc).isoformat(timespec="microseconds")
    rows = []
    for n in range(count - 1):
        message_id = f"<copy{n}.{game}@localhost>"
        rows.extend(mail_rows(game_id=game, seat=0, to_addr=ANN.email, kind="turn", subject=first["subject"],
                             message_id=message_id, draft={**draft, "message_id": message_id}, now=now))
    with service.store.transaction() as conn:
        for row in rows:
            write_row(conn, row)
    return {r["message_id"] for r in service.store.query("SELECT message_id FROM outbox")}


def received(inbox: Inbox) -> Counter[str]:
    return Counter(str(m["Message-ID"]) for m in inbox.messages)


def send_all(address: str, port: int) -> None:
    store = open_address(address)
    try:
        dispatch(store, SMTPTransport("127.0.0.1", port, "none"), SENDER, max_attempts=3, retry_seconds=1)
    finally:
        store.close()


def test_threads_sending_the_same_outbox_at_once_deliver_each_mail_once(service: Service) -> None:
    ids = queue_mails(service, 80)
    inbox, port = SlowInbox(), free_port()
    server = smtp_server(inbox, port)
    start = threading.Barrier(4)

    def sender() -> None:
        start.wait(timeout=10)
        send_all(service.store.address, port)

    threads = [threading.Thread(target=sender) for _ in range(4)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
    finally:
        server.stop()
    assert not any(t.is_alive() for t in threads)
    counts = received(inbox)
    assert set(counts) == ids and max(counts.values()) == 1, f"sent twice: {[m for m, n in counts.items() if n > 1]}"
    assert status(service.store)["counts"] == {"sent": 80}
    owners = service.store.query("SELECT DISTINCT sender FROM mail_attempts")
    assert len(owners) > 1, "the senders did not overlap; the test proves nothing"


def test_a_worker_and_two_pbem_mail_send_at_once_deliver_each_mail_once(service: Service) -> None:
    """The situation reported: ``pbem worker`` running, and two ``pbem mail send`` started at the same time."""
    ids = queue_mails(service, 80)
    inbox, port = SlowInbox(), free_port()
    inbox.delay = 0.02
    server = smtp_server(inbox, port)
    env = {**os.environ, "PBEM_INSTANCE": str(service.settings.instance), "PBEM_MAIL_TRANSPORT": "smtp",
           "PBEM_SMTP_HOST": "127.0.0.1", "PBEM_SMTP_PORT": str(port), "PBEM_SMTP_SECURITY": "none",
           "PBEM_DISPATCH_SECONDS": "1"}

    def pbem(*args: str) -> subprocess.Popen[str]:
        return subprocess.Popen([sys.executable, "-m", "cli.main", *args], cwd=ROOT, env=env, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

    try:
        worker = pbem("worker")
        try:
            senders = [pbem("mail", "send") for _ in range(2)]
            outputs = [s.communicate(timeout=120)[0] for s in senders]
            deadline = time.time() + 60
            while status(service.store)["counts"] != {"sent": 80} and time.time() < deadline:
                time.sleep(0.1)
        finally:
            worker.send_signal(signal.SIGTERM)  # as systemd stops it
            worker_output = worker.communicate(timeout=60)[0]
    finally:
        server.stop()
    assert [s.returncode for s in senders] == [0, 0], outputs
    assert worker.returncode == 0 and "pbem worker stopped" in worker_output, worker_output
    counts = received(inbox)
    assert set(counts) == ids and max(counts.values()) == 1, f"sent twice: {[m for m, n in counts.items() if n > 1]}"
    assert status(service.store)["counts"] == {"sent": 80}
    owners = service.store.query("SELECT DISTINCT sender FROM mail_attempts")
    assert len(owners) > 1, "the senders did not overlap; the test proves nothing"


class Watched(SlowInbox):
    """A slow server that tells when a mail's data starts to arrive."""

    delay = 1.0

    def __init__(self) -> None:
        super().__init__()
        self.sending = threading.Event()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.sending.set()
        return await super().handle_DATA(server, session, envelope)


def test_a_worker_stopped_as_systemd_stops_it_finishes_the_mail_it_is_sending(service: Service) -> None:
    """SIGTERM mid-send (``systemctl stop``): the mail being sent is finished and recorded, no other is started, no
    claim is left for the next sender to wait out, and the worker says it stopped. Before, SIGTERM ended it mid-send,
    its claim left to lapse."""
    ids = queue_mails(service, 3)
    inbox, port = Watched(), free_port()
    server = smtp_server(inbox, port)
    env = {**os.environ, "PBEM_INSTANCE": str(service.settings.instance), "PBEM_MAIL_TRANSPORT": "smtp",
           "PBEM_SMTP_HOST": "127.0.0.1", "PBEM_SMTP_PORT": str(port), "PBEM_SMTP_SECURITY": "none",
           "PBEM_DISPATCH_SECONDS": "1"}
    try:
        worker = subprocess.Popen([sys.executable, "-m", "cli.main", "worker"], cwd=ROOT, env=env, text=True,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            assert inbox.sending.wait(timeout=60), "the worker sent nothing"
            worker.send_signal(signal.SIGTERM)
        finally:
            output = worker.communicate(timeout=60)[0]
    finally:
        server.stop()
    assert worker.returncode == 0, output
    assert "pbem worker stopping: the mail being sent and the running jobs finish first" in output, output
    assert output.rstrip().endswith("pbem worker stopped"), output
    [mail] = inbox.messages
    assert str(mail["Message-ID"]) in ids
    sent = service.store.query("SELECT message_id FROM outbox WHERE status = 'sent'")
    assert [r["message_id"] for r in sent] == [str(mail["Message-ID"])]
    assert status(service.store)["counts"] == {"sent": 1, "pending": 2} and status(service.store)["claims"] == []


def test_a_run_asked_to_stop_finishes_the_mail_it_sends_and_claims_no_other(service: Service) -> None:
    ids = queue_mails(service, 3)
    inbox, port = Inbox(), free_port()
    server = smtp_server(inbox, port)
    try:
        report = dispatch(service.store, smtp(port), SENDER, max_attempts=3, retry_seconds=1,
                          stopping=lambda: len(inbox.messages) > 0)
        assert (report.sent, len(inbox.messages)) == (1, 1)
        assert status(service.store)["counts"] == {"sent": 1, "pending": 2} and status(service.store)["claims"] == []
        again = dispatch(service.store, smtp(port), SENDER, max_attempts=3, retry_seconds=1)  # the next start
    finally:
        server.stop()
    assert again.sent == 2 and set(received(inbox)) == ids and max(received(inbox).values()) == 1


def smtp(port: int) -> SMTPTransport:
    return SMTPTransport("127.0.0.1", port, "none")


def test_a_claim_whose_sender_died_is_sent_by_the_next_sender_once_its_lease_ran_out(service: Service) -> None:
    ids = queue_mails(service, 3)
    [dead] = claim_due(service.store, OUTBOX, "dead-sender", lease_seconds=0.2, limit=1)
    time.sleep(0.3)  # the sender died; its lease runs out
    assert status(service.store)["claims"][0]["lapsed"] is True
    inbox, port = Inbox(), free_port()
    server = smtp_server(inbox, port)
    try:
        report = dispatch(service.store, smtp(port), SENDER, max_attempts=3, retry_seconds=1)
    finally:
        server.stop()
    assert report.sent == 3 and set(received(inbox)) == ids
    row = service.store.query("SELECT status, claimed_by, claim_until FROM outbox WHERE id = ?", (dead["id"],))[0]
    assert row == {"status": "sent", "claimed_by": None, "claim_until": None}


def test_an_unexpired_claim_of_another_sender_is_left_to_it(service: Service) -> None:
    queue_mails(service, 3)
    [held] = claim_due(service.store, OUTBOX, "live-sender", lease_seconds=300, limit=1)
    inbox, port = Inbox(), free_port()
    server = smtp_server(inbox, port)
    try:
        report = dispatch(service.store, smtp(port), SENDER, max_attempts=3, retry_seconds=1)
    finally:
        server.stop()
    assert report.sent == 2 and held["message_id"] not in received(inbox)
    row = service.store.query("SELECT status, claimed_by, claim_until FROM outbox WHERE id = ?", (held["id"],))[0]
    assert row == {"status": "pending", "claimed_by": "live-sender", "claim_until": held["claim_until"]}
    [claim] = status(service.store)["claims"]
    assert claim["claimed_by"] == "live-sender" and claim["lapsed"] is False


def test_a_sender_whose_claim_was_taken_over_leaves_the_row_to_the_new_owner(service: Service) -> None:
    """A sender slower than its lease: another claims the row and sends it; the slow one's update does nothing."""
    queue_mails(service, 1)
    start = datetime.now(timezone.utc)
    inbox, port = Inbox(), free_port()
    server = smtp_server(inbox, port)
    later: list[Any] = []

    class Stalling(SMTPTransport):
        def send(self, sender: str, recipient: str, message: str, name: str) -> None:
            # while this sender stalls, its lease runs out and another sender takes the mail over
            later.append(dispatch(service.store, smtp(port), SENDER, max_attempts=3, retry_seconds=1,
                                  now=start + timedelta(seconds=120), lease_seconds=60, owner="second"))
            super().send(sender, recipient, message, name)

    try:
        slow = dispatch(service.store, Stalling("127.0.0.1", port, "none"), SENDER, max_attempts=3,
                        retry_seconds=1, now=start, lease_seconds=60, owner="first")
    finally:
        server.stop()
    assert (slow.sent, slow.lost, later[0].sent) == (0, 1, 1)
    assert len(inbox.messages) == 2  # the at-least-once window: the stalled sender's copy went out too
    assert service.store.query("SELECT status, attempts FROM outbox") == [{"status": "sent", "attempts": 1}]
    assert service.store.query("SELECT sender FROM mail_attempts") == [{"sender": "second"}]


def test_claims_are_disjoint_and_the_oldest_due_come_first(service: Service) -> None:
    queue_mails(service, 5)
    first = claim_due(service.store, OUTBOX, "a", lease_seconds=60, limit=3)
    second = claim_due(service.store, OUTBOX, "b", lease_seconds=60, limit=3)
    assert len(first) == 3 and len(second) == 2 and not {r["id"] for r in first} & {r["id"] for r in second}
    assert [r["due_at"] for r in first] == sorted(r["due_at"] for r in first)
    assert claim_due(service.store, OUTBOX, "c", lease_seconds=60, limit=3) == []
    with pytest.raises(ValueError):
        claim_due(service.store, "outbox; DROP TABLE events", "c", lease_seconds=60, limit=1)


def test_an_outbox_from_before_claims_gains_the_claim_columns_and_keeps_its_mails(tmp_path: Path) -> None:
    from delivery import make_settings
    settings = make_settings(tmp_path / "inst")
    old = SQLiteEventStore(settings.database)
    old.conn.execute("CREATE TABLE outbox (id TEXT PRIMARY KEY, game_id TEXT, seat INTEGER, to_addr TEXT, kind TEXT, "
                     "subject TEXT, message_id TEXT, draft TEXT, message TEXT, status TEXT, attempts INTEGER, "
                     "due_at TEXT, created_at TEXT, sent_at TEXT, last_error TEXT)")
    old.conn.execute("CREATE TABLE mail_attempts (outbox_id TEXT, attempt INTEGER, at TEXT, ok INTEGER, error TEXT, "
                     "PRIMARY KEY (outbox_id, attempt))")
    old.conn.execute("INSERT INTO outbox (id, to_addr, status, attempts, due_at, created_at) "
                     "VALUES ('m1', 'ann@example.org', 'pending', 0, '2020-01-01', '2020-01-01')")
    old.close()
    service = Service.open(settings)
    try:
        columns = {r["name"] for r in service.store.query("SELECT name FROM pragma_table_info('outbox')")}
        assert {"claimed_by", "claim_until"} <= columns
        attempts = service.store.query("SELECT name FROM pragma_table_info('mail_attempts')")
        assert "sender" in {r["name"] for r in attempts}
        [row] = claim_due(service.store, OUTBOX, "new", lease_seconds=60, limit=5)
        assert row["id"] == "m1" and row["claimed_by"] == "new"
    finally:
        service.close()
    Service.open(settings).close()  # opening again changes nothing


def test_mail_status_shows_the_mails_being_sent_and_the_lapsed_claims(service: Service) -> None:
    from click.testing import CliRunner

    from cli.main import cli

    queue_mails(service, 3)
    [sending] = claim_due(service.store, OUTBOX, "host:42:live", lease_seconds=300, limit=1)
    [lapsed] = claim_due(service.store, OUTBOX, "host:41:dead", lease_seconds=0.1, limit=1)
    time.sleep(0.2)
    instance = ["--instance", str(service.settings.instance)]
    out = CliRunner().invoke(cli, [*instance, "mail", "status"])
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[0] == "3 pending, 0 sent, 0 failed (1 being sent now)"
    assert lines[1].startswith("lapsed   ann@example.org") and "claimed by host:41:dead until" in lines[1]
    assert "the next run sends it again" in lines[1]
    assert lines[2].startswith("sending  ann@example.org") and "by host:42:live" in lines[2]
    found = json.loads(CliRunner().invoke(cli, [*instance, "mail", "status", "--json"]).output)
    assert [(c["id"], c["claimed_by"], c["lapsed"]) for c in found["claims"]] == [
        (lapsed["id"], "host:41:dead", True), (sending["id"], "host:42:live", False)]
