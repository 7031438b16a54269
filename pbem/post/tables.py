"""The post's tables: players' settings, what each seat was told, the mails a command owes or holds, where each
turn began, the talk mails held and told, the outbox, webhooks, the replies read, what each table was told of its players' mail, and the changes
of address asked for."""

from __future__ import annotations

from events.store import SQLiteEventStore
from pbem.post import held, new_address, owed_mail, story, talk_mail, undelivered, webhooks
from pbem.post.mail.outbox import create_tables as create_outbox
from pbem.post.people import MAIL_COLUMNS


def create_tables(store: SQLiteEventStore) -> None:
    store.ensure_table("players", {"email": str, "player_id": str, "name": str, "timezone": str, **MAIL_COLUMNS},
                       pk="email", indexes=[("player_id",), ("digest_at",)])
    store.ensure_table("seat_mail", {"game_id": str, "seat": int, "last_seq": int}, pk=("game_id", "seat"))
    store.ensure_table("inbound_messages", {"message_id": str, "sender": str, "received_at": str, "applied": int,
                                            "error": str}, pk="message_id")
    create_outbox(store)
    webhooks.create_tables(store)
    owed_mail.create_tables(store)
    undelivered.create_tables(store)
    new_address.create_tables(store)
    held.create_tables(store)
    story.create_tables(store)
    talk_mail.create_tables(store)
