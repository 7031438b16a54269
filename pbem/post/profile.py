"""A player as the server's operator sees them (``pbem player show``): their games, settings, record and mail."""

from __future__ import annotations

from typing import Any

from pbem.errors import NotFound, ServiceError
from pbem.instance.addresses import AddressError, check_address
from pbem.instance.times import zone_names
from pbem.post.mail import bounces
from pbem.post.new_address import waiting
from pbem.post.people import MailSettings
from pbem.post.undelivered import TOLD
from pbem.table.reliability import of_player

REPORTS = 5  # the last delivery reports shown


def show(store: Any, email: str, default_zone: str) -> dict[str, Any]:
    """Everything the server knows of the player with this address, for its operator (the address included).

    :raises ServiceError: not an address. :raises NotFound: an address this server never had.
    """
    try:
        address = check_address(email)
    except AddressError as err:
        raise ServiceError(str(err)) from None
    known = store.query("SELECT player_id, name, timezone, mail_mode, receipts, talk_mail FROM players WHERE email = ?",
                        (address,))
    games = store.query(f"SELECT g.game_id, g.title, g.status, s.seat, s.name, s.mail, t.seq AS told_seq "
                        f"FROM seats s JOIN games g ON g.game_id = s.game_id "
                        f"LEFT JOIN {TOLD} t ON t.game_id = s.game_id AND t.seat = s.seat "
                        f"WHERE s.email = ? ORDER BY g.created_at, g.game_id", (address,))
    status = bounces.status_of(store, address)
    if not known and not games and status is None:
        raise NotFound(f"no player {address} on this server: `pbem game list` and `pbem game show ID` name the "
                       "players")
    row = known[0] if known else None
    chosen = row["timezone"] if row and row["timezone"] in zone_names() else None
    settings = MailSettings.of(row)
    record = of_player(store, address)
    reports = bounces.bounces_of(store, address)
    return {
        "email": address,
        "name": str(row["name"]) if row else (str(games[0]["name"]) if games else None),
        "player_id": str(row["player_id"]) if row else None,
        "games": [{"game_id": g["game_id"], "title": g["title"], "seat": int(g["seat"]) + 1, "name": g["name"],
                   "status": g["status"], "mails": bool(g["mail"] if g["mail"] is not None else 1),
                   "told_not_arriving": g["told_seq"] is not None} for g in games],
        "settings": {"timezone": chosen or default_zone, "timezone_chosen": chosen is not None,
                     "mail_mode": settings.mode, "receipts": settings.receipts, "talk_mail": settings.talk},
        "reliability": {"on_time": record.on_time, "late": record.late, "missed": record.missed,
                        "response_seconds": record.response_seconds, "words": record.words()},
        "mail": {
            "status": status.status.value if status else bounces.Status.OK.value,
            "score": status.score if status else 0.0,
            "reason": status.reason if status else None,
            "last_bounce_at": status.last_bounce_at if status else None,
            "outbox_id": status.outbox_id if status else None,
            "reports": list(reversed(reports[-REPORTS:])),
            "reports_total": len(reports),
            "changes_waiting": [{"new_email": c.new_email, "requested_at": c.requested_at}
                                for c in (waiting(store, str(row["player_id"])) if row else [])],
        },
    }


def lines(found: dict[str, Any]) -> list[str]:
    """``show`` in lines of text."""
    out = [f"{found['name'] or '(no name)'} <{found['email']}>"
           + (f"  (player id {found['player_id']})" if found["player_id"] else "")]
    out.append(f"games: {len(found['games'])}")
    for g in found["games"]:
        notes = ([] if g["mails"] else ["mails off"]) + (
            ["the table was told the mail is not arriving"] if g["told_not_arriving"] else [])
        out.append(f"  {g['game_id']}  {g['title']}  seat {g['seat']} as {g['name']}  {g['status']}"
                   + (f"  ({'; '.join(notes)})" if notes else ""))
    s = found["settings"]
    out.append(f"settings: time zone {s['timezone']}{'' if s['timezone_chosen'] else ' (the server default)'}; "
               f"mails: {'a daily digest' if s['mail_mode'] == 'daily' else 'every decision'}; "
               f"receipts {'on' if s['receipts'] else 'off'}; table talk "
               + {"soon": "mailed soon after", "turn": "with the next turn mail", "digest": "in the digest"}[s["talk_mail"]])
    out.append(f"reliability: {found['reliability']['words']}")
    mail = found["mail"]
    if mail["status"] == bounces.Status.OK.value and not mail["reports"]:
        out.append("mail: ok (nothing came back)")
    else:
        out.append(f"mail: {mail['status']} (score {mail['score']:g})"
                   + (f": {mail['reason']}" if mail["status"] != bounces.Status.OK.value else ""))
        out.append(f"  last reports ({len(mail['reports'])} of {mail['reports_total']}, newest first):")
        for r in mail["reports"]:
            out.append(f"    {r['at']}  {r['kind']}  by {r['via']}  {r['reason']}")
    for c in mail["changes_waiting"]:
        out.append(f"  a new address asked for: {c['new_email']} ({c['requested_at']}); its link not opened yet")
    return out
