"""The outbox: every mail (and webhook post) is a row written in the transaction of the command that caused it."""

from __future__ import annotations

import json
import uuid
import zlib
from typing import Any, Mapping

from events.store import Row, SQLiteEventStore
from pbem.post.claims import CLAIM_COLUMNS

OUTBOX = "outbox"


def create_tables(store: SQLiteEventStore) -> None:
    store.ensure_table(OUTBOX, {
        "id": str, "game_id": str, "seat": int, "to_addr": str, "kind": str, "subject": str,
        "message_id": str, "draft": bytes, "message": str, "status": str, "attempts": int, "due_at": str,
        "created_at": str, "sent_at": str, "last_error": str, **CLAIM_COLUMNS,
        "channel": str,  # mail (or NULL: rows written before webhooks), or webhook (``pbem.post.webhooks``)
    }, pk="id", indexes=[("status", "due_at", "created_at"), ("game_id",), ("status", "sent_at"),
                       ("to_addr", "status")])  # a webhook's posts (``webhook:ID``) waiting and failed
    # sender: the claim's owner that made the attempt (host:pid:run), to tell senders apart
    store.ensure_table("mail_attempts", {"outbox_id": str, "attempt": int, "at": str, "ok": int, "error": str,
                                         "sender": str}, pk=("outbox_id", "attempt"))
    from pbem.post.mail import bounces, inbound_claims  # the mail that comes in: one reader per message; bounces
    inbound_claims.create_tables(store)
    bounces.create_tables(store)


UNMAILABLE = ".invalid"  # the reserved top-level domain (RFC 2606): a computer player's seat (``pbem.table.botseats``)


def takes_mail(to_addr: str) -> bool:
    """Whether mail may be queued to this address: not to one on the reserved ``.invalid`` domain."""
    return not to_addr.strip().lower().rstrip(">").endswith(UNMAILABLE)


def mail_rows(*, game_id: str | None, seat: int | None, to_addr: str, kind: str, subject: str, message_id: str,
              draft: Mapping[str, Any], now: str) -> list[Row]:
    """A pending mail (its draft is rendered into the message when it is sent: ``message_of``), or none to an address
    that takes no mail (``takes_mail``).

    Every mail of the service is queued here: this is the one place that keeps mail from a computer player's seat.
    """
    if not takes_mail(to_addr):
        return []
    values: dict[str, Any] = {
        "id": uuid.uuid4().hex, "channel": "mail", "game_id": game_id, "seat": seat, "to_addr": to_addr, "kind": kind,
        "subject": subject, "message_id": message_id, "draft": pack(draft),
        "message": None, "status": "pending",
        "attempts": 0, "due_at": now, "created_at": now, "sent_at": None, "last_error": None,
        "claimed_by": None, "claim_until": None,
    }
    return [Row(OUTBOX, values)]


def pack(draft: Mapping[str, Any]) -> bytes:
    """A draft as the outbox keeps it: its JSON, deflated (a mail's draft holds the reader's view: ~10 KB of JSON
    that deflates to a fifth)."""
    return zlib.compress(json.dumps(draft, sort_keys=True).encode("utf-8"), 3)  # with the move: quick, small


def draft_of(row: Mapping[str, Any]) -> dict[str, Any]:
    """The draft of an outbox row: deflated JSON, or the plain JSON text rows written before were kept as."""
    raw = row["draft"]
    if isinstance(raw, (bytes, bytearray, memoryview)):
        raw = zlib.decompress(bytes(raw)).decode("utf-8")
    draft: dict[str, Any] = json.loads(raw)
    return draft


def message_of(row: Mapping[str, Any]) -> str:
    """The mail as it is sent: its draft rendered now (a row of an older version may hold its rendered message)."""
    if row.get("message"):
        return str(row["message"])
    from pbem.post.mail.render import build
    return build(draft_of(row))
