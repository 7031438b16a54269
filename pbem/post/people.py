"""A player's own settings (their time zone, which mails they get), and times shown as a player reads them.

A player's zone is the ``timezone`` column of the ``players`` table: an IANA name, or empty
for the instance's default (the ``timezone`` setting). Pages and mails a player reads show a
time in their zone and in UTC; spectator and proof pages, and the log, stay in UTC (the record).

Which mails a player gets is the ``mail_mode`` column (``every`` decision, the default, or a
``daily`` digest) and ``receipts`` (1: a mail for every move, even one that ends their part).
A player on the digest has ``digest_at``, the next time their digest is due (indexed: the
scheduler asks for the due ones, it never scans every player).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from functools import lru_cache
from typing import Any, Mapping, Sequence
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

import jinja2

from events.store import SQLiteEventStore
from pbem.table.delivery import moment_of, utc

DEFAULT_ZONE = "UTC"
MAIL_MODES = ("every", "daily")
DIGEST_HOUR = 7  # a digest is due at 07:00 in the player's own zone
MAIL_COLUMNS: dict[str, type] = {"mail_mode": str, "receipts": int, "digest_at": str}
DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


class ZoneError(ValueError):
    """A time zone name this server does not know."""


@lru_cache(maxsize=1)
def zone_names() -> frozenset[str]:
    """Every IANA zone name this machine knows (``UTC`` always), read once: listing them walks the tz database."""
    return frozenset(available_timezones()) | {DEFAULT_ZONE}


@lru_cache(maxsize=1)
def _by_lower_case() -> dict[str, str]:
    return {name.lower(): name for name in zone_names()}


def check_zone(name: Any) -> str:
    """The zone's name as the tz database spells it (``europe/berlin`` is ``Europe/Berlin``), if this server knows it.

    :raises ZoneError: an unknown name, with what to write instead.
    """
    text = name.strip() if isinstance(name, str) else ""
    if text.lower() not in _by_lower_case():
        shown = repr(text[:60]) if text else "An empty name"
        raise ZoneError(f"{shown} is not a time zone this server knows. Use a name from the tz database "
                        f"such as Europe/Berlin, America/New_York or UTC")
    return _by_lower_case()[text.lower()]


def zone_of(store: SQLiteEventStore, email: str, default: str = DEFAULT_ZONE) -> str:
    """The zone a player reads times in: their own choice, else ``default``."""
    rows = store.query("SELECT timezone FROM players WHERE email = ?", (email,))
    return zone_in(rows[0] if rows else None, default)


def zone_in(row: Mapping[str, Any] | None, default: str = DEFAULT_ZONE) -> str:
    """The zone of a ``players`` row (one with its ``timezone``), else ``default``."""
    chosen = row["timezone"] if row else None
    return str(chosen) if chosen in zone_names() else default


def readers(store: SQLiteEventStore, emails: Sequence[str]) -> dict[str, dict[str, Any]]:
    """The mail settings and time zones of these players, by address, in one query (a move mails them all)."""
    if not emails:
        return {}
    marks = ", ".join("?" for _ in emails)
    rows = store.query(f"SELECT email, mail_mode, receipts, timezone FROM players WHERE email IN ({marks})",
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
    """Which mails a player gets: ``every`` decision or a ``daily`` digest; receipts for moves that end their part."""

    mode: str = "every"
    receipts: bool = False

    @classmethod
    def of(cls, row: Any) -> MailSettings:
        mode = row.get("mail_mode") if row else None
        return cls(str(mode) if mode in MAIL_MODES else "every", bool(row.get("receipts")) if row else False)


def mail_settings(store: SQLiteEventStore, email: str) -> MailSettings:
    """The mail settings of the player with this address (the defaults for one never seen)."""
    rows = store.query("SELECT mail_mode, receipts FROM players WHERE email = ?", (email,))
    return MailSettings.of(rows[0] if rows else None)


def mail_settings_of(store: SQLiteEventStore, player_id: str) -> MailSettings:
    rows = store.query("SELECT mail_mode, receipts FROM players WHERE player_id = ?", (player_id,))
    return MailSettings.of(rows[0] if rows else None)


def next_digest(zone: str | None, after: datetime) -> datetime:
    """The first ``DIGEST_HOUR`` o'clock in ``zone`` strictly after ``after``, in UTC."""
    tz = _tzinfo(zone or DEFAULT_ZONE) or timezone.utc
    local = after.astimezone(tz)
    due = local.replace(hour=DIGEST_HOUR, minute=0, second=0, microsecond=0)
    while due <= local:
        due = (due + timedelta(days=1)).replace(hour=DIGEST_HOUR)  # a day later, at the hour even across DST
    return due.astimezone(timezone.utc)


def set_mail(store: SQLiteEventStore, player_id: str, mode: Any, receipts: Any,
             now: datetime | None = None) -> MailSettings:
    """Record which mails the player with this id gets; a digest gets its first ``digest_at``.

    :raises MailSettingError: an unknown mode or receipts value; nothing is changed.
    :raises LookupError: no player has this id.
    """
    if mode not in MAIL_MODES:
        shown = repr(str(mode)[:40]) if mode else "An empty choice"
        raise MailSettingError(f"{shown} is not a mail setting; choose {' or '.join(MAIL_MODES)}")
    if receipts not in ("on", "off", True, False):
        raise MailSettingError("receipts are on or off")
    chosen = MailSettings(str(mode), receipts in ("on", True))
    now = now or datetime.now(timezone.utc)
    with store.transaction() as conn:
        rows = conn.execute("SELECT timezone FROM players WHERE player_id = ?", (player_id,)).fetchall()
        if not rows:
            raise LookupError(f"no player {player_id!r} on this server")
        due = next_digest(rows[0][0], now).isoformat(timespec="seconds") if chosen.mode == "daily" else None
        conn.execute("UPDATE players SET mail_mode = ?, receipts = ?, digest_at = ? WHERE player_id = ?",
                     (chosen.mode, int(chosen.receipts), due, player_id))
    return chosen


def digests_due(store: SQLiteEventStore, now: datetime) -> list[dict[str, Any]]:
    """The players whose digest is due (an indexed ``digest_at`` query), oldest first."""
    return store.query("SELECT email, player_id, name, timezone, digest_at FROM players "
                       "WHERE digest_at <= ? ORDER BY digest_at", (now.isoformat(timespec="seconds"),))


def _tzinfo(zone: str) -> ZoneInfo | None:
    if zone == DEFAULT_ZONE or zone not in zone_names():
        return None
    try:
        return ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def _day(moment: datetime, year: bool = True) -> str:
    text = f"{DAYS[moment.weekday()]} {moment.day} {MONTHS[moment.month - 1]}"
    return f"{text} {moment.year}" if year else text


def in_zone(moment: Any, zone: str | None) -> str:
    """An ISO time in ``zone`` with the zone named, then in UTC: ``Tue 24 Nov 2026, 09:18 (Europe/Berlin) — 08:18 UTC``.

    The UTC part has its own day when that differs. In UTC, or in a zone this server does
    not know, it is ``delivery.utc``'s ``2026-11-24 08:18 UTC``.
    """
    tz = _tzinfo(zone or DEFAULT_ZONE)
    if tz is None or not moment:
        return utc(moment)
    parsed = moment_of(moment)
    if parsed is None:
        return str(moment)
    local, universal = parsed.astimezone(tz), parsed.astimezone(timezone.utc)
    same_day = local.date() == universal.date()
    return (f"{_day(local)}, {local:%H:%M} ({zone}) — "
            f"{'' if same_day else _day(universal, year=False) + ', '}{universal:%H:%M} UTC")


def short_time(moment: Any, zone: str | None) -> str:
    """A time in a few characters, in the reader's zone: ``Tue 18:00`` (``Tue 18:00 UTC`` in UTC), for subjects."""
    try:
        parsed = datetime.fromisoformat(str(moment))
    except ValueError:
        return str(moment)
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=timezone.utc)
    tz = _tzinfo(zone or DEFAULT_ZONE)
    local = parsed.astimezone(tz or timezone.utc)
    return f"{DAYS[local.weekday()]} {local:%H:%M}" + ("" if tz else " UTC")


@jinja2.pass_context
def reader_time(context: jinja2.runtime.Context, moment: Any) -> str:
    """The ``utc`` filter of pages and mails: in the reader's zone (the context's ``tz``) and in UTC.

    A page or mail without ``tz`` (spectator and proof pages) shows UTC only.
    """
    zone = context.get("tz")
    return in_zone(moment, str(zone)) if zone else utc(moment)
