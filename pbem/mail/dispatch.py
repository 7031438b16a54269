"""Sending the outbox: due rows in order, retries with exponential backoff, every attempt recorded.

Delivery is at least once: a process killed between the server's acceptance and the row's
update sends that mail again on restart, with the same Message-ID (mail clients show it once).
Nothing is ever lost: a row is pending until sent, or failed for good and listed by
``pbem mail status``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from events.store import SQLiteEventStore
from pbem.mail.outbox import message_of
from pbem.mail.transport import PermanentFailure, Transport

log = logging.getLogger(__name__)


@dataclass
class DispatchReport:
    sent: int = 0
    retried: int = 0
    failed: int = 0


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="microseconds")


def dispatch(store: SQLiteEventStore, transport: Transport, sender: str, *, max_attempts: int,
             retry_seconds: float, batch: int = 200, now: datetime | None = None) -> DispatchReport:
    """Send the due rows of the outbox once each; returns what happened."""
    moment = now or _now()
    report = DispatchReport()
    rows = store.query("SELECT id, to_addr, draft, message, attempts, message_id FROM outbox "
                       "WHERE status = 'pending' AND due_at <= ? ORDER BY due_at, created_at LIMIT ?",
                       (_iso(moment), batch))
    try:
        for row in rows:
            _send_one(store, transport, sender, row, max_attempts, retry_seconds, report, now)
    finally:
        transport.close()
    return report


def _send_one(store: SQLiteEventStore, transport: Transport, sender: str, row: dict[str, Any],
              max_attempts: int, retry_seconds: float, report: DispatchReport, now: datetime | None) -> None:
    attempt = int(row["attempts"]) + 1
    error: str | None = None
    permanent = False
    message = None
    try:
        message = message_of(row)
    except Exception as err:  # a template that cannot render: retrying will not help; the operator must see it
        error, permanent = f"cannot render the mail: {type(err).__name__}: {err}", True
        log.exception("mail %s cannot be rendered", row["id"])
    try:
        if message is not None:
            transport.send(sender, row["to_addr"], message, row["id"])
    except PermanentFailure as err:
        error, permanent = str(err), True
    except Exception as err:  # any transport trouble is retried: the row must not be lost
        error = f"{type(err).__name__}: {err}"
    at = now or _now()
    with store.transaction() as conn:
        conn.execute("INSERT OR REPLACE INTO mail_attempts (outbox_id, attempt, at, ok, error) VALUES (?,?,?,?,?)",
                     (row["id"], attempt, _iso(at), int(error is None), error))
        if error is None:
            conn.execute("UPDATE outbox SET status = 'sent', attempts = ?, sent_at = ?, last_error = NULL, "
                         "message = ? WHERE id = ?", (attempt, _iso(at), message, row["id"]))
            report.sent += 1
        elif permanent or attempt >= max_attempts:
            conn.execute("UPDATE outbox SET status = 'failed', attempts = ?, last_error = ? WHERE id = ?",
                         (attempt, error, row["id"]))
            report.failed += 1
            log.warning("mail %s to %s failed for good after %d attempts: %s", row["id"], row["to_addr"],
                        attempt, error)
        else:
            retry_at = at + timedelta(seconds=retry_seconds * 2 ** (attempt - 1))
            conn.execute("UPDATE outbox SET attempts = ?, due_at = ?, last_error = ? WHERE id = ?",
                         (attempt, _iso(retry_at), error, row["id"]))
            report.retried += 1
            log.info("mail %s to %s not sent (attempt %d, next at %s): %s", row["id"], row["to_addr"], attempt,
                     _iso(retry_at), error)


def render_pending(store: SQLiteEventStore, batch: int = 200) -> int:
    """Render the drafts of pending mails into messages, ahead of sending; returns how many.

    A draft that cannot be rendered is left for ``dispatch``, which marks it failed and says why.
    """
    rows = store.query("SELECT id, draft, message FROM outbox WHERE status = 'pending' AND message IS NULL "
                       "ORDER BY due_at LIMIT ?", (batch,))
    rendered = []
    for row in rows:
        try:
            rendered.append((message_of(row), row["id"]))
        except Exception:  # dispatch reports it
            continue
    if rendered:
        with store.transaction() as conn:
            conn.executemany("UPDATE outbox SET message = ? WHERE id = ? AND message IS NULL", rendered)
    return len(rendered)


def status(store: SQLiteEventStore) -> dict[str, Any]:
    """Counts by status, and every failed or retrying mail with its last error."""
    counts = {r["status"]: r["n"] for r in store.query("SELECT status, count(*) AS n FROM outbox GROUP BY status")}
    trouble = store.query("SELECT id, game_id, to_addr, kind, subject, status, attempts, due_at, last_error "
                          "FROM outbox WHERE status = 'failed' OR (status = 'pending' AND attempts > 0) "
                          "ORDER BY created_at")
    return {"counts": counts, "trouble": trouble}


def retry_failed(store: SQLiteEventStore) -> int:
    """Put every failed mail back in the queue (after the operator fixed the cause)."""
    with store.transaction() as conn:
        cursor = conn.execute("UPDATE outbox SET status = 'pending', attempts = 0, due_at = ? "
                              "WHERE status = 'failed'", (_iso(_now()),))
        return cursor.rowcount
