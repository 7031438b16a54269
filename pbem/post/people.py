"""A player's own settings: their time zone (``pbem.instance.times`` shows times in it), and which mails they get.

Which mails a player gets is the ``mail_mode`` column (``every`` decision, the default, or a
``daily`` digest), ``receipts`` (1: a mail for every move, even one that ends their part) and
``talk_mail`` (when table talk reaches them: ``soon``, one mail a few minutes after a burst of
messages; ``turn``, the default, in their next turn mail; ``digest``, in their daily digest;
``pbem.post.talk_mail``). A player with a digest (of their decisions or of talk) has ``digest_at``,
the next time their digest is due (indexed: the scheduler asks for the due ones, it never scans
every player).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any, Sequence

from events.store import SQLiteEventStore
from pbem.instance.times import DEFAULT_ZONE, check_zone, tzinfo_of, zone_names

MAIL_MODES = ("every", "daily")
TALK_MODES = ("soon", "turn", "digest")  # table talk: a mail soon after, in the next turn mail, in the digest
DIGEST_HOUR = 7  # a digest is due at 07:00 in the player's own zone
MAIL_COLUMNS: dict[str, type] = {"mail_mode": str, "receipts": int, "digest_at": str, "talk_mail": str}
SETTING_COLUMNS = "mail_mode, receipts, talk_mail"



def readers(store: SQLiteEventStore, emails: Sequence[str]) -> dict[str, dict[str, Any]]:
    """The mail settings and time zones of these players, by address, in one query (a move mails them all)."""
    if not emails:
        return {}
    marks = ", ".join("?" for _ in emails)
    rows = store.query(f"SELECT email, {SETTING_COLUMNS}, timezone FROM players WHERE email IN ({marks})",
                       tuple(emails))
    return {str(r["email"]): r for r in rows}


def chosen_zone(store: SQLiteEventStore, player_id: str) -> str | None:
    """The zone the player with this id chose, or None (never chosen, or no such player)."""
    rows = store.query("SELECT timezone FROM players WHERE player_id = ?", (player_id,))
    chosen = rows[0]["timezone"] if rows else None
    return str(chosen) if chosen in zone_names() else None


def set_zone(store: SQLiteEventStore, player_id: str, name: Any) -> str:
    """Record the zone of the player with this id; returns the name recorded.

    :raises ZoneError: an unknown zone; nothing is changed.
    :raises LookupError: no player has this id.
    """
    zone = check_zone(name)
    with store.transaction() as conn:
        changed = conn.execute("UPDATE players SET timezone = ? WHERE player_id = ?", (zone, player_id)).rowcount
        due = next_digest(zone, datetime.now(timezone.utc)).isoformat(timespec="seconds")
        conn.execute("UPDATE players SET digest_at = ? WHERE player_id = ? AND digest_at IS NOT NULL",
                     (due, player_id))  # the digest comes at its hour in the new zone
    if not changed:
        raise LookupError(f"no player {player_id!r} on this server")
    return zone


class MailSettingError(ValueError):
    """A mail setting this server does not offer."""


@dataclass(frozen=True)
class MailSettings:
    """Which mails a player gets: ``every`` decision or a ``daily`` digest; receipts for moves that end their part;
    when table talk reaches them (``TALK_MODES``)."""

    mode: str = "every"
    receipts: bool = False
    talk: str = "turn"

    @classmethod
    def of(cls, row: Any) -> MailSettings:
        mode = row.get("mail_mode") if row else None
        talk = row.get("talk_mail") if row else None
        return cls(str(mode) if mode in MAIL_MODES else "every", bool(row.get("receipts")) if row else False,
                   str(talk) if talk in TALK_MODES else "turn")

    @property
    def digest(self) -> bool:
        """Whether a daily digest comes: of the decisions waiting, of table talk, or of both."""
        return self.mode == "daily" or self.talk == "digest"

    def words(self) -> str:
        """The settings in plain words."""
        mails = "one digest a day of the games waiting for you" if self.mode == "daily" else \
            "a mail for every decision"
        talk = {"soon": "a mail a few minutes after someone writes", "turn": "with your next turn mail",
                "digest": "in your daily digest"}[self.talk]
        return f"{mails}, receipts {'on' if self.receipts else 'off'}, table talk {talk}"


def mail_settings(store: SQLiteEventStore, email: str) -> MailSettings:
    """The mail settings of the player with this address (the defaults for one never seen)."""
    rows = store.query(f"SELECT {SETTING_COLUMNS} FROM players WHERE email = ?", (email,))
    return MailSettings.of(rows[0] if rows else None)


def mail_settings_of(store: SQLiteEventStore, player_id: str) -> MailSettings:
    rows = store.query(f"SELECT {SETTING_COLUMNS} FROM players WHERE player_id = ?", (player_id,))
    return MailSettings.of(rows[0] if rows else None)


def next_digest(zone: str | None, after: datetime) -> datetime:
    """The first ``DIGEST_HOUR`` o'clock in ``zone`` strictly after ``after``, in UTC."""
    tz = tzinfo_of(zone or DEFAULT_ZONE) or timezone.utc
    local = after.astimezone(tz)
    due = local.replace(hour=DIGEST_HOUR, minute=0, second=0, microsecond=0)
    while due <= local:
        due = (due + timedelta(days=1)).replace(hour=DIGEST_HOUR)  # a day later, at the hour even across DST
    return due.astimezone(timezone.utc)


def set_mail(store: SQLiteEventStore, player_id: str, mode: Any, receipts: Any, talk: Any = None,
             now: datetime | None = None) -> MailSettings:
    """Record which mails the player with this id gets (``talk`` None: table talk as it was); a digest gets its
    next ``digest_at``.

    :raises MailSettingError: an unknown mode, receipts or talk value; nothing is changed.
    :raises LookupError: no player has this id.
    """
    if mode not in MAIL_MODES:
        shown = repr(str(mode)[:40]) if mode else "An empty choice"
        raise MailSettingError(f"{shown} is not a mail setting; choose {' or '.join(MAIL_MODES)}")
    if receipts not in ("on", "off", True, False):
        raise MailSettingError("receipts are on or off")
    if talk is not None and talk not in TALK_MODES:
        raise MailSettingError(f"table talk comes {', '.join(TALK_MODES[:-1])} or {TALK_MODES[-1]}: "
                               "soon (a mail a few minutes after), with your turn mail, or in your digest")
    now = now or datetime.now(timezone.utc)
    with store.transaction() as conn:
        rows = conn.execute("SELECT timezone, talk_mail FROM players WHERE player_id = ?", (player_id,)).fetchall()
        if not rows:
            raise LookupError(f"no player {player_id!r} on this server")
        zone, was_talk = rows[0]
        chosen = MailSettings(str(mode), receipts in ("on", True),
                              str(talk) if talk is not None else MailSettings.of({"talk_mail": was_talk}).talk)
        due = next_digest(zone, now).isoformat(timespec="seconds") if chosen.digest else None
        conn.execute("UPDATE players SET mail_mode = ?, receipts = ?, talk_mail = ?, digest_at = ? "
                     "WHERE player_id = ?", (chosen.mode, int(chosen.receipts), chosen.talk, due, player_id))
    return chosen


def digests_due(store: SQLiteEventStore, now: datetime) -> list[dict[str, Any]]:
    """The players whose digest is due (an indexed ``digest_at`` query), oldest first."""
    return store.query("SELECT email, player_id, name, timezone, digest_at FROM players "
                       "WHERE digest_at <= ? ORDER BY digest_at", (now.isoformat(timespec="seconds"),))





_GAMES_OF = ("FROM players p JOIN seats s ON s.email = p.email JOIN games g ON g.game_id = s.game_id "
             "LEFT JOIN deadlines d ON d.game_id = s.game_id AND d.seat = s.seat WHERE p.player_id = ?")


def games_of(store: SQLiteEventStore, pid: str, limit: int = -1, offset: int = 0) -> list[dict[str, Any]]:
    """The games of the player with this id: those waiting for them first (soonest deadline first), then the
    others, newest activity first; ``limit`` of them from ``offset`` (a page), or all."""
    return store.query(
        "SELECT g.game_id, g.title, g.status, g.last_seq, g.updated_at, s.seat, s.name, s.email, d.due_at, d.kind "
        f"{_GAMES_OF} ORDER BY d.due_at IS NULL, d.due_at, g.updated_at DESC, g.game_id"
        + (" LIMIT ? OFFSET ?" if limit >= 0 else " LIMIT 1000000000 OFFSET ?"),  # no LIMIT -1 on PostgreSQL
        (pid, limit, offset) if limit >= 0 else (pid, offset))


def count_games_of(store: SQLiteEventStore, pid: str) -> tuple[int, int]:
    """How many games the player has, and in how many a decision waits for them."""
    row = store.query(f"SELECT count(*) AS n, count(d.due_at) AS waiting {_GAMES_OF}", (pid,))[0]
    return int(row["n"]), int(row["waiting"] or 0)
