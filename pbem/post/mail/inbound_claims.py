"""One reader per arriving message: a claim by Message-ID, and what a reader that died had applied already.

Every route a message arrives by (a pipe, a Maildir, IMAP read by the worker or by ``pbem inbound --imap``) may
meet the same message twice: two readers at once, or a reader killed after applying and before marking the
message read. The first reader claims the message's Message-ID (a row of ``inbound_claims``) before it applies
anything, and gives the claim up in the transaction that records the message as read (``inbound_messages``). A
second reader finds the record (a duplicate: nothing to do), or a live claim (busy: it leaves the message to the
first), or a claim whose lease ran out: its reader died, and the new reader reads from the game's log which of
the message's lines were applied (each event's cause names the message and the line) and goes on after them.
"""

from __future__ import annotations

import os
import socket
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from enum import Enum
from typing import Any

from events.store import SQLiteEventStore

TABLE = "inbound_claims"
CLAIM_SECONDS = 300.0  # applying one message takes well under a second; a reader this late has died


class Claim(Enum):
    FRESH = "fresh"  # nobody read it before: apply it
    TAKEN_OVER = "taken over"  # a reader died holding it: apply what it had not
    BUSY = "busy"  # another reader holds it now: leave it to that reader
    DONE = "done"  # read and recorded before: a duplicate


@dataclass(frozen=True)
class Earlier:
    """What the log says a message did: how many of its lines were applied, and the seq of its last event."""

    lines: int
    last_seq: int


def create_tables(store: SQLiteEventStore) -> None:
    store.ensure_table(TABLE, {"message_id": str, "owner": str, "until": str}, pk="message_id")


def owner() -> str:
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def _iso(at: datetime) -> str:
    return at.astimezone(timezone.utc).isoformat(timespec="microseconds")


def claim(store: Any, message_id: str, holder: str, *, seconds: float = CLAIM_SECONDS,
          now: datetime | None = None) -> Claim:
    """Claim a message for ``holder``.

    The claim is taken first and the record looked at after: a reader records a message and gives its claim up
    in one transaction, so whoever takes a claim that was just given up sees the record (on PostgreSQL too, where
    each statement sees what committed before it began).
    """
    at = now or datetime.now(timezone.utc)
    until = _iso(at + timedelta(seconds=seconds))
    with store.transaction() as conn:
        conn.execute(f"INSERT INTO {TABLE} (message_id, owner, until) VALUES (?, ?, ?) "
                     f"ON CONFLICT (message_id) DO NOTHING", (message_id, holder, until))
        took = conn.execute(f"SELECT owner FROM {TABLE} WHERE message_id = ?", (message_id,)).fetchall()
        if took and took[0][0] == holder:
            found = Claim.FRESH
        elif conn.execute(f"UPDATE {TABLE} SET owner = ?, until = ? WHERE message_id = ? AND until < ?",
                          (holder, until, message_id, _iso(at))).rowcount == 1:
            found = Claim.TAKEN_OVER
        else:
            found = Claim.BUSY
        if conn.execute("SELECT 1 FROM inbound_messages WHERE message_id = ?", (message_id,)).fetchall():
            if found is not Claim.BUSY:
                release(conn, message_id)
            return Claim.DONE
        return found


def release(conn: Any, message_id: str) -> None:
    """Give the claim up (in the transaction that records the message as read)."""
    conn.execute(f"DELETE FROM {TABLE} WHERE message_id = ?", (message_id,))


def earlier(store: Any, game_id: str, after_seq: int, message_id: str) -> Earlier:
    """What the game's log holds of this message (each event's cause names its message and its line)."""
    lines = last = 0
    for event in store.read(game_id, after_seq=after_seq):
        cause = event.cause or {}
        if cause.get("message_id") == message_id:
            lines = max(lines, int(cause.get("line") or 0))
            last = event.seq
    return Earlier(lines, last)
