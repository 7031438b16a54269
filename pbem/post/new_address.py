"""A player's new address: asked for on their home page, made only when they open the link mailed to it and confirm.

The wish is an ``address_changes`` row and a mail to the new address with a signed link (purpose ``address``, its
subject the row's id: an address may not travel in a token), both in one transaction. Confirming moves every seat
the old address held to the new one (the seats' holder stays the same: their links work on), and the player's
settings, reliability record and webhooks with them; it clears any mark of the new address
(``pbem.post.mail.bounces``), and the tables that were told that the player's mail is not arriving are told that it
arrives again (``pbem.post.undelivered.tell``). The same address may be confirmed again once it works: that clears
its mark. The mail never names the old address: whoever holds the new one reads only that a player of this server
asked for it.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any

from events.store import Row, write_row
from pbem.errors import ServiceError
from pbem.instance.addresses import AddressError, check_address
from pbem.instance.players import player_id
from pbem.post.mail import bounces
from pbem.post.mail.outbox import mail_rows
from pbem.post.mail.render import address as header_address, new_message_id
from pbem.post.undelivered import TOLD, Teller, tell

CHANGES = "address_changes"
PURPOSE = "address"
CONFIRM_DAYS = 3  # how long the mailed link works
ASKED_PER_DAY = 3  # changes a player may ask for in a day: each mails a stranger's address, if mistyped


def create_tables(store: Any) -> None:
    store.ensure_table(CHANGES, {"id": str, "player_id": str, "old_email": str, "new_email": str,
                                 "requested_at": str, "done_at": str}, pk="id", indexes=[("player_id",)])


@dataclass(frozen=True)
class Change:
    """One change asked for: from the address the seats had to the new one; ``done_at`` once confirmed."""

    id: str
    player_id: str
    old_email: str
    new_email: str
    requested_at: str
    done_at: str | None

    @classmethod
    def of(cls, row: Any) -> Change:
        return cls(str(row["id"]), str(row["player_id"]), str(row["old_email"]), str(row["new_email"]),
                   str(row["requested_at"]), row["done_at"])


def _stamp(now: datetime) -> str:
    return now.isoformat(timespec="seconds")


def address_of(store: Any, pid: str) -> tuple[str, str]:
    """The address and name of the player with this id.

    :raises LookupError: no such player.
    """
    rows = store.query("SELECT email, name FROM players WHERE player_id = ?", (pid,))
    if not rows:
        raise LookupError(f"no player {pid!r} on this server")
    return str(rows[0]["email"]), str(rows[0]["name"])


def _clash(store: Any, old: str, new: str) -> str | None:
    """A game both addresses play in (a seat each), if any: the two seats cannot become one player's."""
    rows = store.query("SELECT a.game_id FROM seats a JOIN seats b ON b.game_id = a.game_id AND b.seat <> a.seat "
                       "WHERE a.email = ? AND b.email = ? ORDER BY a.game_id", (old, new))
    return str(rows[0]["game_id"]) if rows else None


def ask(host: Teller, pid: str, text: Any, *, now: datetime | None = None) -> Change:
    """Record the player's wish for ``text`` as their address and mail the link that makes it to that address.

    :raises ServiceError: a bad address, the address they have (while its mail arrives), an address that plays in
        one of their games, too many changes asked for today, or a server that cannot mail links.
    :raises LookupError: no such player.
    """
    notifier = host.notifier
    if notifier is None:
        raise ServiceError("this server has no secret key, so it cannot mail the link that makes the change")
    old, name = address_of(host.store, pid)
    try:
        new = check_address(str(text or ""))
    except AddressError as err:
        raise ServiceError(str(err)) from None
    mark = bounces.status_of(host.store, old)
    if new == old and (mark is None or mark.status is bounces.Status.OK):
        raise ServiceError(f"{new} is your address already")
    clash = _clash(host.store, old, new)
    if clash:
        raise ServiceError(f"{new} plays another seat of game {clash}: one address plays one seat of a game")
    now = now or datetime.now(timezone.utc)
    asked = host.store.query(f"SELECT count(*) AS n FROM {CHANGES} WHERE player_id = ? AND requested_at > ?",
                             (pid, _stamp(now - timedelta(days=1))))[0]["n"]
    if int(asked) >= ASKED_PER_DAY:
        raise ServiceError(f"you asked for {ASKED_PER_DAY} changes of address today already; open a link mailed "
                           "to you, or try again tomorrow")
    change = Change(secrets.token_hex(16), pid, old, new, _stamp(now), None)
    url = f"{notifier.base_url}/address/{notifier.links.make(PURPOSE, change.id)}"
    stamp = now.isoformat(timespec="microseconds")
    subject = "[pbem] Confirm the address for your games"
    context = {"player": name, "new_email": new, "confirm_url": url, "days": CONFIRM_DAYS, "again": new == old}
    message_id = new_message_id(notifier.sender)
    draft = {"template": "address_confirm", "context": context, "sender": notifier.sender, "subject": subject,
             "to": header_address(name, new), "message_id": message_id, "thread_root": message_id,
             "reply_to": None, "date": stamp, "unsubscribe_url": None}
    with host.store.transaction() as conn:
        write_row(conn, Row(CHANGES, {"id": change.id, "player_id": pid, "old_email": old, "new_email": new,
                                      "requested_at": change.requested_at, "done_at": None}))
        for row in mail_rows(game_id=None, seat=None, to_addr=new, kind="address_confirm", subject=subject,
                             message_id=message_id, draft=draft, now=stamp):
            write_row(conn, row)
    return change


def find(store: Any, change_id: str) -> Change | None:
    rows = store.query(f"SELECT * FROM {CHANGES} WHERE id = ?", (change_id,))
    return Change.of(rows[0]) if rows else None


def waiting(store: Any, pid: str, now: datetime | None = None) -> list[Change]:
    """The player's changes asked for and not yet confirmed, whose link still works; the newest first."""
    since = _stamp((now or datetime.now(timezone.utc)) - timedelta(days=CONFIRM_DAYS))
    rows = store.query(f"SELECT * FROM {CHANGES} WHERE player_id = ? AND done_at IS NULL AND requested_at > ? "
                       "ORDER BY requested_at DESC", (pid, since))
    return [Change.of(r) for r in rows]


class AlreadyDone(ServiceError):
    """The change was confirmed before: nothing more to do."""


def confirm(host: Teller, change_id: str, *, now: datetime | None = None) -> Change:
    """Make the change: every seat of the old address moves to the new one, in one transaction; then the tables
    told that the player's mail was not arriving are told that it arrives again.

    :raises AlreadyDone: confirmed before. :raises ServiceError: no such change, or it no longer applies (the old
        address plays nothing now, or the new one took a seat in one of the same games meanwhile).
    """
    change = find(host.store, change_id)
    if change is None:
        raise ServiceError("this change of address is not known here")
    if change.done_at:
        raise AlreadyDone(f"this change was made on {change.done_at[:10]}: your games' mail goes to "
                          f"{change.new_email}")
    old, new = change.old_email, change.new_email
    stamp = _stamp(now or datetime.now(timezone.utc))
    with host.store.transaction() as conn:
        # one confirmation wins: a second click (or a second process) finds the change done and writes nothing
        if conn.execute(f"UPDATE {CHANGES} SET done_at = ? WHERE id = ? AND done_at IS NULL",
                        (stamp, change.id)).rowcount != 1:
            raise AlreadyDone(f"this change was made already: your games' mail goes to {new}")
        seats = conn.execute("SELECT game_id, seat FROM seats WHERE email = ?", (old,)).fetchall()
        if not seats:
            raise ServiceError("the address this change was asked from plays in no game any more, so there is "
                               "nothing to change; nothing was changed")
        if old != new:
            if conn.execute("SELECT 1 FROM seats a JOIN seats b ON b.game_id = a.game_id "
                            "WHERE a.email = ? AND b.email = ?", (old, new)).fetchall():
                raise ServiceError(f"{new} took a seat in one of your games meanwhile: one address plays one "
                                   "seat of a game; nothing was changed")
            _move(conn, old, new)
        conn.execute(f"DELETE FROM {bounces.TABLE} WHERE address = ?", (new,))  # the link reached it: it works
        for game_id, seat in seats:
            conn.execute(f"UPDATE {TOLD} SET cleared_by = 'player' WHERE game_id = ? AND seat = ?", (game_id, seat))
    tell(host)
    return Change(change.id, change.player_id, old, new, change.requested_at, stamp)


def _move(conn: Any, old: str, new: str) -> None:
    """Every seat, the settings, the deadlines' record and the webhooks of ``old`` to ``new``."""
    conn.execute("UPDATE seats SET email = ? WHERE email = ?", (new, old))
    conn.execute("UPDATE reliability SET email = ? WHERE email = ?", (new, old))
    conn.execute("UPDATE webhooks SET owner = ? WHERE owner_kind = 'player' AND owner = ?", (new, old))
    kept = conn.execute("SELECT name, timezone, mail_mode, receipts, digest_at, talk_mail FROM players "
                        "WHERE email = ?", (old,)).fetchall()
    if kept and not conn.execute("SELECT 1 FROM players WHERE email = ?", (new,)).fetchall():
        name, zone, mode, receipts, digest_at, talk_mail = kept[0]
        conn.execute("INSERT INTO players (email, player_id, name, timezone, mail_mode, receipts, digest_at, "
                     "talk_mail) VALUES (?,?,?,?,?,?,?,?)",
                     (new, player_id(new), name, zone, mode, receipts, digest_at, talk_mail))
    conn.execute("DELETE FROM players WHERE email = ?", (old,))  # it plays nothing now: no digest, no home page
