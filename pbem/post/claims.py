"""Claims on due rows (outbox, later webhooks): each row is worked on by one sender at a time.

A queue table has ``id``, ``status``, ``due_at`` and two claim columns: ``claimed_by`` (the owner
that claimed the row, unique per sender run, see ``new_owner``) and ``claim_until`` (when the
claim lapses). A sender claims due rows atomically, works on them, and its final update of each
row checks it still holds the claim (``CLAIMED``). A sender that dies leaves its claim behind; once
``claim_until`` has passed the row is due for the next sender again: the at-least-once window.
"""

from __future__ import annotations

import os
import re
import socket
import sqlite3
import uuid
from datetime import datetime, timedelta, timezone
from typing import Any, Collection, Mapping

from events.store import SQLiteEventStore, lock_clause

CLAIM_COLUMNS: Mapping[str, Any] = {"claimed_by": str, "claim_until": str}

# Add to the final update of a claimed row, with the owner as parameter: it changes nothing if the
# claim was lost (its lease ran out and another sender claimed the row).
CLAIMED = "claimed_by = ?"

_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def new_owner() -> str:
    """An owner id unique to this sender run: the host and process (for the operator), and a random part."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def iso(moment: datetime) -> str:
    return moment.isoformat(timespec="microseconds")


def claim_due(store: SQLiteEventStore, table: str, owner: str, *, lease_seconds: float, limit: int,
              now: datetime | None = None, ready: str = "status = 'pending'") -> list[dict[str, Any]]:
    """Claim up to ``limit`` rows of ``table`` that are ``ready`` and due, oldest due first; returns them.

    A row is claimable when nobody holds it: never claimed, released, or its claim has lapsed. The
    rows are marked ``claimed_by = owner`` and ``claim_until = now + lease_seconds`` in one
    ``BEGIN IMMEDIATE`` transaction, so two senders never claim the same row. On PostgreSQL the
    select of the due rows ends with ``FOR UPDATE SKIP LOCKED``: rows another sender is claiming
    are passed over, not waited for, and the update re-checks each row it locked.

    ``ready`` is an SQL condition written in the code, never from input.
    """
    with store.transaction() as conn:
        return claim_in(conn, table, owner, lease_seconds=lease_seconds, limit=limit, now=now, ready=ready)


def claim_in(conn: sqlite3.Connection, table: str, owner: str, *, lease_seconds: float, limit: int,
             now: datetime | None = None, ready: str = "status = 'pending'") -> list[dict[str, Any]]:
    """``claim_due`` inside a write transaction already open on ``conn`` (e.g. the one recording the last row)."""
    if not _NAME.match(table):
        raise ValueError(f"not a table name: {table!r}")
    moment = now or datetime.now(timezone.utc)
    # one statement: the due rows chosen (oldest first, by the (status, due_at, created_at) index), marked, returned
    cursor = conn.execute(
        f'UPDATE "{table}" SET claimed_by = ?, claim_until = ? WHERE id IN ('
        f'SELECT id FROM "{table}" WHERE ({ready}) AND due_at <= ? '
        "AND (claimed_by IS NULL OR claim_until IS NULL OR claim_until <= ?) "
        f"ORDER BY due_at, created_at LIMIT ?{lock_clause(conn)}) RETURNING *",
        (owner, iso(moment + timedelta(seconds=lease_seconds)), iso(moment), iso(moment), limit))
    names = [d[0] for d in cursor.description]
    rows = [dict(zip(names, r)) for r in cursor.fetchall()]
    rows.sort(key=lambda r: (str(r["due_at"]), str(r["created_at"])))  # RETURNING gives no order
    return rows


def release(store: SQLiteEventStore, table: str, owner: str, ids: Collection[str]) -> int:
    """Give back rows this owner claimed but will not work on; returns how many it still held."""
    if not _NAME.match(table):
        raise ValueError(f"not a table name: {table!r}")
    if not ids:
        return 0
    marks = ", ".join("?" for _ in ids)
    with store.transaction() as conn:
        cursor = conn.execute(f'UPDATE "{table}" SET claimed_by = NULL, claim_until = NULL '
                              f"WHERE claimed_by = ? AND id IN ({marks})", (owner, *ids))
        return cursor.rowcount
