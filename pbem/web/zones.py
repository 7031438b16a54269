"""Time zones people can find: the common ones first, then every place this server knows by region, each with its
offset now; the browser's own zone offered when JavaScript runs; and times on pages in the reader's zone.

The zone list leaves out the tz database's names that are no place (``Factory``, ``localtime``, ``Etc/GMT+3``,
``US/Eastern``): a player picks a city. A zone chosen earlier under such a name is still offered, first.
"""

from __future__ import annotations

import base64
import hashlib
from datetime import datetime, timezone
from typing import Any

import jinja2

from pbem.instance.times import DAYS, DEFAULT_ZONE, MONTHS, moment_of, tzinfo_of, utc, zone_names

REGIONS = ("Europe", "America", "Asia", "Africa", "Australia", "Pacific", "Atlantic", "Indian", "Antarctica",
           "Arctic")
REGION_WORDS = {"America": "The Americas", "Australia": "Australia", "Pacific": "The Pacific",
                "Atlantic": "The Atlantic", "Indian": "The Indian Ocean"}
COMMON = ("UTC", "Europe/London", "Europe/Dublin", "Europe/Lisbon", "Europe/Paris", "Europe/Berlin",
          "Europe/Amsterdam", "Europe/Madrid", "Europe/Rome", "Europe/Zurich", "Europe/Vienna", "Europe/Stockholm",
          "Europe/Warsaw", "Europe/Athens", "Europe/Helsinki", "Europe/Istanbul", "Europe/Kyiv", "Europe/Moscow",
          "America/New_York", "America/Toronto", "America/Chicago", "America/Denver", "America/Phoenix",
          "America/Los_Angeles", "America/Anchorage", "Pacific/Honolulu", "America/Mexico_City",
          "America/Sao_Paulo", "America/Argentina/Buenos_Aires", "Africa/Cairo", "Africa/Lagos",
          "Africa/Johannesburg", "Africa/Nairobi", "Asia/Dubai", "Asia/Kolkata", "Asia/Bangkok", "Asia/Singapore",
          "Asia/Shanghai", "Asia/Hong_Kong", "Asia/Tokyo", "Asia/Seoul", "Australia/Perth", "Australia/Adelaide",
          "Australia/Brisbane", "Australia/Sydney", "Pacific/Auckland")

# Offered on the home page when scripts run: the browser's zone, as a button beside the list. The page's
# Content-Security-Policy allows this script alone, by its hash (``SCRIPT_HASH``).
BROWSER_ZONE_SCRIPT = (
    "(function(){var z;try{z=Intl.DateTimeFormat().resolvedOptions().timeZone}catch(e){return}"
    "var b=document.getElementById('tz-browser'),s=document.getElementById('timezone');"
    "if(!z||!b||!s||![].some.call(s.options,function(o){return o.value===z}))return;"
    "b.value=z;b.textContent='Use my browser\\u2019s time zone: '+z;b.hidden=false})();")
SCRIPT_HASH = "sha256-" + base64.b64encode(hashlib.sha256(BROWSER_ZONE_SCRIPT.encode()).digest()).decode()


def offset(zone: str, now: datetime | None = None) -> str:
    """The zone's offset from UTC now: ``UTC+01:00``, ``UTC−03:30``, ``UTC``."""
    tz = tzinfo_of(zone)
    if tz is None:
        return "UTC"
    delta = (now or datetime.now(timezone.utc)).astimezone(tz).utcoffset()
    minutes = int(delta.total_seconds() // 60) if delta is not None else 0
    if minutes == 0:
        return "UTC"
    sign = "+" if minutes > 0 else "\u2212"
    return f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def place(zone: str) -> str:
    """A zone said as a place: ``Europe/Berlin`` is Berlin, ``America/Argentina/Buenos_Aires`` is Buenos Aires
    (Argentina)."""
    parts = zone.split("/")
    if len(parts) == 1:
        return zone
    city = parts[-1].replace("_", " ")
    return f"{city} ({parts[1].replace('_', ' ')})" if len(parts) == 3 else city


def choices(chosen: str | None = None, now: datetime | None = None) -> list[dict[str, Any]]:
    """The zones as the home page lists them: ``[{label, zones: [{value, words, selected}]}]``, the common ones first,
    then every region's places by name; ``chosen`` among the first if it is in neither, and selected once (where it
    comes first)."""
    known = zone_names()
    common = [z for z in COMMON if z in known]
    if chosen and chosen in known and chosen not in common and not _is_place(chosen):
        common.insert(0, chosen)

    def said(zone: str) -> dict[str, Any]:
        where = "UTC (no zone)" if zone == DEFAULT_ZONE else f"{place(zone)}, {_region(zone)}"
        return {"value": zone, "words": f"{where} \u2014 {offset(zone, now)}" if zone != DEFAULT_ZONE else where}

    groups = [{"label": "Common time zones", "zones": [said(z) for z in common]}]
    by_region: dict[str, list[str]] = {}
    for zone in known:
        if _is_place(zone):
            by_region.setdefault(zone.split("/")[0], []).append(zone)
    for region in REGIONS:
        zones = sorted(by_region.get(region, []), key=place)
        if zones:
            groups.append({"label": REGION_WORDS.get(region, region),
                           "zones": [{"value": z, "words": f"{place(z)} \u2014 {offset(z, now)}"} for z in zones]})
    first = True
    for group in groups:
        for zone in group["zones"]:
            zone["selected"] = first and zone["value"] == chosen
            first = first and not zone["selected"]
    return groups


def _is_place(zone: str) -> bool:
    return "/" in zone and zone.split("/")[0] in REGIONS


def _region(zone: str) -> str:
    return REGION_WORDS.get(zone.split("/")[0], zone.split("/")[0])


@jinja2.pass_context
def local_time(context: jinja2.runtime.Context, moment: Any) -> str:
    """A time in a few words in the reader's zone (the context's ``tz``): ``Tue 24 Nov, 09:18``; in UTC, or on a
    page without a reader's zone, ``2026-11-24 08:18 UTC``. The page's footer names the zone."""
    zone = context.get("tz")
    tz = tzinfo_of(str(zone)) if zone else None
    parsed = moment_of(moment) if moment else None
    if tz is None or parsed is None:
        return utc(moment)
    local = parsed.astimezone(tz)
    return f"{DAYS[local.weekday()]} {local.day} {MONTHS[local.month - 1]}, {local:%H:%M}"
