"""Sending the outbox: due rows in order, retries with exponential backoff, every attempt recorded.

The outbox holds mails and webhook posts (``channel``): both are claimed, retried and recorded here alike; a
mail goes to the transport, a post to the ``Poster``.

Each row is claimed before it is sent (``pbem.post.claims``): several senders at once (the worker and a
``pbem mail send``, or two workers by mistake) never send the same row, so with live senders a mail
goes out exactly once. Delivery across a crash is at least once: a sender killed between the
server's acceptance and the row's update leaves its claim behind; once the claim's lease has run
out the next sender sends that mail again, with the same Message-ID (mail clients show it once).
Nothing is ever lost: a row is pending until sent, or failed for good and listed by
``pbem mail status``.

Rows are claimed one at a time, just before each is sent, rather than a batch at once: a lease then
has to cover one mail, not a batch of slow ones, and senders share a long queue. The next row is
claimed in the transaction that records the last one, so a run still commits once per mail (the
dispatch benchmark, ``docs/benchmarks.md``, gave the same rate as before claims).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any, Callable

from events.store import SQLiteEventStore
from pbem.post.claims import CLAIMED, claim_due, claim_in, iso, new_owner, release
from pbem.post.mail import bounces
from pbem.post.mail.outbox import OUTBOX, message_of
from pbem.post.mail.transport import PermanentFailure, Transport
from pbem.post.webhook_post import Poster
from pbem.post.webhooks import CHANNEL as WEBHOOK_CHANNEL

log = logging.getLogger(__name__)

# A claim's lease, in SMTP timeouts: sending one mail is a handful of SMTP commands (connect,
# STARTTLS, login, MAIL, RCPT, DATA), each given up after ``smtp_timeout``.
LEASE_TIMEOUTS = 10
MIN_LEASE_SECONDS = 60.0


def lease_for(smtp_timeout: float) -> float:
    """How long a sender holds its claim on a mail: longer than any send that does not time out."""
    return max(MIN_LEASE_SECONDS, LEASE_TIMEOUTS * smtp_timeout)


@dataclass
class DispatchReport:
    sent: int = 0
    retried: int = 0
    failed: int = 0
    lost: int = 0  # claims that ran out while sending, and another sender took the mail over
    full: bool = False  # the run stopped at its batch: more rows may be due

    def add(self, other: DispatchReport) -> None:
        """Count another run's rows in with this one's (``full`` is the last run's)."""
        self.sent, self.retried = self.sent + other.sent, self.retried + other.retried
        self.failed, self.lost, self.full = self.failed + other.failed, self.lost + other.lost, other.full


def _now() -> datetime:
    return datetime.now(timezone.utc)


_iso = iso


def sender_store(store: Any) -> Any:
    """The connection a sender records its mails on: ``synchronous = NORMAL``, so recording a sent mail does not
    wait for the disk (in WAL mode a commit is then durable against a crash of the process, not of the machine).

    A power cut can forget that a mail went out; it is then claimed and sent again once its lease has run out,
    with the same Message-ID: the at-least-once guarantee a sender that dies mid-send already gives. Moves and
    everything else keep the service's own setting (``synchronous``, FULL by default) on their connections.
    On PostgreSQL it is the service's own store (``for_sending``). Close it when done.
    """
    return store.for_sending()


def dispatch(store: SQLiteEventStore, transport: Transport, sender: str, *, max_attempts: int,
             retry_seconds: float, batch: int = 200, now: datetime | None = None,
             lease_seconds: float = lease_for(30), owner: str | None = None,
             poster: Poster | None = None, stopping: Callable[[], bool] = lambda: False) -> DispatchReport:
    """Claim and send the due rows of the outbox, each at most once in this run; returns what happened.

    ``owner`` names this sender in its claims (default: a new one, unique to the run). Webhook rows are posted
    by ``poster`` (default: ``Poster()``, which posts to no address on this machine). Once ``stopping()`` is
    true (the worker is being stopped), the mail being sent is finished and no other is claimed.
    """
    run = _Run(store, transport, sender, owner or new_owner(), max_attempts, retry_seconds, lease_seconds, now,
               poster)
    tried: set[str] = set()
    try:
        claimed = claim_due(store, OUTBOX, run.owner, lease_seconds=lease_seconds, limit=1, now=now)
        while claimed:
            row = claimed[0]
            if row["id"] in tried:  # due again at once (no backoff): its next try is the next run's
                break
            tried.add(row["id"])
            claimed = run.send(row, claim_next=lambda: len(tried) < batch and not stopping())
        if claimed:
            release(store, OUTBOX, run.owner, [r["id"] for r in claimed])
    finally:
        transport.close()
    run.report.full = len(tried) >= batch
    return run.report


@dataclass
class _Run:
    """One sender's run: sends a claimed row, records it, and claims the next in the same transaction."""

    store: SQLiteEventStore
    transport: Transport
    sender: str
    owner: str
    max_attempts: int
    retry_seconds: float
    lease_seconds: float
    now: datetime | None
    poster: Poster | None = None
    report: DispatchReport = field(default_factory=DispatchReport)

    def send(self, row: dict[str, Any], claim_next: Callable[[], bool]) -> list[dict[str, Any]]:
        """Send one claimed row and record the outcome; returns the next row claimed, if ``claim_next()`` (asked
        once this row is sent)."""
        attempt = int(row["attempts"]) + 1
        error: str | None = None
        permanent = False
        message = None
        webhook = row.get("channel") == WEBHOOK_CHANNEL
        wait = 0.0
        try:
            message = None if webhook else message_of(row)
        except Exception as err:  # a template that cannot render: retrying will not help; the operator must see it
            error, permanent = f"cannot render the mail: {type(err).__name__}: {err}", True
            log.exception("mail %s cannot be rendered", row["id"])
        try:
            if webhook:  # a webhook's post (``pbem.post.webhook_post``): the same claim, retries and backoff as a mail
                (self.poster or Poster()).post(self.store, row)
            elif message is not None:
                self.transport.send(self.sender, row["to_addr"], message, row["id"])
        except PermanentFailure as err:
            error, permanent = str(err), True
            if err.recipient_refused:  # a 5xx to RCPT counts against the address as a hard bounce does
                bounces.record(self.store, row["to_addr"], bounces.Kind.HARD, str(err), outbox_id=row["id"],
                               message_id=row.get("message_id"), via="smtp", now=self.now)
        except Exception as err:  # any transport trouble is retried: the row must not be lost
            error = f"{type(err).__name__}: {err}"
            wait = max(wait, float(getattr(err, "retry_after", 0) or 0))  # a webhook's 429 may say how long
        at = self.now or _now()
        retry_at = at + timedelta(seconds=max(wait, self.retry_seconds * 2 ** (attempt - 1)))
        values: list[Any]
        if error is None:
            # the body is not written again: the draft stays (until the retention period), the rendered copy goes
            outcome, sets = "sent", "status = 'sent', sent_at = ?, last_error = NULL, message = NULL"
            values = [_iso(at)]
        elif permanent or attempt >= self.max_attempts:
            outcome, sets, values = "failed", "status = 'failed', last_error = ?", [error]
        else:
            outcome, sets, values = "retried", "due_at = ?, last_error = ?", [_iso(retry_at), error]
        claimed: list[dict[str, Any]] = []
        with self.store.transaction() as conn:
            # The claim is given back with the update, which only holds if the claim is still ours.
            updated = conn.execute(f"UPDATE outbox SET {sets}, attempts = ?, claimed_by = NULL, claim_until = NULL "
                                   f"WHERE id = ? AND {CLAIMED}", (*values, attempt, row["id"], self.owner))
            if updated.rowcount == 1:
                conn.execute("INSERT INTO mail_attempts (outbox_id, attempt, at, ok, error, sender) "
                             "VALUES (?,?,?,?,?,?) ON CONFLICT (outbox_id, attempt) DO UPDATE SET at = excluded.at, "
                             "ok = excluded.ok, error = excluded.error, sender = excluded.sender",
                             (row["id"], attempt, _iso(at), int(error is None), error, self.owner))
            if claim_next():  # in the same transaction: one commit per mail, as before claims
                claimed = claim_in(conn, OUTBOX, self.owner, lease_seconds=self.lease_seconds, limit=1, now=self.now)
        self._report(row, updated.rowcount == 1, outcome, attempt, error, retry_at)
        return claimed

    def _report(self, row: dict[str, Any], held: bool, outcome: str, attempt: int, error: str | None,
                retry_at: datetime) -> None:
        if not held:
            # The lease ran out mid-send and another sender claimed the row: the row is theirs now.
            self.report.lost += 1
            log.warning("mail %s to %s: the claim ran out while sending (%s); another sender took it over",
                        row["id"], row["to_addr"], "it was sent" if error is None else error)
        elif outcome == "sent":
            self.report.sent += 1
        elif outcome == "failed":
            self.report.failed += 1
            log.warning("mail %s to %s failed for good after %d attempts: %s", row["id"], row["to_addr"],
                        attempt, error)
        else:
            self.report.retried += 1
            log.info("mail %s to %s not sent (attempt %d, next at %s): %s", row["id"], row["to_addr"], attempt,
                     _iso(retry_at), error)


def prune(store: SQLiteEventStore, days: float, now: datetime | None = None, batch: int = 500) -> int:
    """Drop the bodies of mails sent more than ``days`` ago; returns how many. ``days`` 0: keep them all.

    The row stays: to whom, the subject, the Message-ID (threads are rooted in a computed id, not in
    an old mail), when it was sent and every attempt. A pending or failed mail is never touched. The
    WAL is checkpointed after a batch, so the file does not grow with what was dropped.
    """
    if days <= 0:
        return 0
    cutoff = _iso((now or _now()) - timedelta(days=days))
    with store.transaction() as conn:
        done = conn.execute(
            "UPDATE outbox SET draft = NULL, message = NULL WHERE id IN (SELECT id FROM outbox WHERE status = 'sent' "
            "AND sent_at < ? AND draft IS NOT NULL ORDER BY sent_at LIMIT ?)", (cutoff, batch)).rowcount
    if done:
        store.checkpoint()
    return int(done)


def status(store: SQLiteEventStore, now: datetime | None = None) -> dict[str, Any]:
    """Counts by status; every failed or retrying mail with its last error; every claimed mail.

    A claimed mail is being sent by the sender named in ``claimed_by``; if its claim has
    ``lapsed``, that sender stopped (or hangs) and the next run sends the mail again.
    """
    counts = {r["status"]: r["n"] for r in store.query("SELECT status, count(*) AS n FROM outbox GROUP BY status")}
    trouble = store.query("SELECT id, game_id, to_addr, kind, subject, status, attempts, due_at, last_error "
                          "FROM outbox WHERE status = 'failed' OR (status = 'pending' AND attempts > 0) "
                          "ORDER BY created_at")
    claims = store.query("SELECT id, game_id, to_addr, kind, subject, attempts, claimed_by, claim_until, "
                         "claim_until <= ? AS lapsed FROM outbox WHERE status = 'pending' AND claimed_by IS NOT NULL "
                         "ORDER BY claim_until", (_iso(now or _now()),))
    for claim in claims:
        claim["lapsed"] = bool(claim["lapsed"])
    return {"counts": counts, "trouble": trouble, "claims": claims}


def retry_failed(store: SQLiteEventStore) -> int:
    """Put every failed mail back in the queue (after the operator fixed the cause)."""
    with store.transaction() as conn:
        cursor = conn.execute("UPDATE outbox SET status = 'pending', attempts = 0, due_at = ? "
                              "WHERE status = 'failed'", (_iso(_now()),))
        return cursor.rowcount
