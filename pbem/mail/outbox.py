"""The outbox: every mail is a row written in the transaction of the command that caused it."""

from __future__ import annotations

import json
import uuid
from typing import Any, Mapping

from events.store import Row, SQLiteEventStore

OUTBOX = "outbox"


def create_tables(store: SQLiteEventStore) -> None:
    store.ensure_table(OUTBOX, {
        "id": str, "game_id": str, "seat": int, "to_addr": str, "kind": str, "subject": str,
        "message_id": str, "draft": str, "message": str, "status": str, "attempts": int, "due_at": str,
        "created_at": str, "sent_at": str, "last_error": str,
    }, pk="id", indexes=[("status", "due_at"), ("game_id",)])
    store.ensure_table("mail_attempts", {"outbox_id": str, "attempt": int, "at": str, "ok": int, "error": str},
                       pk=("outbox_id", "attempt"))


def mail_row(*, game_id: str, seat: int | None, to_addr: str, kind: str, subject: str, message_id: str,
             draft: Mapping[str, Any], now: str) -> Row:
    """A pending mail: its draft is rendered into the message when it is sent (``message_of``)."""
    values: dict[str, Any] = {
        "id": uuid.uuid4().hex, "game_id": game_id, "seat": seat, "to_addr": to_addr, "kind": kind,
        "subject": subject, "message_id": message_id, "draft": json.dumps(draft, sort_keys=True),
        "message": None, "status": "pending",
        "attempts": 0, "due_at": now, "created_at": now, "sent_at": None, "last_error": None,
    }
    return Row(OUTBOX, values)


def message_of(row: Mapping[str, Any]) -> str:
    """The mail as sent (or as it will be): the stored message, else its draft rendered now."""
    if row.get("message"):
        return str(row["message"])
    from pbem.mail.render import build
    return build(json.loads(row["draft"]))
