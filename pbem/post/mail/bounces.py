"""Bounces noticed: delivery reports read from any inbound route, and SMTP refusals at send time, mark addresses.

A report is recognised with flufl.bounce (the standard format, RFC 3464, and the common others: Postfix, Exim,
qmail, Exchange, Yahoo, ...), which tells failed recipients from delayed ones. The mail it is about is found by its
bounce address when the mail went out with one (VERP: ``bounces+OUTBOXID@``, the ``bounce_address`` setting), else
by the original Message-ID the report quotes, else by the newest mail to the failed address.

Each address has a row in ``mail_status`` (phase 2 reads it through ``status_of`` and ``troubled``):

* a hard bounce (a permanent failure, or a 5xx refusal of the recipient at send time) marks it ``bouncing``, with
  the reason and the mail it hit, and adds 1 to its score;
* a temporary failure alone never marks it: it adds 0.5, at most once a day;
* the score is Mailman 3's and Discourse's: a bouncing address whose score reaches ``THRESHOLD`` (5) is
  ``unreachable``; a score whose last bounce is older than ``STALE_DAYS`` starts again from nothing (Mailman's
  ``bounce_info_stale_after``). Phase 2 warns the player ``WARNINGS`` times before it stops mailing an unreachable
  address (``warnings`` counts them).
"""

from __future__ import annotations

import email
import email.policy
import logging
import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from email.message import Message
from enum import Enum
from typing import Any, Iterable

from flufl.bounce import all_failures

from pbem.instance.addresses import AddressError, check_address

log = logging.getLogger(__name__)

TABLE = "mail_status"
BOUNCES = "mail_bounces"
HARD_POINTS = 1.0
SOFT_POINTS = 0.5
THRESHOLD = 5.0
STALE_DAYS = 7
WARNINGS = 3
VERP_TOKEN = re.compile(r"^[0-9a-f]{32}$")


class Kind(Enum):
    HARD = "hard"  # a permanent failure: the address does not take mail
    SOFT = "soft"  # a temporary failure: a full mailbox, a server away; the sender retries


class Status(Enum):
    OK = "ok"
    BOUNCING = "bouncing"  # a hard bounce was seen: mail may not reach the player
    UNREACHABLE = "unreachable"  # the score reached the threshold: mail does not reach the player


@dataclass(frozen=True)
class AddressStatus:
    """What is known of mail to one address."""

    address: str
    status: Status
    score: float
    reason: str  # the last hard bounce's (or, without one, the last report's) words
    outbox_id: str | None  # the mail it hit
    message_id: str | None
    last_bounce_at: str
    last_soft_day: str | None
    warnings: int


@dataclass(frozen=True)
class Report:
    """A delivery report read: which addresses failed for good, which only for now, and the mail it is about."""

    hard: frozenset[str]
    soft: frozenset[str]
    outbox_id: str | None
    message_id: str | None
    reason: str


def create_tables(store: Any) -> None:
    store.ensure_table(TABLE, {"address": str, "status": str, "score": float, "reason": str, "outbox_id": str,
                               "message_id": str, "first_bounce_at": str, "last_bounce_at": str,
                               "last_soft_day": str, "warnings": int, "unreachable_at": str},
                       pk="address", indexes=[("status",)])
    # every bounce, as it came: the score's history, and what phase 2 tells the table
    store.ensure_table(BOUNCES, {"id": int, "address": str, "at": str, "kind": str, "counted": float, "reason": str,
                                 "outbox_id": str, "message_id": str, "via": str},
                       pk="id", indexes=[("address", "at")])


# ---- recognising a report --------------------------------------------------------------------------------

def _compat(raw: bytes) -> Message:
    return email.message_from_bytes(raw)  # flufl.bounce reads the classic Message


def _addresses(found: Iterable[bytes]) -> frozenset[str]:
    kept = set()
    for raw in found:
        try:
            kept.add(check_address(raw.decode("ascii", "replace")))
        except AddressError:
            continue
    return frozenset(kept)


def verp_id(message: Message, bounce_address: str) -> str | None:
    """The outbox id a report was sent back to (``bounces+ID@``), if the mail went out with a bounce address."""
    if not bounce_address:
        return None
    local, _, domain = bounce_address.partition("@")
    prefix = f"{local}+".lower()
    for name in ("To", "Delivered-To", "X-Original-To", "Envelope-To", "Return-Path"):
        for value in message.get_all(name, []):
            for _, address in email.utils.getaddresses([str(value)]):
                head, _, tail = address.rpartition("@")
                if head.lower().startswith(prefix) and tail.lower() == domain.lower():
                    token = head[len(prefix):].lower()
                    if VERP_TOKEN.match(token):
                        return token
    return None


def _original_message_id(message: Message) -> str | None:
    """The Message-ID of the mail a report returns: from its attached headers or copy, else from its text."""
    for part in message.walk():
        kind = part.get_content_type()
        if kind in ("message/rfc822", "text/rfc822-headers", "message/rfc822-headers"):
            payload = part.get_payload()
            inner = payload[0] if isinstance(payload, list) and payload else None
            if isinstance(inner, Message) and inner.get("Message-ID"):
                return str(inner["Message-ID"]).strip()
            text = payload if isinstance(payload, str) else (inner.as_string() if isinstance(inner, Message) else "")
            found = re.search(r"^Message-ID:\s*(<[^>\s]+>)", text, re.I | re.M)
            if found:
                return found.group(1)
    for part in message.walk():
        if part.get_content_type() == "message/delivery-status":  # Gmail names it in the report's fields
            blocks = part.get_payload() if isinstance(part.get_payload(), list) else []
            for block in blocks:
                if block.get("X-Original-Message-ID"):
                    return str(block["X-Original-Message-ID"]).strip()
        elif part.get_content_maintype() == "text":
            body = part.get_payload(decode=True) or b""
            found = re.search(rb"^\s*Message-ID:\s*(<[^>\s]+>)", body, re.I | re.M)
            if found:
                return found.group(1).decode("ascii", "replace")
    replied = re.search(r"<[^>\s]+>", str(message.get("In-Reply-To", "")))  # a report that answers the mail
    return replied.group(0) if replied else None


def _reason(message: Message) -> str:
    """The words a report gives for the failure: the diagnostic code, else its status, else its subject."""
    for part in message.walk():
        if part.get_content_type() == "message/delivery-status":
            for block in part.get_payload() if isinstance(part.get_payload(), list) else []:
                for name in ("Diagnostic-Code", "Status"):
                    if block.get(name):
                        return " ".join(str(block[name]).split())[:300]
    body = ""
    for part in message.walk():
        if part.get_content_type() == "text/plain":
            body = (part.get_payload(decode=True) or b"").decode("utf-8", "replace")
            break
    found = re.search(r"\b[45]\d\d[ -][45]\.\d{1,3}\.\d{1,3}[^\n]*|\b[45]\d\d[:\s][^\n]{5,}|"
                      r"<[^>\s]+ #[45]\.\d{1,3}\.\d{1,3}>[^\n]*", body)
    if found:
        return " ".join(found.group(0).split())[:300]
    return " ".join(str(message.get("Subject", "delivery report")).split())[:300]


def looks_like_report(message: Message) -> bool:
    """A delivery report's marks: the report type, a mailer daemon, an Exim header, an empty return path."""
    sender = str(message.get("From", "")).lower()
    return (message.get_content_type() == "multipart/report" or "mailer-daemon" in sender
            or "postmaster" in sender or bool(message.get("X-Failed-Recipients"))
            or str(message.get("Return-Path", "")).strip() == "<>"
            or bool(re.search(r"\b(undeliver|delivery (status|fail)|failure notice|returned mail|"
                              r"delivery has failed|nondeliverable|mail delivery)", str(message.get("Subject", "")),
                              re.I)))


WARNING_WORDS = re.compile(r"not yet been delivered|this is a warning|warning message only|will be retried|"
                           r"delivery attempts will continue|still being retried|delivery (is |has been )?delayed|"
                           r"delivery incomplete|will keep trying|temporar(y|ily) (problem|failure|deferred)", re.I)


def _is_warning(message: Message) -> bool:
    """Whether a report says it is only a warning (the mail is still being tried) and reports no failure.

    flufl.bounce's catch-all detector reads the address in some warnings (Exim's "has not yet been delivered")
    as a failure; the report's own words say otherwise.
    """
    for part in message.walk():
        if part.get_content_type() == "message/delivery-status":
            blocks = part.get_payload() if isinstance(part.get_payload(), list) else []
            if any(str(block.get("Action", "")).lower().startswith(("fail", "error")) for block in blocks):
                return False
    text = str(message.get("Subject", ""))
    for part in message.walk():
        if part.get_content_type() == "text/plain":
            text += "\n" + (part.get_payload(decode=True) or b"").decode("utf-8", "replace")
            break
    return bool(WARNING_WORDS.search(text))


def read_report(raw: bytes, bounce_address: str = "") -> Report | None:
    """The report a message is, or None if it is none (a reply, an auto-answer, spam)."""
    message = _compat(raw)
    outbox_id = verp_id(message, bounce_address)
    if outbox_id is None and not looks_like_report(message):
        return None
    try:
        temporary, permanent = all_failures(message)
    except Exception:  # a detector that trips over a malformed report: nothing can be read from it
        log.warning("a delivery report could not be read (Message-ID %s)", message.get("Message-ID"),
                    exc_info=True)
        temporary, permanent = frozenset(), frozenset()
    hard, soft = _addresses(permanent), _addresses(temporary)
    if hard and _is_warning(message):
        hard, soft = frozenset(), hard | soft
    if not hard and not soft and outbox_id is None:
        return None
    return Report(hard=hard, soft=soft - hard, outbox_id=outbox_id, message_id=_original_message_id(message),
                  reason=_reason(message))


# ---- recording ---------------------------------------------------------------------------------------------

def _now(now: datetime | None) -> datetime:
    return (now or datetime.now(timezone.utc)).astimezone(timezone.utc)


def record(store: Any, address: str, kind: Kind, reason: str, *, outbox_id: str | None = None,
           message_id: str | None = None, via: str = "report", now: datetime | None = None) -> AddressStatus:
    """Count one bounce of ``address`` and return its status after it."""
    at = _now(now)
    stamp, day = at.isoformat(timespec="seconds"), at.date().isoformat()
    with store.transaction() as conn:
        rows = conn.execute(f"SELECT status, score, last_bounce_at, last_soft_day, reason, outbox_id, message_id, "
                            f"first_bounce_at, warnings, unreachable_at FROM {TABLE} WHERE address = ?",
                            (address,)).fetchall()
        status, score, last_at, soft_day, old_reason, old_mail, old_id, first_at, warnings, unreachable_at = (
            rows[0] if rows else ("ok", 0.0, None, None, None, None, None, None, 0, None))
        if last_at and datetime.fromisoformat(last_at) < at - timedelta(days=STALE_DAYS):
            score = 0.0  # an old score is forgotten, as Mailman forgets stale bounce information
        counted = 0.0
        if kind is Kind.HARD:
            counted = HARD_POINTS
            status = "bouncing" if status != "unreachable" else status
            old_reason, old_mail, old_id = reason, outbox_id, message_id
        elif soft_day != day:  # temporary failures count at most once a day
            counted, soft_day = SOFT_POINTS, day
        score = float(score or 0.0) + counted
        if score >= THRESHOLD and status == "bouncing":  # temporary failures alone never mark an address
            status, unreachable_at = "unreachable", stamp
        values = (address, status, score, old_reason or reason, old_mail, old_id, first_at or stamp, stamp, soft_day,
                  int(warnings or 0), unreachable_at)
        conn.execute(f"INSERT INTO {TABLE} (address, status, score, reason, outbox_id, message_id, first_bounce_at, "
                     f"last_bounce_at, last_soft_day, warnings, unreachable_at) VALUES (?,?,?,?,?,?,?,?,?,?,?) "
                     f"ON CONFLICT (address) DO UPDATE SET status = excluded.status, score = excluded.score, "
                     f"reason = excluded.reason, outbox_id = excluded.outbox_id, message_id = excluded.message_id, "
                     f"last_bounce_at = excluded.last_bounce_at, last_soft_day = excluded.last_soft_day, "
                     f"unreachable_at = excluded.unreachable_at", values)
        next_id = conn.execute(f"SELECT COALESCE(MAX(id), 0) + 1 FROM {BOUNCES}").fetchall()[0][0]
        conn.execute(f"INSERT INTO {BOUNCES} (id, address, at, kind, counted, reason, outbox_id, message_id, via) "
                     f"VALUES (?,?,?,?,?,?,?,?,?)", (next_id, address, stamp, kind.value, counted, reason, outbox_id,
                                                     message_id, via))
    found = status_of(store, address)
    assert found is not None
    if kind is Kind.HARD:
        log.info("mail to %s bounced (%s): %s; now %s, score %.1f", address, via, reason, found.status.value,
                 found.score)
    return found


def status_of(store: Any, address: str) -> AddressStatus | None:
    """What is known of mail to ``address``; None if nothing ever bounced."""
    rows = store.query(f"SELECT * FROM {TABLE} WHERE address = ?", (address,))
    return _status(rows[0]) if rows else None


def troubled(store: Any) -> list[AddressStatus]:
    """Every address that is bouncing or unreachable, the most recent first."""
    rows = store.query(f"SELECT * FROM {TABLE} WHERE status <> 'ok' ORDER BY last_bounce_at DESC, address")
    return [_status(row) for row in rows]


def bounces_of(store: Any, address: str) -> list[dict[str, Any]]:
    """Every bounce counted for ``address``, oldest first."""
    return list(store.query(f"SELECT at, kind, counted, reason, outbox_id, message_id, via FROM {BOUNCES} "
                            f"WHERE address = ? ORDER BY id", (address,)))


def reset(store: Any, address: str) -> None:
    """Forget what bounced (the address was fixed or verified again); the bounces stay as history."""
    with store.transaction() as conn:
        conn.execute(f"DELETE FROM {TABLE} WHERE address = ?", (address,))


def _status(row: dict[str, Any]) -> AddressStatus:
    return AddressStatus(address=row["address"], status=Status(row["status"]), score=float(row["score"] or 0),
                         reason=row["reason"] or "", outbox_id=row["outbox_id"], message_id=row["message_id"],
                         last_bounce_at=row["last_bounce_at"], last_soft_day=row["last_soft_day"],
                         warnings=int(row["warnings"] or 0))


# ---- a report that arrived ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Noticed:
    """What a delivery report did: each address it marked, with its status after."""

    marked: tuple[AddressStatus, ...]
    temporary: tuple[str, ...]
    refused: bool = False  # as a reply's outcome: a report is no refused reply (``pbem inbound`` exits 0)

    def summary(self) -> str:
        if not self.marked and not self.temporary:
            return "a delivery report about no mail of ours: nothing marked"
        parts = [f"{s.address} {s.status.value} (score {s.score:g})" for s in self.marked]
        return "delivery report: " + "; ".join(parts) if parts else "delivery report: a temporary failure only"


def _mail(store: Any, report: Report, address: str | None) -> dict[str, Any] | None:
    """The outbox row a report is about: by its bounce address, its original Message-ID, or the newest to it."""
    if report.outbox_id:
        rows = store.query("SELECT id, to_addr, message_id FROM outbox WHERE id = ?", (report.outbox_id,))
        if rows:
            return dict(rows[0])
    if report.message_id:
        rows = store.query("SELECT id, to_addr, message_id FROM outbox WHERE message_id = ? "
                           + ("AND to_addr = ? " if address else "") + "ORDER BY created_at DESC",
                           (report.message_id, address) if address else (report.message_id,))
        if rows:
            return dict(rows[0])
    if address:
        rows = store.query("SELECT id, to_addr, message_id FROM outbox WHERE to_addr = ? AND status = 'sent' "
                           "ORDER BY sent_at DESC", (address,))
        if rows:
            return dict(rows[0])
    return None


def notice(store: Any, report: Report, now: datetime | None = None) -> Noticed:
    """Mark the addresses a report names (only those pbem mailed), or the one its bounce address names."""
    hard, soft = set(report.hard), set(report.soft)
    verp = _mail(store, report, None) if report.outbox_id else None
    if verp is not None and not hard and not soft:
        pass  # a report to our bounce address that names no failure we can read: an auto-answer, a notice
    elif verp is not None:  # the bounce address names the mail, and so the address, whatever the report calls it
        hard, soft = ({verp["to_addr"]}, set()) if hard else (set(), {verp["to_addr"]})
    marked: list[AddressStatus] = []
    for address in sorted(hard):
        mail = verp or _mail(store, report, address)
        if mail is None:
            continue  # not an address pbem mailed: a report about someone else's mail
        marked.append(record(store, address, Kind.HARD, report.reason, outbox_id=mail["id"],
                             message_id=mail["message_id"], via="report", now=now))
    temporary = []
    for address in sorted(soft):
        mail = verp or _mail(store, report, address)
        if mail is None:
            continue
        status = record(store, address, Kind.SOFT, report.reason, outbox_id=mail["id"],
                        message_id=mail["message_id"], via="report", now=now)
        temporary.append(address)
        if status.status is not Status.OK:
            marked.append(status)
    return Noticed(tuple(marked), tuple(temporary))


def read_and_notice(store: Any, raw: bytes, bounce_address: str = "", now: datetime | None = None) -> Noticed | None:
    """Notice a delivery report, if the message is one (None otherwise: read it as a reply)."""
    report = read_report(raw, bounce_address)
    return notice(store, report, now) if report is not None else None
