"""Times as people read them: ISO stamps shown in UTC or in a reader's zone, and the zones this server knows.

A player's zone is the ``timezone`` column of the ``players`` table: an IANA name, or empty for the instance's
default (the ``timezone`` setting). Pages and mails a player reads show a time in their zone and in UTC;
spectator and proof pages, and the log, stay in UTC (the record).
"""

from __future__ import annotations

from datetime import datetime, timezone
from functools import lru_cache
from typing import Any, Mapping
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

import jinja2

from events.store import SQLiteEventStore

DEFAULT_ZONE = "UTC"
DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def moment_of(value: Any) -> datetime | None:
    """An ISO time as an aware datetime (a time without a zone is UTC); None if it is not one."""
    try:
        parsed = datetime.fromisoformat(str(value))
    except ValueError:
        return None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=timezone.utc)


def utc(moment: Any) -> str:
    """An ISO time as ``2025-03-01 18:00 UTC``, for people to read."""
    if not moment:
        return "none"
    parsed = moment_of(moment)
    if parsed is None:
        return str(moment)
    return parsed.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


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


def tzinfo_of(zone: str) -> ZoneInfo | None:
    """The zone's tzinfo, or None for UTC and for a name this server does not know."""
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
    not know, it is ``utc``'s ``2026-11-24 08:18 UTC``.
    """
    tz = tzinfo_of(zone or DEFAULT_ZONE)
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
    tz = tzinfo_of(zone or DEFAULT_ZONE)
    local = parsed.astimezone(tz or timezone.utc)
    return f"{DAYS[local.weekday()]} {local:%H:%M}" + ("" if tz else " UTC")


@jinja2.pass_context
def reader_time(context: jinja2.runtime.Context, moment: Any) -> str:
    """The ``utc`` filter of pages and mails: in the reader's zone (the context's ``tz``) and in UTC.

    A page or mail without ``tz`` (spectator and proof pages) shows UTC only.
    """
    zone = context.get("tz")
    return in_zone(moment, str(zone)) if zone else utc(moment)
