"""The delivery layer's tables (read models, mail, the tables of each capability): made once per process and
database. The events' own tables belong to the store."""

from __future__ import annotations

from pbem.organising import muster, organisers

from pbem.post import owed_mail, webhooks

from pbem.table import reliability, seatlife, undo_requests
from pbem.instance.database import Store
from pbem.post.mail.outbox import create_tables as create_mail_tables
from pbem.post.people import MAIL_COLUMNS

_READY: set[str] = set()


def create_tables(store: Store) -> None:
    """The service's read models and mail tables (the events' own tables belong to the store); once per process."""
    if store.name in _READY:
        return
    store.ensure_table("games", {"game_id": str, "game_type": str, "title": str, "status": str, "seats": int,
                                 "last_seq": int, "created_at": str, "updated_at": str, "paused_at": str,
                                 "organiser": str},
                       pk="game_id")
    store.ensure_table("seats", {"game_id": str, "seat": int, "email": str, "name": str, "mail": int},
                       pk=("game_id", "seat"), indexes=[("email",)])
    store.ensure_table("players", {"email": str, "player_id": str, "name": str, "timezone": str, **MAIL_COLUMNS},
                       pk="email", indexes=[("player_id",), ("digest_at",)])
    store.ensure_table("deadlines", {"game_id": str, "seat": int, "kind": str, "issued_at": str, "due_at": str,
                                     "reminders_sent": int, "issued_seq": int, "remind_at": str, "owed": int,
                                     "answered_at": str},
                       pk=("game_id", "seat"), indexes=[("due_at",), ("remind_at",), ("owed",)])
    store.ensure_table("reliability", reliability.COLUMNS, pk=("game_id", "seat"), indexes=[("email",)])
    store.ensure_table("notes", {"game_id": str, "commitment": str, "seat": int, "text": str, "key": str},
                       pk=("game_id", "commitment"))  # private notes' words: only their writers' pages read them
    store.ensure_table("standing_orders", {"game_id": str, "seat": int, "topic": str, "answer": str},
                       pk=("game_id", "seat", "topic"))
    store.ensure_table("seat_mail", {"game_id": str, "seat": int, "last_seq": int}, pk=("game_id", "seat"))
    store.ensure_table("inbound_messages", {"message_id": str, "sender": str, "received_at": str, "applied": int,
                                            "error": str}, pk="message_id")
    undo_requests.create_tables(store)
    muster.create_tables(store)
    organisers.create_tables(store)
    seatlife.create_tables(store)
    create_mail_tables(store)
    webhooks.create_tables(store)
    owed_mail.create_tables(store)
    _READY.add(store.name)
